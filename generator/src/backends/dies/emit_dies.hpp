// The test-factories backend: `<stem>_dies.hpp`, one immutable fluent builder ("die", after
// reconciler.io/dies) per kind the spec touches, so table tests state only what differs between
// cases: `FunctionDie().name("f").spec_image("x")`. Header-only; every method returns a changed copy.
#pragma once
#include "support/generate_options.hpp"
#include "model/model.hpp"
#include "support/output.hpp"
#include "load/spec.hpp"

namespace rrgen {

// `crds` is the model of the given CRDs; built-in kinds are looked up in builtin_model().
OutputSet emit_dies(const ResolvedSpec& spec, const Model& crds, const GenerateOptions& options);

}  // namespace rrgen
