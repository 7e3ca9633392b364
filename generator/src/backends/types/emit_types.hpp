// The types backend: one header + one source per Unit (kind or OpenAPI definition).
#pragma once
#include "model/model.hpp"
#include "support/output.hpp"

namespace rrgen {

struct TypesOptions {
  std::string generator_version;
};

OutputSet emit_types(const Model& model, const TypesOptions& options);

// NAME.hpp (includes every unit header) and NAME.cpp (a unity source that includes every unit
// source and defines `std::span<const rr::KindCodec> NAME_kinds()`): a fixed pair of outputs for
// build systems that must know their outputs before the generator runs. Their content changes
// whenever any unit's does, so a build that depends on them recompiles exactly when needed.
// With shards > 0 the units compile in NAME_1.cpp ... NAME_<shards>.cpp instead (runs of units in
// path order, balanced by generated size) and NAME.cpp holds only the table of kinds.
void emit_aggregate(const Model& model, const std::string& name, const TypesOptions& options, OutputSet& out, int shards);

}  // namespace rrgen
