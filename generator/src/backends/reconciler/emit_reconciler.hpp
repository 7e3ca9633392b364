// The reconciler backend of `rrgen generate`: the wiring of a reconciler spec onto the runtime,
// regenerated on every run (docs/generated-reconciler.md):
//
//   <stem>_reconciler.hpp     aliases of the kinds, condition types and set, what the operator
//                             watches, <Name>Reconciler(config, hooks) and one
//                             <Name><Step>Reconciler(hooks) per step
//   <stem>_reconciler.cpp     checks every hook the spec requires (static_assert naming the hook,
//                             the step and <stem>_hooks.hpp), then builds the tree:
//                             ResourceReconciler{Sequence{SyncReconciler | ChildReconciler |
//                             ChildSetReconciler | WithFinalizer{SyncReconciler} ...}}
//   <stem>_wiring_test.cpp    doctest cases that hold for any hooks that compile
//   <stem>_policies_test.cpp  with admissionPolicies: config/policy checked in an offline cluster
//
// The hooks themselves are the user's (scaffold.hpp writes them once).
#pragma once
#include "support/generate_options.hpp"
#include "support/output.hpp"
#include "model/reconciler.hpp"

namespace rrgen {

OutputSet emit_reconciler(const ResolvedSpec& spec, const GenerateOptions& options);

}  // namespace rrgen
