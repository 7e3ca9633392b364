// Private helpers shared by the runtime's sources: UTF-8, JSON string escaping, Go-style printing.
// Not installed; generated code never sees this header.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace rr::detail {

// Length of the valid UTF-8 sequence starting at p[0] (p[0] >= 0x80), or 0 when it is not valid
// (overlong forms, surrogates and code points past U+10FFFF are invalid, as in RFC 3629).
std::size_t utf8_sequence_length(const unsigned char* p, std::size_t available) noexcept;
void append_utf8(std::string& out, std::uint32_t code_point);
// Number of code points, counting each invalid byte as one (Go's utf8.RuneCountInString).
std::size_t count_code_points(std::string_view s) noexcept;

// Appends `s` as a JSON string literal (quotes included), escaping only what JSON requires.
void append_json_string(std::string& out, std::string_view s);
// RFC 6901: '~' -> "~0", '/' -> "~1".
void append_pointer_segment(std::string& out, std::string_view segment);

// Go's strconv.Quote / fmt "%q" for a string (printable ASCII and valid UTF-8 kept as is).
std::string go_quote(std::string_view s);
// Go's fmt "%v" for a float64 that came from JSON: integral values without a fraction.
std::string go_number(double v);

}  // namespace rr::detail
