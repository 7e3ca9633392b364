// What the client's libFuzzer targets share: stopping on a broken property, and skipping inputs
// whose nesting only measures the stack.
#pragma once
#include <cstdlib>
#include <string_view>

namespace rr::fuzz {

// A property failed: abort, so libFuzzer keeps the input (`why` is for the reader of the source).
[[noreturn]] inline void die(const char* why) {
  (void)why;
  std::abort();
}

// Nesting depth by brackets (counting those inside strings too, which only over-estimates): the
// code under test recurses, and a stack overflow on absurd depth says nothing about it.
inline bool too_deep(std::string_view text, int limit = 64) {
  int depth = 0;
  for (const char c : text) {
    if (c == '[' || c == '{') {
      if (++depth > limit) return true;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return false;
}

}  // namespace rr::fuzz
