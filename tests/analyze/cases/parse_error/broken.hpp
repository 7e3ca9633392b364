// Not valid C++: rrgen analyze reports Clang's error at its place and exits 1, never crashes.
#pragma once
#include "rr/client/client.hpp"

// clang-format off
namespace cases {
inline void broken(rr::Client& client) {
  (void)client.get<UnknownKind>("ns", "name")
}
}  // namespace cases
// clang-format on
