#include "printable.hpp"

#include <cstdio>

namespace rr::validation::detail {
namespace {

// One rune of UTF-8 at s[i]; `len` gets its byte length (1 for an invalid byte, decoded as U+FFFD).
char32_t decode(std::string_view s, std::size_t i, std::size_t& len) {
  const auto b0 = static_cast<unsigned char>(s[i]);
  len = 1;
  if (b0 < 0x80) return b0;
  int n = 0;
  char32_t cp = 0;
  if ((b0 & 0xe0) == 0xc0) {
    n = 1;
    cp = b0 & 0x1f;
  } else if ((b0 & 0xf0) == 0xe0) {
    n = 2;
    cp = b0 & 0x0f;
  } else if ((b0 & 0xf8) == 0xf0) {
    n = 3;
    cp = b0 & 0x07;
  } else {
    return 0xfffd;
  }
  if (i + static_cast<std::size_t>(n) >= s.size()) return 0xfffd;  // truncated
  for (int k = 1; k <= n; ++k) {
    const auto b = static_cast<unsigned char>(s[i + static_cast<std::size_t>(k)]);
    if ((b & 0xc0) != 0x80) return 0xfffd;
    cp = (cp << 6) | (b & 0x3f);
  }
  // Overlong forms, surrogates and values past U+10FFFF are invalid, as Go's decoder says.
  static constexpr char32_t kMin[] = {0, 0x80, 0x800, 0x10000};
  if (cp < kMin[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0xfffd;
  len = static_cast<std::size_t>(n) + 1;
  return cp;
}

bool printable(char32_t r) {
  if (r < 0x80) return r >= 0x20 && r != 0x7f;
  if (r < 0xa0) return false;                                              // C1 controls
  if (r == 0xa0 || r == 0xad || r == 0x1680 || r == 0x3000) return false;  // no-break space, soft hyphen, spaces
  if ((r >= 0x2000 && r <= 0x200f) || (r >= 0x2028 && r <= 0x202f) || (r >= 0x205f && r <= 0x206f)) return false;
  if (r == 0xfeff || (r >= 0xfff9 && r <= 0xfffb)) return false;   // BOM, interlinear annotations
  if ((r >= 0xe000 && r <= 0xf8ff) || r >= 0xf0000) return false;  // private use
  return true;
}

}  // namespace

std::vector<Rune> non_printable_runes(std::string_view s) {
  std::vector<Rune> out;
  for (std::size_t i = 0; i < s.size();) {
    std::size_t len = 1;
    const char32_t r = decode(s, i, len);
    if (!printable(r)) out.push_back({r, i});
    i += len;
  }
  return out;
}

std::string go_unicode_format(char32_t r) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "U+%04X", static_cast<unsigned>(r));
  return buf;
}

}  // namespace rr::validation::detail
