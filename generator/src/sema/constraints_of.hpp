// Schema node -> the model's Constraints: everything a backend reads about a value, copied out of
// the parsed input so the model outlives it.
#pragma once
#include "load/schema.hpp"
#include "model/constraints.hpp"

namespace rrgen {

Constraints constraints_of(const Schema& s);
// A JSON string literal's text (as the loader's to_json_text writes it) back to its value.
std::string json_string_value(const std::string& json);

}  // namespace rrgen
