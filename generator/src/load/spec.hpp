// The reconciler spec (docs/reconciler-spec.md, schemas/reconciler-spec.schema.json) as written:
// what a reconciler.yaml says, located for diagnostics. sema/spec_resolve.cpp turns it into the
// model's ResolvedSpec (model/reconciler.hpp), which is what the backends read.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "support/diagnostics.hpp"
#include "support/yaml_writer.hpp"

namespace rrgen {

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

// One entry of a `predicates:` list (docs/reconciler-spec.md#predicates-and-watches), read by
// load/spec_watches.cpp: a name of controller-runtime's predicates, a label selector or a hook.
enum class SpecPredicateType {
  GenerationChanged,
  LabelChanged,
  AnnotationChanged,
  ResourceVersionChanged,
  LabelSelector,
  Hook
};

struct SpecPredicate {
  Location location;
  SpecPredicateType type = SpecPredicateType::GenerationChanged;
  std::string selector;  // LabelSelector: the string grammar ("app=web,tier in (a,b)"), checked
  std::string hook;      // Hook: PascalCase, as written
};

// One entry of `watches:`: another kind whose events a hook maps to requests.
struct SpecWatch {
  Location location;  // of its mapping
  KindRef kind;
  std::string map;  // the hook's name, PascalCase
  Location map_location;
  std::vector<SpecPredicate> predicates;
  bool metadata_only = false;  // `metadataOnly:`: the kind's metadata only (PartialObjectMetadata)
  Location metadata_only_location;
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
  // Child / ChildSet: on the watch of the children (Owns); sync: on the watches of `tracks`.
  std::vector<SpecPredicate> predicates;
  Location predicates_location;
  // Child: `write: apply` makes the child's desired state an apply configuration, written by
  // server-side apply (rr::ChildApplyReconciler); `write: update` (the default) creates and updates.
  bool apply = false;
  Location write_location;
};

enum class Scope { Cluster, Namespace };

// `webhooks:` (docs/reconciler-spec.md#webhooks), read by load/spec_webhooks.cpp.
enum class SpecOperation { Create, Update, Delete };

// `defaulting:` (a mutating webhook) or `validation:` (a validating one).
struct SpecAdmissionWebhook {
  Location location;                      // of its mapping
  std::vector<SpecOperation> operations;  // as written, duplicates dropped; empty: CREATE, UPDATE
  std::string failure_policy = "Fail";    // Fail | Ignore
  std::string side_effects = "None";      // None | NoneOnDryRun
  int timeout_seconds = 10;               // 1..30
  std::string path;                       // "" = kubebuilder's /mutate-... or /validate-...
};

// `conversion:` between the served versions of the resource's CRD, through `hub`.
struct SpecConversionWebhook {
  Location location;
  std::string hub;  // a version name: "v1"
  Location hub_location;
  std::string path;  // "" = /convert
};

struct SpecWebhooks {
  Location location;  // of the `webhooks:` mapping
  std::optional<SpecAdmissionWebhook> defaulting, validation;
  std::optional<SpecConversionWebhook> conversion;
};

// `resource:` written as a mapping (docs/reconciler-spec.md#duck-resources): a duck type, the
// part of an object several kinds share, and the kinds it applies to by default. Read by
// load/spec_duck.cpp; sema/spec_duck_resolve.cpp knows the ducks and checks the kinds.
struct SpecDuck {
  Location location;  // of the `resource:` mapping
  std::string name;   // "Conditions"
  Location name_location;
  // Your own duck (docs/runtime/30#writing-your-own-duck): its C++ type and header; both empty
  // for one of the runtime's ducks.
  std::string cpp_type;        // "watcher::ConditionsOnly"
  std::string header;          // "conditions_only.hpp"
  std::vector<KindRef> kinds;  // as written, in order
  Location kinds_location;
};

// `metrics:`: how config/ exposes /metrics (kubebuilder v4's defaults).
struct SpecMetrics {
  bool secure = true;            // HTTPS on 8443 with authn/authz; false: plain HTTP on 8080
  bool service_monitor = false;  // config/default deploys ../prometheus
  bool network_policy = false;   // config/default deploys ../network-policy
};

// `admissionPolicies:` (docs/reconciler-spec.md#admission-policies), read by
// load/spec_policies.cpp: each entry a ValidatingAdmissionPolicy or MutatingAdmissionPolicy the
// operator ships. The CEL pieces are kept as written (their keys checked), in the API's shape.
struct SpecPolicyTest {
  Location location;
  Yaml object = Yaml::map();  // the object a CREATE sends
  bool allowed = true;
  std::string message;         // "" = any (only with allowed: false)
  std::optional<Yaml> expect;  // Mutating: the object after the mutations (a subset)
};

struct SpecPolicyRule {  // one of `resources:`
  Location location;
  std::string group;  // "" = the core group
  std::vector<std::string> versions, resources, operations;
};

struct SpecAdmissionPolicy {
  Location location;  // of its mapping
  std::string name;   // the policy's object name (a DNS subdomain)
  Location name_location;
  bool mutating = false;                  // type: Mutating
  std::vector<SpecPolicyRule> resources;  // empty: the reconciled kind on CREATE and UPDATE
  Yaml validations = Yaml::seq(), mutations = Yaml::seq(), match_conditions = Yaml::seq(), variables = Yaml::seq();
  std::string failure_policy = "Fail";
  std::vector<std::string> validation_actions;  // empty: [Deny]
  std::vector<SpecPolicyTest> tests;
  // `file:` a policy and its bindings written by hand: the path as read (relative to the spec's
  // folder) and its documents, copied; name and type come from the policy in it.
  std::string file;
  std::vector<Yaml> documents;
};

struct ReconcilerSpec {
  const std::string* file = nullptr;  // the spec file (interned: outlives the SourceSet)
  Location location;                  // of the document
  std::string name;                   // PascalCase: "Function"; default: the resource's kind
  std::string cpp_namespace;          // "fnsample"; "" = derived from the resource's group
  KindRef resource;                   // empty when the resource is a duck
  std::optional<SpecDuck> duck;       // `resource: {duck: ..., kinds: [...]}`
  Scope scope = Scope::Cluster;       // Cluster: ClusterRole(Binding); Namespace: Role(Binding)
  // `namespaces: [a, b]` (with scope: Namespace): the namespaces the cache watches and the Roles go
  // to; empty: the deploy namespace's Role as before. Sorted, without repeats.
  std::vector<std::string> namespaces;
  // `namespaces: {selector: {matchLabels, matchExpressions}}` (with scope: Namespace): the
  // namespaces whose labels match, as the string grammar ("team=a,env in (prod)"); "" = none.
  std::string namespace_selector;
  Location namespaces_location;
  // `events: core/v1`: the recorder writes core/v1 Events (older clusters); default events.k8s.io/v1.
  bool core_v1_events = false;
  // `statusWrite: apply`: the resource's status is written by server-side apply; default update.
  bool status_apply = false;
  Location status_write_location;
  std::vector<std::string> conditions;  // condition types that Ready summarises (may be empty)
  Location conditions_location;
  std::vector<SpecStep> steps;
  std::string leader_election_id;     // "" = no leader election (no Lease RBAC)
  std::vector<SpecRule> rbac;         // extra rules, merged with the derived ones
  std::string image = "controller:latest";  // config/manager's container image
  int replicas = 1;                         // config/manager's Deployment replicas
  std::string deploy_namespace;       // config/default's namespace; "" = "<kebab-case stem>-system"
  std::optional<SpecWebhooks> webhooks;  // `webhooks:`; nullopt when absent
  SpecMetrics metrics;                   // `metrics:`
  std::vector<SpecAdmissionPolicy> policies;  // `admissionPolicies:`, in order
  std::vector<SpecPredicate> predicates;      // `predicates:`: on the watch of the resource (For)
  Location predicates_location;
  std::vector<SpecWatch> watches;         // `watches:`, in order
  std::int64_t reconcile_timeout_ns = 0;  // `reconcileTimeout:` (a Go duration); 0: none
  std::string reconcile_timeout;          // as written; "" = not given
};

}  // namespace rrgen
