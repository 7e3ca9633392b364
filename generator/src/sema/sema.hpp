// Inputs -> Model: chooses C++ types, names, deduplication and file layout; reports every
// semantic problem with its location.
#pragma once
#include <string>

#include "support/diagnostics.hpp"
#include "load/inputs.hpp"
#include "model/model.hpp"

namespace rrgen {

struct SemaOptions {
  // Root C++ namespace. Empty: derived from the API group ("monitoring.coreos.com" ->
  // monitoring_coreos_com) for CRDs, "k8s" for OpenAPI documents. May contain "::".
  std::string root_namespace;
  // Non-empty: `rrgen types --codec-only HEADER` (the runtime's own build): build one unit holding
  // the definitions with x-rrgen-cpp-type, whose structs HEADER declares by hand.
  std::string codec_only_for = {};  // (initialised: SemaOptions{ns} stays warning-free)
};

Model build_model(const InputSet& inputs, const SemaOptions& options, Diagnostics& diags);

}  // namespace rrgen
