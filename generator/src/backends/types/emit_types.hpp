// The types backend: one header + one source per Unit (kind or OpenAPI definition).
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "model/model.hpp"
#include "support/output.hpp"

namespace rrgen {

// A unit source of more lines than this is written in parts: <path>.cpp, <path>.part2.cpp ...
// (of about equal line counts, whole structs each, in declaration order), which compile as
// separate translation units: one huge kind (Argo's Workflow: 12,400 lines) then neither costs one
// compiler run all of its time and memory nor keeps a sharded aggregate from spreading it
// (docs/types.md, "Compile time"). Lines, not bytes: a kind's CEL rules are one long literal.
inline constexpr std::size_t kSourcePartLines = 5000;

struct TypesOptions {
  std::string generator_version;
  std::size_t source_part_lines = kSourcePartLines;  // 0: never split
};

OutputSet emit_types(const Model& model, const TypesOptions& options);

// The path of part `index` (from 0) of a unit's source: <unit>.cpp, then <unit>.part2.cpp ...
std::string source_part_path(const std::string& unit_path, std::size_t index);

// A C++ identifier from an aggregate's name (the prefix of its table functions).
std::string function_prefix(const std::string& name);

// The run (0 .. shards-1) of each of a sequence of sources cut into `shards` runs of about equal
// size, in order: a source goes to the run its middle falls in. Deterministic.
std::vector<std::size_t> balanced_runs(const std::vector<std::size_t>& sizes, std::size_t shards);

// NAME.hpp (includes every unit header) and NAME.cpp (a unity source that includes every unit
// source and defines `std::span<const rr::KindCodec> NAME_kinds()`): a fixed pair of outputs for
// build systems that must know their outputs before the generator runs. Their content changes
// whenever any unit's does, so a build that depends on them recompiles exactly when needed.
// With shards > 0 the units compile in NAME_1.cpp ... NAME_<shards>.cpp instead (runs of unit
// sources in path order, balanced by generated size; the parts of a unit written in parts may land
// in different shards) and NAME.cpp holds only the table of kinds.
void emit_aggregate(const Model& model, const std::string& name, const TypesOptions& options, OutputSet& out, int shards);

}  // namespace rrgen
