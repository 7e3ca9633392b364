#include "support/k8s_names.hpp"

#include <algorithm>

#include "support/ascii.hpp"

namespace rrgen {
namespace {

using ascii::is_alnum;
using ascii::is_lower_alnum;

// A DNS-1123 label without the length limit (a subdomain's labels share its 253).
bool is_dns_label_text(std::string_view s) {
  if (s.empty() || !is_lower_alnum(s.front()) || !is_lower_alnum(s.back())) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return is_lower_alnum(c) || c == '-'; });
}

}  // namespace

bool is_dns1123_label(std::string_view s) { return s.size() <= 63 && is_dns_label_text(s); }

bool is_dns1123_subdomain(std::string_view s) {
  if (s.empty() || s.size() > 253) return false;
  for (std::size_t a = 0;;) {
    const std::size_t b = s.find('.', a);
    if (!is_dns_label_text(s.substr(a, b == std::string_view::npos ? std::string_view::npos : b - a))) return false;
    if (b == std::string_view::npos) return true;
    a = b + 1;
  }
}

bool is_dns1035_label(std::string_view s) { return is_dns1123_label(s) && s.front() >= 'a' && s.front() <= 'z'; }

bool is_qualified_name_part(std::string_view s) {
  if (s.empty() || s.size() > 63 || !is_alnum(s.front()) || !is_alnum(s.back())) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return is_alnum(c) || c == '-' || c == '_' || c == '.'; });
}

bool is_label_value(std::string_view s) { return s.empty() || is_qualified_name_part(s); }

}  // namespace rrgen
