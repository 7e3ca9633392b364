// Reads a reconciler spec (reconciler.yaml, docs/reconciler-spec.md) into a located
// ReconcilerSpec. Every mistake is reported as `file:line:col: error: ... [spec-...]`; kinds are
// only parsed here (resolve_spec looks them up).
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "support/diagnostics.hpp"
#include "load/spec.hpp"
#include "load/yaml_load.hpp"

namespace rrgen {

inline constexpr std::string_view kSpecApiVersion = "rrgen.dev/v1alpha1";
inline constexpr std::string_view kSpecKind = "ReconcilerSpec";

// Reads the spec file at `path`. Returns nullopt when anything was reported as an error.
std::optional<ReconcilerSpec> read_spec(SourceSet& sources, const std::string& path, Diagnostics& diags);
// The same for in-memory text registered under `name` (tests, fuzzing).
std::optional<ReconcilerSpec> read_spec_text(SourceSet& sources, std::string name, std::string text, Diagnostics& diags);

// "Kind", "version/Kind" (an apiVersion without a group is the core group, as in a manifest),
// "group/version/Kind" ("core" or "" for the core group). Reports [spec-bad-kind-ref] and returns
// nullopt when the text is none of these.
std::optional<KindRef> parse_kind_ref(std::string_view text, Location at, Diagnostics& diags);

// The keys the reader accepts, in documentation order. The JSON Schema test compares them with
// schemas/reconciler-spec.schema.json, so the two cannot drift apart.
const std::vector<std::string>& spec_top_level_keys();
const std::vector<std::string>& spec_step_keys(StepType type);
const std::vector<std::string>& spec_rule_keys();

// The candidate closest to `word` when it is close enough to be a plausible typo ("resync" ->
// "resource", "Imag" -> "Image"); "" otherwise. Ties go to the earlier candidate.
std::string closest_match(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace rrgen
