// Apply configurations (docs/runtime/38-apply-configurations.md): for a unit `<path>`, the pair
// `<path>_apply.hpp/.cpp` with one `<Struct>Apply` per struct, every member optional, the JSON
// codec writing only what is set, and for a kind `extract_<kind>` / `extract_<kind>_status`
// (client-go's ExtractFoo over metadata.managedFields). Separate files, so code that does not apply
// compiles none of it.
#pragma once
#include <string>
#include <vector>

#include "model/model.hpp"
#include "support/output.hpp"

namespace rrgen {

struct ApplyConfigOptions {
  std::string generator_version;
  // The units to write them for, by path ("k8s/apps/v1/deployment"), with every unit their
  // structs reach; empty: every unit.
  std::vector<std::string> units;
};

OutputSet emit_apply_configurations(const Model& model, const ApplyConfigOptions& options);

// The paths of `options.units` that name no unit of `model` (a usage error for the caller).
std::vector<std::string> unknown_apply_units(const Model& model, const std::vector<std::string>& units);

// NAME_apply.cpp: one unity source that compiles every apply source of `apply` (a fixed output
// for build systems, as the types' aggregate).
void emit_apply_aggregate(const OutputSet& apply, const std::string& name, const std::string& generator_version,
                          OutputSet& out);

// What `--builtin --aggregate NAME` writes: NAME_apply.hpp declaring the table of kinds
// `std::span<const rr::ApplyKindCodec> NAME_apply_kinds()` (rr/client/apply_kind_codec.hpp: each
// resource kind's configuration round trip and extracts) and NAME_apply.cpp, a unity source of every
// apply source of `apply` with the table's rows; with shards > 0 the units and their rows compile in
// NAME_apply_1.cpp ... NAME_apply_<shards>.cpp (runs in path order balanced by generated size) and
// NAME_apply.cpp only joins the rows.
void emit_apply_kinds_aggregate(const Model& model, const OutputSet& apply, const std::string& name,
                                const std::string& generator_version, int shards, OutputSet& out);

}  // namespace rrgen
