// The test-factories backend: one immutable fluent builder ("die", after reconciler.io/dies) per
// kind, so table tests state only what differs between cases: `FunctionDie().name("f")`.
// Header-only; every method returns a changed copy.
//  - `<stem>_dies.hpp` for `rrgen generate`: the dies of the spec's own kinds; a built-in kind's
//    die is the runtime's (rr::testing's, generated once by emit_kind_dies), aliased by name.
//  - one header per kind for `rrgen dies` (the runtime's shared dies of the built-in kinds).
#pragma once
#include <string>

#include "model/model.hpp"
#include "model/reconciler.hpp"
#include "support/generate_options.hpp"
#include "support/output.hpp"

namespace rrgen {

struct KindDiesOptions {
  std::string generator_version;
  std::string cpp_namespace;   // the dies of k8s::apps::v1::Deployment land in <ns>::apps::v1
  std::string include_prefix;  // header of a kind unit "k8s/apps/v1/deployment": <prefix>/k8s/apps/v1/deployment.hpp
};

// Where rr::testing keeps the dies of the built-in kinds (runtime/testing/CMakeLists.txt).
inline KindDiesOptions runtime_dies() { return {"", "rr::testing::dies", "rr/testing/dies"}; }

// `crds` is the model of the given CRDs, `builtin` that of the runtime's built-in kinds.
OutputSet emit_dies(const ResolvedSpec& spec, const Model& crds, const Model& builtin, const GenerateOptions& options);

// One header per kind of `kinds`, with a controlled_by() that takes any owner kind, and
// <include_prefix>.hpp that includes them all.
OutputSet emit_kind_dies(const Model& kinds, const KindDiesOptions& options);
std::string kind_die_header(const Unit& unit, const KindDiesOptions& options);
std::string kind_die_class(const Unit& unit, const KindDiesOptions& options);

}  // namespace rrgen
