// The user-owned files of a reconciler (the generation gap): written once by
// `rrgen generate --scaffold DIR` where no file exists yet, never overwritten, never marked
// generated. Paths are relative to DIR:
//
//   src/<stem>_hooks.hpp           struct <Name>Hooks declaring every hook the spec requires
//   src/<stem>_hooks.cpp           each hook as a documented no-op with a `// TODO(you):` line
//   tests/<snake(step)>_test.cpp   a table test per step (rr::testing) with one case that passes
//                                  as scaffolded and an example of the cases to add
//
// The texts are templates/scaffold/* (embedded into rrgen) with the spec's names filled in.
#pragma once
#include "support/generate_options.hpp"
#include "support/output.hpp"
#include "model/reconciler.hpp"

namespace rrgen {

OutputSet scaffold_user_files(const ResolvedSpec& spec, const GenerateOptions& options);

}  // namespace rrgen
