// tracker.Reference validation, with the wording of Kubernetes' apimachinery validators
// (IsCIdentifier, IsDNS1123Subdomain, IsDNS1123Label).
#include <algorithm>
#include <string_view>
#include <vector>

#include "rr/reconcilers/tracker.hpp"

namespace rr {

namespace {

bool is_lower_alnum(char c) noexcept { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

bool is_c_identifier(std::string_view s) noexcept {
  if (s.empty()) return false;
  auto alpha = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  if (!alpha(s.front())) return false;
  return std::all_of(s.begin() + 1, s.end(), [&](char c) { return alpha(c) || (c >= '0' && c <= '9'); });
}

// [a-z0-9]([-a-z0-9]*[a-z0-9])?
bool is_dns1123_label_text(std::string_view s) noexcept {
  if (s.empty() || !is_lower_alnum(s.front()) || !is_lower_alnum(s.back())) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return is_lower_alnum(c) || c == '-'; });
}

// Labels joined by '.'.
bool is_dns1123_subdomain_text(std::string_view s) noexcept {
  std::size_t start = 0;
  for (;;) {
    const std::size_t dot = s.find('.', start);
    if (!is_dns1123_label_text(s.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start)))
      return false;
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

std::vector<std::string> c_identifier_errors(std::string_view s) {
  if (is_c_identifier(s)) return {};
  return {"a valid C identifier must start with alphabetic character or '_', followed by a string of "
          "alphanumeric characters or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName', regex used for "
          "validation is '[A-Za-z_][A-Za-z0-9_]*')"};
}

std::vector<std::string> dns1123_subdomain_errors(std::string_view s) {
  std::vector<std::string> out;
  if (s.size() > 253) out.emplace_back("must be no more than 253 characters");
  if (!is_dns1123_subdomain_text(s)) {
    out.emplace_back(
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and "
        "must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is "
        "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')");
  }
  return out;
}

std::vector<std::string> dns1123_label_errors(std::string_view s) {
  std::vector<std::string> out;
  if (s.size() > 63) out.emplace_back("must be no more than 63 characters");
  if (!is_dns1123_label_text(s)) {
    out.emplace_back(
        "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start "
        "and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is "
        "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')");
  }
  return out;
}

void add_field_errors(std::vector<std::string>& errors, std::string_view field, const std::vector<std::string>& found) {
  for (const auto& e : found) errors.push_back(std::string(field) + ": " + e);
}

}  // namespace

std::optional<std::string> TrackReference::validation_error() const {
  std::vector<std::string> errors;
  add_field_errors(errors, "Kind", c_identifier_errors(kind));
  if (!api_group.empty()) add_field_errors(errors, "APIGroup", dns1123_subdomain_errors(api_group));
  if (!namespace_.empty()) add_field_errors(errors, "Namespace", dns1123_label_errors(namespace_));
  if (name.empty() && !selector) errors.emplace_back("Name or Selector: one of them must be set");
  if (!name.empty() && selector) errors.emplace_back("Name and Selector: only one of them may be set");
  if (errors.empty()) return std::nullopt;
  std::sort(errors.begin(), errors.end());
  std::string text = "invalid Reference:";
  for (const auto& e : errors) text += "\n" + e;
  return text;
}

}  // namespace rr
