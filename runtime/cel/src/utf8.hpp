// UTF-8 helpers: validation, encoding a code point, code point counts and indexing (CEL strings
// are sequences of code points: size(), substring indices and columns count code points).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace rr::cel {

bool valid_utf8(std::string_view s);
void append_utf8(std::string& out, std::uint32_t code_point);
// The length of the UTF-8 sequence starting at s[pos] (1 for an invalid lead byte).
std::size_t utf8_sequence_length(std::string_view s, std::size_t pos);
std::size_t code_point_count(std::string_view s);
// The byte offset of code point `index` (s.size() when index == count).
std::size_t code_point_offset(std::string_view s, std::size_t index);
// Decodes the code point at s[pos] (valid UTF-8 assumed) and advances pos.
std::uint32_t next_code_point(std::string_view s, std::size_t& pos);

}  // namespace rr::cel
