// Standard base64 (RFC 4648, with padding): bytes values in JSON and the conformance tests.
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace rr::cel {

std::string base64_encode(std::string_view bytes);
std::optional<std::string> base64_decode(std::string_view text);

}  // namespace rr::cel
