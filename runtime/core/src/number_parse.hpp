// Exact conversions of JSON number tokens (already validated against the RFC 8259 grammar).
#pragma once
#include <cstdint>
#include <string_view>

namespace rr::detail {

enum class IntParse { Ok, NotInteger, OutOfRange };

// Integral values written with a fraction or exponent ("1.0", "1e3") are accepted exactly, as the
// API server accepts them for `type: integer`; "1.5" is NotInteger.
IntParse parse_json_integer(std::string_view token, std::int64_t& out) noexcept;
// Correctly rounded (std::from_chars). Underflow gives a signed zero; overflow returns false.
bool parse_json_double(std::string_view token, double& out) noexcept;

}  // namespace rr::detail
