// The string formats the API server checks (kube-openapi's strfmt registry, as used for CRDs).
#pragma once
#include <string_view>

#include "rr/core/validator.hpp"

namespace rr::detail {

// True when `value` satisfies `format`; Format::None and formats not listed always pass.
bool check_format(std::string_view value, Format format);
// The OpenAPI spelling: "date-time", "int32", ...
std::string_view format_name(Format format) noexcept;

bool is_ipv4(std::string_view s) noexcept;
bool is_ipv6(std::string_view s) noexcept;

}  // namespace rr::detail
