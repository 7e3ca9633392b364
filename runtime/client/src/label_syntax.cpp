#include "label_syntax.hpp"

namespace rr::detail {
namespace {

constexpr std::size_t kNameMaxLength = 63;
constexpr std::size_t kSubdomainMaxLength = 253;

constexpr std::string_view kNameRule =
    "consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
    "alphanumeric character";

bool is_alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }
bool is_lower_alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

// ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]
bool is_name_syntax(std::string_view s) {
  if (s.empty() || !is_alnum(s.front()) || !is_alnum(s.back())) return false;
  for (const char c : s) {
    if (!is_alnum(c) && c != '-' && c != '_' && c != '.') return false;
  }
  return true;
}

// [a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*
bool is_subdomain_syntax(std::string_view s) {
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = s.find('.', start);
    const std::string_view label = s.substr(start, dot == std::string_view::npos ? s.npos : dot - start);
    if (label.empty() || !is_lower_alnum(label.front()) || !is_lower_alnum(label.back())) return false;
    for (const char c : label) {
      if (!is_lower_alnum(c) && c != '-') return false;
    }
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

}  // namespace

std::string label_key_error(std::string_view key) {
  std::string_view name = key;
  const std::size_t slash = key.find('/');
  if (slash != std::string_view::npos) {
    if (key.find('/', slash + 1) != std::string_view::npos) {
      return "a qualified name must " + std::string(kNameRule) +
             ", with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')";
    }
    const std::string_view prefix = key.substr(0, slash);
    name = key.substr(slash + 1);
    if (prefix.empty()) return "prefix part must be non-empty";
    if (prefix.size() > kSubdomainMaxLength) return "prefix part must be no more than 253 characters";
    if (!is_subdomain_syntax(prefix)) {
      return "prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric "
             "characters, '-' or '.', and must start and end with an alphanumeric character (e.g. "
             "'example.com')";
    }
  }
  if (name.empty()) return "name part must be non-empty";
  if (name.size() > kNameMaxLength) return "name part must be no more than 63 characters";
  if (!is_name_syntax(name)) return "name part must " + std::string(kNameRule) + " (e.g. 'MyName', 'my.name' or '123-abc')";
  return {};
}

std::string label_value_error(std::string_view value) {
  if (value.size() > kNameMaxLength) return "must be no more than 63 characters";
  if (!value.empty() && !is_name_syntax(value)) {
    return "a valid label must be an empty string or " + std::string(kNameRule) +
           " (e.g. 'MyValue', 'my_value' or '12345')";
  }
  return {};
}

}  // namespace rr::detail
