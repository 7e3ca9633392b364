// The resolved reconciler spec: what a reconciler.yaml asks for, with every kind reference
// resolved against the CRDs and the runtime's built-in kinds. sema/spec_resolve.cpp fills it from
// the spec as the loader read it (ReconcilerSpec); the reconciler, dies, RBAC, config and scaffold
// backends read only this. It owns its data, so it outlives the parsed spec; locations still point
// into the SourceSet.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/rbac_model.hpp"
#include "support/diagnostics.hpp"
#include "support/yaml_writer.hpp"

namespace rrgen {

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

// A predicate on a watch (docs/reconciler-spec.md#predicates-and-watches): one of
// controller-runtime's, a label selector, or a hook of the user's.
enum class PredicateKind {
  GenerationChanged,
  LabelChanged,
  AnnotationChanged,
  ResourceVersionChanged,
  LabelSelector,
  Hook
};

struct ResolvedPredicate {
  PredicateKind type = PredicateKind::GenerationChanged;
  std::string selector;  // LabelSelector: the string grammar, checked ("app=web,tier in (a,b)")
  std::string hook;      // Hook: PascalCase, as written
  Location location;
};

// One of `watches:`: a kind whose events the hook `map` maps to requests.
struct ResolvedWatch {
  ResolvedKind kind;
  std::string map;  // PascalCase, as written
  Location location;
  std::vector<ResolvedPredicate> predicates;
  // `metadataOnly:`: a metadata-only informer (PartialObjectMetadata); the hooks take rr::ObjectMeta.
  bool metadata_only = false;
};

// The model's own copy of the step types (the loader has StepType; sema maps one to the other).
enum class StepKind { Sync, Child, ChildSet };

// One entry of `reconcilers:`, in order.
struct ResolvedStep {
  StepKind type = StepKind::Sync;
  std::string name;        // PascalCase, unique in the spec: "TargetImage"
  Location location;       // of the step's mapping
  Location name_location;
  // Sync: `finalize` adds a finalize hook; `with_result` makes sync (and finalize) return
  // rr::Outcome instead of rr::Error; `during_finalization` keeps sync running while the resource
  // is terminating.
  bool finalize = false, with_result = false, during_finalization = false;
  // Sync: wraps the step in WithFinalizer (and requires the finalize hook).
  // Child / ChildSet: finalizer mode: no owner reference on the child; the parent carries this
  // finalizer until the child is gone. "" = none.
  std::string finalizer;
  Location finalizer_location;
  // Child: `write: apply`, the child is written by server-side apply of its apply configuration
  // (rr::ChildApplyReconciler; the kind's `<kind>_apply.hpp`).
  bool apply = false;
  std::optional<ResolvedKind> child;  // Child / ChildSet
  std::vector<ResolvedKind> tracks;   // kinds this step reads through the tracker
  // Child / ChildSet: on the Owns watch of the child kind; sync: on the Tracked watches of `tracks`.
  std::vector<ResolvedPredicate> predicates;
};

// `webhooks:` resolved (sema/spec_webhooks_resolve.cpp): what the webhook wiring, its scaffolds
// and config/webhook read. Operations are the API server's names ("CREATE").
struct ResolvedAdmissionWebhook {
  Location location;
  std::vector<std::string> operations;  // "CREATE", "UPDATE", "DELETE", in that order
  std::string failure_policy;           // "Fail" | "Ignore"
  std::string side_effects;             // "None" | "NoneOnDryRun"
  int timeout_seconds = 10;
  std::string path;  // final: "/mutate-web-example-rrgen-dev-v1-webapp"
  std::string name;  // the webhook's name: "mwebapp-v1.web.example.rrgen.dev"
};

struct ResolvedConversion {
  Location location;
  ResolvedKind hub;                  // the hub version's kind (its generated type)
  std::vector<ResolvedKind> spokes;  // every other served version, in the CRD's order
  std::string path;                  // final: "/convert"
};

struct ResolvedWebhooks {
  Location location;
  std::optional<ResolvedAdmissionWebhook> defaulting, validation;
  std::optional<ResolvedConversion> conversion;
};

// A duck type as the reconciled resource (sema/spec_duck_resolve.cpp): the runtime's duck struct
// and the kinds it applies to by default. The wiring builds one ResourceReconciler over the duck
// per kind, chosen at run time; ResolvedSpec::resource then stands for the duck itself (its C++
// type and header; no group, version or plural).
struct ResolvedDuck {
  std::string name;                 // as written: "Conditions"
  std::string cpp_type;             // "rr::ConditionsDuck"
  std::string header;               // "rr/client/duck.hpp"
  Location location;                // of the `resource:` mapping
  std::vector<ResolvedKind> kinds;  // the default kinds, as listed
};

// Cluster: ClusterRole(Binding); Namespace: Role(Binding) in the deploy namespace.
enum class ReconcilerScope { Cluster, Namespace };

// The spec's `metrics:` (config/ only; the runtime's flags say the same at run time).
struct ResolvedMetrics {
  bool secure = true;            // HTTPS on 8443, TokenReview/SubjectAccessReview; false: HTTP on 8080
  bool service_monitor = false;  // config/default deploys ../prometheus
  bool network_policy = false;   // config/default deploys ../network-policy
};

// One of `admissionPolicies:` resolved (sema/spec_policies_resolve.cpp): the policy object's
// `spec` as config/policy writes it (matched resources defaulted to the reconciled kind) and the
// examples the generated policy test runs.
struct ResolvedPolicyTest {
  Yaml object = Yaml::map();
  bool allowed = true;
  std::string message;         // "" = any refusal
  std::optional<Yaml> expect;  // the admitted object must hold these members
};

struct ResolvedAdmissionPolicy {
  std::string name;
  bool mutating = false;
  Yaml policy_spec = Yaml::map();
  std::vector<std::string> validation_actions;  // the Validating binding's; never empty
  std::vector<ResolvedPolicyTest> tests;
  std::vector<Yaml> documents;  // `file:`: the policy and its bindings as written (then written as is)
};

struct ResolvedSpec {
  std::string file;           // the spec file as given ("" = unknown)
  Location location;          // of the document
  std::string name;           // PascalCase: "Function"
  std::string file_stem;      // "function": file names, CMake-facing names (snake_case of name)
  std::string cpp_namespace;  // final, e.g. "fnsample"
  ReconcilerScope scope = ReconcilerScope::Cluster;
  // `namespaces:` (scope Namespace only): the namespaces watched, a Role and RoleBinding in each;
  // sorted; empty: the deploy namespace's Role.
  std::vector<std::string> namespaces;
  // `namespaces: {selector: ...}` (scope Namespace only): the label selector (string grammar) of the
  // namespaces watched; the kinds' rules go to an unbound ClusterRole bound per namespace by an admin.
  std::string namespace_selector;
  // `events: core/v1`: core/v1 Events (--events-api=core/v1); false: events.k8s.io/v1.
  bool core_v1_events = false;
  // `statusWrite: apply`: rr::StatusWrite::Apply (server-side apply of the status subresource, a
  // PATCH); false: an update of it.
  bool status_apply = false;
  std::vector<std::string> conditions;  // condition types that Ready summarises, as written
  Location conditions_location;
  std::string leader_election_id;       // "" = no leader election (no Lease RBAC)
  std::vector<PolicyRule> rbac;         // the spec's extra rules, merged with the derived ones
  std::string image = "controller:latest";  // config/manager's container image
  int replicas = 1;                         // config/manager's Deployment replicas
  std::string deploy_namespace;         // config/default's namespace; "" = "<kebab-case stem>-system"
  ResolvedKind resource;
  std::vector<ResolvedStep> steps;
  std::optional<ResolvedWebhooks> webhooks;  // `webhooks:`; nullopt: none
  std::optional<ResolvedDuck> duck;          // the resource is a duck; nullopt: a kind
  ResolvedMetrics metrics;
  std::vector<ResolvedAdmissionPolicy> policies;  // `admissionPolicies:`, in order
  std::vector<ResolvedPredicate> predicates;      // `predicates:`: on the For watch
  std::vector<ResolvedWatch> watches;             // `watches:`, in order
  std::int64_t reconcile_timeout_ns = 0;          // `reconcileTimeout:`; 0: none
  std::string reconcile_timeout;                  // as written ("30s"); "" = not given
  // Every distinct kind the spec touches (resource, children, tracked), in first-use order. With a
  // duck, the duck's entry (resource) comes first and its kinds are not listed (they have no
  // C++ type of their own in the wiring).
  std::vector<ResolvedKind> kinds;
};

}  // namespace rrgen
