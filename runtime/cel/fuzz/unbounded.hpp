// Shared by the CEL fuzz targets: which expressions not to evaluate.
#pragma once
#include <cstddef>
#include <string_view>

namespace fuzz {

inline std::size_t count(std::string_view text, std::string_view word) {
  std::size_t n = 0;
  for (auto at = text.find(word); at != std::string_view::npos; at = text.find(word, at + 1)) ++n;
  return n;
}

// rr::cel has no cost budget yet (docs/runtime/26-cel.md), so some programs legitimately run for
// ever or fill memory:
// comprehensions nested deep enough multiply their iterations, cel.bind chains can double a value
// at each level, lists.range(n) allocates n values. Such inputs are not what the targets look for
// (crashes and nondeterminism), so they are not evaluated rather than reported as timeouts.
inline bool unbounded(std::string_view expr) {
  std::size_t loops = 0;
  for (const char* macro : {"all(", "exists", "map(", "filter(", "transform", "sortBy(", "existsOne("})
    loops += count(expr, macro);
  return loops > 3 || count(expr, "bind") > 2 || count(expr, "range") > 0;
}

}  // namespace fuzz
