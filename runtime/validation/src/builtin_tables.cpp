#include "builtin_tables.hpp"

#include "core_validators.hpp"
#include "workload_validators.hpp"

namespace rr::validation::detail {

// Each family adds its span here.
std::vector<std::span<const BuiltinValidator>> builtin_validator_parts() {
  return {workload_validators(), core_validators()};
}

}  // namespace rr::validation::detail
