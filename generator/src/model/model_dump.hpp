// --dump-model=json: the model as JSON, for debugging and for tests that pin naming decisions.
#pragma once
#include <string>

#include "model/model.hpp"

namespace rrgen {

std::string dump_model_json(const Model& model);
// A compact C++ spelling of a type for humans ("std::optional<std::vector<Foo>>").
std::string describe_type(const TypeRef& t);

}  // namespace rrgen
