// Schema node -> the model's Constraints: everything a backend reads about a value, copied out of
// the parsed input so the model outlives it.
#pragma once
#include "load/schema.hpp"
#include "model/constraints.hpp"

namespace rrgen {

Constraints constraints_of(const Schema& s);

}  // namespace rrgen
