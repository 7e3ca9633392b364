#include "rr/client/resource_version.hpp"

#include <limits>

#include "rr/core/go_quote.hpp"

namespace rr {

ParsedResourceVersion parse_resource_version(std::string_view rv) {
  ParsedResourceVersion out;
  if (rv.empty()) return out;  // ObjectResourceVersion: "" is "no version", not an error
  auto fail = [&](const char* why) {
    out.value = 0;
    out.error = "strconv.ParseUint: parsing " + go_quote(rv) + ": " + why;
    return out;
  };
  constexpr std::uint64_t max = std::numeric_limits<std::uint64_t>::max();
  for (char c : rv) {
    // ParseUint takes digits only: no sign, no space, no fraction; it stops at the first
    // character that overflows, so "99999999999999999999x" is out of range, not a syntax error.
    if (c < '0' || c > '9') return fail("invalid syntax");
    const auto digit = static_cast<std::uint64_t>(c - '0');
    if (out.value > (max - digit) / 10) return fail("value out of range");
    out.value = out.value * 10 + digit;
  }
  return out;
}

namespace api_errors {

namespace {
Status reasonless_500(std::string message) {
  Status s;
  s.code = 500;
  s.message = std::move(message);
  return s;
}
}  // namespace

Status malformed_object_resource_version(const ParsedResourceVersion& parsed) { return reasonless_500(parsed.error); }

Status malformed_query_resource_version(std::string_view rv, const ParsedResourceVersion& parsed) {
  return reasonless_500("resourceVersion: Invalid value: " + go_quote(rv) + ": " + parsed.error);
}

}  // namespace api_errors
}  // namespace rr
