// RFC 6901 JSON pointers, as JSON Patch uses them: "" is the whole document, "/a/0/b~1c" names
// members and array elements; "~1" stands for "/" and "~0" for "~" inside a token.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace rr::detail {

// The unescaped reference tokens of `pointer`; throws PatchError when it is not a pointer
// (does not start with "/", or has a "~" not followed by "0" or "1").
std::vector<std::string> parse_json_pointer(std::string_view pointer);

// `token` escaped for use in a pointer ("a/b~c" -> "a~1b~0c").
std::string escape_json_pointer_token(std::string_view token);

}  // namespace rr::detail
