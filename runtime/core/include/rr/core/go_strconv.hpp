// Go's strconv.ParseBool, which the flags and query parameters of Kubernetes components accept
// (controller-runtime's --leader-elect=T, the API server's ?watch=1).
#pragma once
#include <optional>
#include <string_view>

namespace rr {

// 1 t T TRUE true True -> true; 0 f F FALSE false False -> false; anything else: nullopt.
inline std::optional<bool> parse_go_bool(std::string_view text) {
  if (text == "1" || text == "t" || text == "T" || text == "TRUE" || text == "true" || text == "True") return true;
  if (text == "0" || text == "f" || text == "F" || text == "FALSE" || text == "false" || text == "False") return false;
  return std::nullopt;
}

}  // namespace rr
