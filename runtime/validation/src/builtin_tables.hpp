// The parts of the built-in validators' table, one per family of kinds (each defined in that
// family's file), joined by builtin.cpp.
#pragma once
#include <span>
#include <vector>

#include "rr/validation/builtin.hpp"

namespace rr::validation::detail {

std::vector<std::span<const BuiltinValidator>> builtin_validator_parts();

}  // namespace rr::validation::detail
