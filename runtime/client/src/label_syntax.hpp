// Syntax of label keys and values, as k8s.io/apimachinery/pkg/util/validation checks them
// (IsQualifiedName, IsValidLabelValue). Each returns "" when valid, else why not.
#pragma once
#include <string>
#include <string_view>

namespace rr::detail {

// "[prefix/]name": name up to 63 characters of [A-Za-z0-9-_.] starting and ending alphanumeric;
// prefix a lowercase RFC 1123 subdomain of up to 253 characters.
std::string label_key_error(std::string_view key);

// Empty, or up to 63 characters of [A-Za-z0-9-_.] starting and ending alphanumeric.
std::string label_value_error(std::string_view value);

}  // namespace rr::detail
