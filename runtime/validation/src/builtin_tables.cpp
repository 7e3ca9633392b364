#include "builtin_tables.hpp"

namespace rr::validation::detail {

// Each family adds its span here.
std::vector<std::span<const BuiltinValidator>> builtin_validator_parts() { return {}; }

}  // namespace rr::validation::detail
