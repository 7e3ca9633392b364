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

// The targets evaluate with the API server's per-call cost limit (docs/runtime/26-cel.md#cost),
// which stops loops however deeply nested and strings grown by repeated concatenation. Two ways to
// fill memory remain that the cost model does not charge as they allocate: cel.bind chains that
// double a list (list concatenation costs 1, as in cel-go, though it copies here) and
// lists.range(n), charged after it built its n values. Such inputs are not what the targets look
// for (crashes and nondeterminism), so they are not evaluated rather than reported as timeouts.
inline bool unbounded(std::string_view expr) { return count(expr, "bind") > 2 || count(expr, "range") > 0; }

}  // namespace fuzz
