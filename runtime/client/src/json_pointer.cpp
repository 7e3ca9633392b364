#include "json_pointer.hpp"

#include "rr/client/patch.hpp"

namespace rr::detail {

std::vector<std::string> parse_json_pointer(std::string_view pointer) {
  std::vector<std::string> tokens;
  if (pointer.empty()) return tokens;
  if (pointer.front() != '/') {
    throw PatchError("invalid JSON pointer \"" + std::string(pointer) + "\": must be empty or start with '/'");
  }
  std::string token;
  for (std::size_t i = 1; i <= pointer.size(); ++i) {
    if (i == pointer.size() || pointer[i] == '/') {
      tokens.push_back(std::move(token));
      token.clear();
      continue;
    }
    const char c = pointer[i];
    if (c != '~') {
      token += c;
      continue;
    }
    const char next = i + 1 < pointer.size() ? pointer[i + 1] : '\0';
    if (next != '0' && next != '1') {
      throw PatchError("invalid JSON pointer \"" + std::string(pointer) + "\": '~' at offset " +
                       std::to_string(i) + " must be followed by '0' or '1'");
    }
    token += next == '0' ? '~' : '/';
    ++i;
  }
  return tokens;
}

std::string escape_json_pointer_token(std::string_view token) {
  std::string out;
  out.reserve(token.size());
  for (const char c : token) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace rr::detail
