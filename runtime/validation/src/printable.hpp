// Go's unicode.IsPrint for ValidateFieldManager's "invalid character U+0007 (at position 3)".
#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace rr::validation::detail {

struct Rune {
  char32_t code_point;
  std::size_t offset;  // byte offset, as Go's `for i, r := range s`
};

// The runes of `s` Go does not consider printable. Invalid UTF-8 decodes to U+FFFD, which is.
// Outside ASCII this covers the C1 controls and the format, separator and private-use characters
// found in practice (a subset of Unicode's tables: see docs/runtime/35-validation.md).
std::vector<Rune> non_printable_runes(std::string_view s);
std::string go_unicode_format(char32_t r);  // %#U of a non-printable rune: "U+0007"

}  // namespace rr::validation::detail
