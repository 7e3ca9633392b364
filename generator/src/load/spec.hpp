// The reconciler spec (docs/reconciler-spec.md, schemas/reconciler-spec.schema.json): what a
// reconciler.yaml says, located for diagnostics (ReconcilerSpec), and the same with every kind
// reference resolved against the CRDs and the runtime's built-in kinds (ResolvedSpec), which is
// what the reconciler, RBAC, test and config backends read.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "support/diagnostics.hpp"

namespace rrgen {

// ---- As written -------------------------------------------------------------------------------

// A kind as the spec names it: "Function", "apps/v1/Deployment", "v1/ConfigMap" (core group),
// "build.example.rrgen.dev/v1/Function". Group and version are optional; the kind is not.
struct KindRef {
  Location location;
  std::string text;     // as written
  std::string group;    // "" = not given (resolution searches every group); "core" written as ""
  bool group_given = false;
  std::string version;  // "" = not given
  std::string kind;
};

// One RBAC rule as Kubernetes' PolicyRule spells it (the spec's `rbac:` entries).
struct SpecRule {
  Location location;
  std::vector<std::string> api_groups, resources, resource_names, verbs, non_resource_urls;
};

enum class StepType { Sync, Child, ChildSet };

// One entry of `reconcilers:`, in order.
struct SpecStep {
  Location location;           // of the step's mapping
  StepType type = StepType::Sync;
  std::string name;            // PascalCase, unique in the spec: "TargetImage"
  Location name_location;
  std::optional<KindRef> child_kind;  // Child / ChildSet: `kind:`
  std::vector<KindRef> tracks;        // kinds this step reads through the tracker
  // Sync: `finalize: true` adds a finalize hook; `withResult: true` makes sync (and finalize)
  // return rr::Outcome instead of rr::Error; `duringFinalization: true` keeps sync running while
  // the resource is terminating.
  bool finalize = false, with_result = false, during_finalization = false;
  // Sync: wraps the step in WithFinalizer (and requires the finalize hook).
  // Child / ChildSet: finalizer mode: no owner reference on the child; the parent carries this
  // finalizer until the child is gone; requires the our_child and list_options hooks.
  std::string finalizer;
  Location finalizer_location;
};

enum class Scope { Cluster, Namespace };

struct ReconcilerSpec {
  const std::string* file = nullptr;  // the spec file (interned: outlives the SourceSet)
  Location location;                  // of the document
  std::string name;                   // PascalCase: "Function"; default: the resource's kind
  std::string cpp_namespace;          // "fnsample"; "" = derived from the resource's group
  KindRef resource;
  Scope scope = Scope::Cluster;       // Cluster: ClusterRole(Binding); Namespace: Role(Binding)
  std::vector<std::string> conditions;  // condition types that Ready summarises (may be empty)
  Location conditions_location;
  std::vector<SpecStep> steps;
  std::string leader_election_id;     // "" = no leader election (no Lease RBAC)
  std::vector<SpecRule> rbac;         // extra rules, merged with the derived ones
  std::string image = "controller:latest";  // config/manager's container image
  std::string deploy_namespace;       // config/default's namespace; "" = "<kebab-case stem>-system"
};

// ---- Resolved --------------------------------------------------------------------------------

// A kind with everything the backends need, whether it came from a given CRD or is one of the
// runtime's built-in kinds (rr::builtin, generated from schemas/*.yaml).
struct ResolvedKind {
  std::string group;     // "" for the core group
  std::string version;   // "v1"
  std::string kind;      // "Deployment"
  std::string plural;    // "deployments"
  bool namespaced = true;
  bool has_status = false;  // status subresource
  bool builtin = false;     // compiled into rr::builtin (its types are not generated)
  std::string cpp_type;     // fully qualified: "k8s::apps::v1::Deployment", "fnsample::v1::Function"
  std::string header;       // include path: "k8s/apps/v1/deployment.hpp"
  // C++ members of the root other than api_version, kind, metadata and status, in declaration
  // order (typically `spec`; ConfigMap: binary_data, data, immutable): what a scaffolded merge
  // hook copies from the desired child onto the current one.
  std::vector<std::string> content_fields;
};

struct ResolvedStep {
  const SpecStep* step = nullptr;
  std::optional<ResolvedKind> child;  // Child / ChildSet
  std::vector<ResolvedKind> tracks;
};

struct ResolvedSpec {
  const ReconcilerSpec* spec = nullptr;
  std::string file_stem;      // "function": file names, CMake-facing names (snake_case of name)
  std::string cpp_namespace;  // final, e.g. "fnsample"
  ResolvedKind resource;
  std::vector<ResolvedStep> steps;  // parallel to spec->steps
  // Every distinct kind the spec touches (resource, children, tracked), in first-use order.
  std::vector<ResolvedKind> kinds;
};

}  // namespace rrgen
