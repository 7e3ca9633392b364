// The types backend: one header + one source per Unit (kind or OpenAPI definition).
#pragma once
#include "model.hpp"
#include "output.hpp"

namespace rrgen {

struct TypesOptions {
  std::string generator_version;
};

OutputSet emit_types(const Model& model, const TypesOptions& options);

}  // namespace rrgen
