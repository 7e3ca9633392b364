// The test-factories backend: `<stem>_dies.hpp`, one immutable fluent builder ("die", after
// reconciler.io/dies) per kind the spec touches, so table tests state only what differs between
// cases: `FunctionDie().name("f").spec_image("x")`. Header-only; every method returns a changed copy.
#pragma once
#include "support/generate_options.hpp"
#include "model/model.hpp"
#include "support/output.hpp"
#include "model/reconciler.hpp"

namespace rrgen {

// `crds` is the model of the given CRDs, `builtins` that of the runtime's built-in kinds
// (sema's builtin_model()): each kind's die is planned from its unit in one of them.
OutputSet emit_dies(const ResolvedSpec& spec, const Model& crds, const Model& builtins, const GenerateOptions& options);

}  // namespace rrgen
