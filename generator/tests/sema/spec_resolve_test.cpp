#include "sema/spec_resolve.hpp"

#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

#include "sema/builtin_kinds.hpp"
#include "load/inputs.hpp"
#include "sema/sema.hpp"
#include "load/spec_reader.hpp"

using namespace rrgen;

namespace {

struct CrdVersionText {
  std::string name;
  bool storage = true;
};

// A minimal CRD manifest.
std::string crd(const std::string& group, const std::string& kind, const std::string& scope = "Namespaced",
                const std::vector<CrdVersionText>& versions = {{"v1", true}}, bool status = true) {
  std::string plural = kind;
  for (auto& c : plural) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  plural += "s";
  std::string out = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: " + plural + "." + group +
                    "\nspec:\n  group: " + group + "\n  names: {kind: " + kind + ", plural: " + plural + "}\n  scope: " + scope +
                    "\n  versions:\n";
  for (const auto& v : versions) {
    out += "    - name: " + v.name + "\n      served: true\n      storage: " + (v.storage ? "true" : "false") + "\n";
    if (status) out += "      subresources: {status: {}}\n";
    out += "      schema:\n        openAPIV3Schema: {type: object, properties: {status: {type: object}}}\n";
  }
  return out + "---\n";
}

const std::string kFunctionCrds = crd("build.example.rrgen.dev", "Function") + crd("kpack.example.rrgen.dev", "Image");

struct World {
  SourceSet sources;
  Diagnostics diags;
  InputSet inputs;
  Model model;
  std::optional<ReconcilerSpec> spec;
  std::optional<ResolvedSpec> resolved;
};

std::unique_ptr<World> resolve(const std::string& crds, const std::string& spec_body) {
  auto w = std::make_unique<World>();
  w->spec = read_spec_text(w->sources, "reconciler.yaml", "apiVersion: rrgen.dev/v1alpha1\nkind: ReconcilerSpec\n" + spec_body, w->diags);
  REQUIRE(w->spec);
  const std::string* name = w->sources.add("crds.yaml", crds);
  bool recognised = false;
  for (const auto& doc : load_yaml(name, w->sources.content(name), w->diags)) read_document(doc, w->inputs, w->diags, recognised);
  w->model = build_model(w->inputs, SemaOptions{w->spec->cpp_namespace}, w->diags);
  REQUIRE_FALSE(w->diags.has_errors());
  w->resolved = resolve_spec(*w->spec, w->model, w->diags);
  return w;
}

// One diagnostic a line, so that doctest shows both sides of a mismatch.
std::string messages(const World& w) {
  std::string out;
  for (const auto& d : w.diags.all()) out += format(d) + "\n";
  return out;
}
std::string lines(const std::vector<std::string>& expected) {
  std::string out;
  for (const auto& e : expected) out += e + "\n";
  return out;
}

void check_errors(const std::string& crds, const std::string& spec_body, const std::vector<std::string>& expected) {
  auto w = resolve(crds, spec_body);
  CHECK_FALSE(w->resolved);
  CHECK(messages(*w) == lines(expected));
}

std::vector<std::string> kind_texts(const std::vector<ResolvedKind>& kinds) {
  std::vector<std::string> out;
  for (const auto& k : kinds) out.push_back(kind_ref_text(k));
  return out;
}

}  // namespace

TEST_CASE("spec resolve: the Function example resolves against its CRDs and the built-in kinds") {
  auto w = resolve(kFunctionCrds, R"(name: Function
namespace: fnsample
resource: build.example.rrgen.dev/v1/Function
conditions: [ImageResolved, ImageReady]
leaderElectionID: function.build.example.rrgen.dev
reconcilers:
  - sync: TargetImage
    tracks: [ConfigMap]
  - child: ChildImage
    kind: Image
)");
  REQUIRE(w->resolved);
  CHECK(w->diags.all().empty());
  const ResolvedSpec& r = *w->resolved;
  CHECK(r.name == "Function");
  CHECK(r.file_stem == "function");
  CHECK(r.cpp_namespace == "fnsample");
  CHECK(r.resource.group == "build.example.rrgen.dev");
  CHECK(r.resource.cpp_type == "fnsample::v1::Function");
  CHECK(r.resource.plural == "functions");
  CHECK(r.resource.has_status);
  CHECK_FALSE(r.resource.builtin);
  REQUIRE(r.steps.size() == 2);
  CHECK(r.steps[0].type == StepKind::Sync);
  CHECK(r.steps[0].name == "TargetImage");
  CHECK(r.steps[1].type == StepKind::Child);
  CHECK_FALSE(r.steps[0].child);
  REQUIRE(r.steps[0].tracks.size() == 1);
  CHECK(r.steps[0].tracks[0].cpp_type == "k8s::core::v1::ConfigMap");
  CHECK(r.steps[0].tracks[0].builtin);
  REQUIRE(r.steps[1].child);
  CHECK(r.steps[1].child->cpp_type == "fnsample::v1::Image");
  CHECK(kind_texts(r.kinds) ==
        std::vector<std::string>{"build.example.rrgen.dev/v1/Function", "v1/ConfigMap", "kpack.example.rrgen.dev/v1/Image"});
}

TEST_CASE("spec resolve: the resolved spec holds every fact of the written one, and outlives it") {
  auto w = resolve(kFunctionCrds, R"(name: Cleaner
namespace: ops::cleaning
resource: kpack.example.rrgen.dev/v1/Image
scope: Namespace
conditions: [Swept]
leaderElectionID: cleaner
reconcilers:
  - sync: Sweep
    finalize: true
    withResult: true
    duringFinalization: true
  - child: Function
    kind: Function
    finalizer: ops.example.com/function
rbac:
  - apiGroups: [""]
    resources: [pods, pods/log]
    resourceNames: [one]
    verbs: [get]
image: registry.example.com/cleaner:1.0
deployNamespace: cleaner-system
)");
  REQUIRE(w->resolved);
  const Location sweep_at = w->spec->steps[0].location, finalizer_at = w->spec->steps[1].finalizer_location;
  w->spec.reset();  // nothing of the resolved spec points into the written one
  const ResolvedSpec& r = *w->resolved;
  CHECK(r.file == "reconciler.yaml");
  CHECK(r.location.line == 1);
  CHECK(r.name == "Cleaner");
  CHECK(r.cpp_namespace == "ops::cleaning");
  CHECK(r.file_stem == "cleaner");
  CHECK(r.scope == ReconcilerScope::Namespace);
  CHECK(r.conditions == std::vector<std::string>{"Swept"});
  CHECK(r.conditions_location.line == 7);
  CHECK(r.leader_election_id == "cleaner");
  REQUIRE(r.rbac.size() == 1);
  CHECK(r.rbac[0] == PolicyRule{{""}, {"pods", "pods/log"}, {"one"}, {"get"}, {}});
  CHECK(r.image == "registry.example.com/cleaner:1.0");
  CHECK(r.deploy_namespace == "cleaner-system");
  REQUIRE(r.steps.size() == 2);
  const ResolvedStep& sweep = r.steps[0];
  CHECK(sweep.type == StepKind::Sync);
  CHECK(sweep.name == "Sweep");
  CHECK(sweep.location.line == sweep_at.line);
  CHECK(sweep.name_location.line == 10);
  CHECK((sweep.finalize && sweep.with_result && sweep.during_finalization));
  CHECK(sweep.finalizer.empty());
  const ResolvedStep& child = r.steps[1];
  CHECK(child.type == StepKind::Child);
  CHECK(child.finalizer == "ops.example.com/function");
  CHECK(child.finalizer_location.line == finalizer_at.line);
  REQUIRE(child.child);
  CHECK(child.child->kind == "Function");
  CHECK(kind_texts(r.kinds) == std::vector<std::string>{"kpack.example.rrgen.dev/v1/Image", "build.example.rrgen.dev/v1/Function"});
}

TEST_CASE("spec resolve: the WebApp example resolves children and tracked kinds among the built-in kinds") {
  auto w = resolve(crd("web.example.rrgen.dev", "WebApp"), R"(name: WebApp
namespace: webapp
resource: web.example.rrgen.dev/v1/WebApp
conditions: [ConfigReady, DeploymentReady, ServiceReady, DnsReady]
leaderElectionID: webapp.web.example.rrgen.dev
reconcilers:
  - sync: Config
    tracks: [v1/ConfigMap]
  - child: Deployment
    kind: apps/v1/Deployment
  - child: Service
    kind: v1/Service
  - sync: DnsRecord
    finalizer: web.example.rrgen.dev/dns-record
)");
  REQUIRE(w->resolved);
  const ResolvedSpec& r = *w->resolved;
  CHECK(r.file_stem == "web_app");
  CHECK(r.cpp_namespace == "webapp");
  CHECK(r.resource.cpp_type == "webapp::v1::WebApp");
  CHECK(r.steps[1].child->cpp_type == "k8s::apps::v1::Deployment");
  CHECK(r.steps[1].child->header == "k8s/apps/v1/deployment.hpp");
  CHECK(r.steps[1].child->builtin);
  CHECK(r.steps[2].child->plural == "services");
  CHECK(r.steps[3].tracks.empty());
  CHECK(kind_texts(r.kinds) ==
        std::vector<std::string>{"web.example.rrgen.dev/v1/WebApp", "v1/ConfigMap", "apps/v1/Deployment", "v1/Service"});
}

TEST_CASE("spec resolve: without a namespace, the one the resource's types use") {
  auto w = resolve(crd("web.example.rrgen.dev", "WebApp"), "resource: WebApp\nreconcilers:\n  - sync: A\n    tracks: [ConfigMap]\n");
  REQUIRE(w->resolved);
  CHECK(w->resolved->cpp_namespace == "web_example_rrgen_dev");
  CHECK(w->resolved->resource.cpp_type == "web_example_rrgen_dev::v1::WebApp");
  CHECK(kind_texts(w->resolved->kinds) == std::vector<std::string>{"web.example.rrgen.dev/v1/WebApp", "v1/ConfigMap"});
}

TEST_CASE("spec resolve: a built-in kind can be the resource") {
  auto w = resolve("", "resource: v1/Service\nname: Exposer\nnamespace: exposer\nreconcilers:\n  - sync: Annotate\n");
  REQUIRE(w->resolved);
  CHECK(w->resolved->resource.builtin);
  CHECK(w->resolved->cpp_namespace == "exposer");
  CHECK(w->resolved->file_stem == "exposer");
  // Without `namespace:` the hooks would land in the runtime's k8s::core.
  check_errors("", "resource: v1/Service\nreconcilers:\n  - sync: Annotate\n",
               {"reconciler.yaml:3:11: error: the resource v1/Service is a built-in kind, whose types live in the runtime's "
                "namespace; say where the reconciler goes with 'namespace:' [spec-missing-namespace]"});
}

TEST_CASE("spec resolve: several versions: the storage version unless the spec names one") {
  const std::string crds = crd("kpack.example.rrgen.dev", "Image", "Namespaced", {{"v1alpha1", false}, {"v1beta1", true}}) +
                           crd("build.example.rrgen.dev", "Function");
  auto w = resolve(crds, "resource: Function\nreconcilers:\n  - child: A\n    kind: Image\n  - child: B\n    kind: kpack.example.rrgen.dev/v1alpha1/Image\n    finalizer: example.com/b\n");
  REQUIRE(w->resolved);
  CHECK(w->resolved->steps[0].child->version == "v1beta1");
  CHECK(w->resolved->steps[1].child->version == "v1alpha1");
  CHECK(w->resolved->kinds.size() == 3);
}

TEST_CASE("spec resolve: unknown kinds, with a suggestion when one is close") {
  check_errors(kFunctionCrds, "resource: Function\nreconcilers:\n  - child: ChildImage\n    kind: Imag\n",
               {"reconciler.yaml:6:11: error: unknown kind 'Imag'; did you mean 'Image'? [spec-unknown-kind]"});
  check_errors(kFunctionCrds, "resource: Function\nreconcilers:\n  - child: ChildImage\n    kind: v1/Image\n",
               {"reconciler.yaml:6:11: error: unknown kind 'v1/Image'; did you mean 'kpack.example.rrgen.dev/v1/Image'? [spec-unknown-kind]"});
  check_errors(kFunctionCrds, "resource: Function\nreconcilers:\n  - sync: Read\n    tracks: [apps/v1/Deploymnet]\n",
               {"reconciler.yaml:6:14: error: unknown kind 'apps/v1/Deploymnet'; did you mean 'apps/v1/Deployment'? [spec-unknown-kind]"});
  check_errors(kFunctionCrds, "resource: Function\nreconcilers:\n  - child: Db\n    kind: PostgresCluster\n",
               {"reconciler.yaml:6:11: error: unknown kind 'PostgresCluster' [spec-unknown-kind]",
                "reconciler.yaml:6:11: note: the CRDs given with the spec define Function and Image; the runtime has the 73 kinds "
                "of Kubernetes 1.35 (docs/builtin-kinds.md)"});
  check_errors("", "resource: Function\nreconcilers:\n  - sync: A\n",
               {"reconciler.yaml:3:11: error: unknown kind 'Function' [spec-unknown-kind]",
                "reconciler.yaml:3:11: note: no CRD given with the spec defines a kind; the runtime has the 73 kinds of "
                "Kubernetes 1.35 (docs/builtin-kinds.md)"});
}

TEST_CASE("spec resolve: every kind of the Kubernetes API is a built-in kind; a bare name means what kubectl means") {
  auto w = resolve(crd("db.example.rrgen.dev", "KeyValueStore"), R"(name: KeyValueStore
namespace: kvs
resource: KeyValueStore
reconcilers:
  - child: Set
    kind: StatefulSet
  - child: Budget
    kind: policy/v1/PodDisruptionBudget
  - child: Migration
    kind: batch/v1/Job
  - child: Front
    kind: networking.k8s.io/v1/Ingress
  - child: Reader
    kind: rbac.authorization.k8s.io/v1/Role
  - sync: Watch
    tracks: [Pod, PersistentVolumeClaim, Event, HorizontalPodAutoscaler, CustomResourceDefinition]
)");
  REQUIRE(w->resolved);
  const ResolvedSpec& r = *w->resolved;
  CHECK(r.steps[0].child->cpp_type == "k8s::apps::v1::StatefulSet");
  CHECK(r.steps[0].child->header == "k8s/apps/v1/stateful_set.hpp");
  CHECK(r.steps[1].child->plural == "poddisruptionbudgets");
  CHECK(r.steps[2].child->cpp_type == "k8s::batch::v1::Job");
  CHECK(r.steps[3].child->cpp_type == "k8s::networking::v1::Ingress");
  CHECK(r.steps[4].child->plural == "roles");
  // Event is core/v1's (not events.k8s.io's), HorizontalPodAutoscaler autoscaling's preferred v2.
  CHECK(kind_texts(r.steps[5].tracks) ==
        std::vector<std::string>{"v1/Pod", "v1/PersistentVolumeClaim", "v1/Event", "autoscaling/v2/HorizontalPodAutoscaler",
                                 "apiextensions.k8s.io/v1/CustomResourceDefinition"});
  auto named = resolve("", R"(resource: v1/Service
name: E
namespace: e
reconcilers:
  - sync: A
    tracks: [events.k8s.io/v1/Event, autoscaling/v1/HorizontalPodAutoscaler]
)");
  REQUIRE(named->resolved);
  CHECK(kind_texts(named->resolved->steps[0].tracks) ==
        std::vector<std::string>{"events.k8s.io/v1/Event", "autoscaling/v1/HorizontalPodAutoscaler"});
}

TEST_CASE("spec resolve: a kind of several groups is ambiguous") {
  const std::string crds = crd("a.example.com", "Config") + crd("b.example.com", "Config") + crd("build.example.rrgen.dev", "Function");
  check_errors(crds, "resource: Function\nreconcilers:\n  - sync: Read\n    tracks: [Config]\n",
               {"reconciler.yaml:6:14: error: 'Config' matches a.example.com/v1/Config and b.example.com/v1/Config; write "
                "group/version/Kind [spec-ambiguous-kind]"});
  auto ok = resolve(crds, "resource: Function\nreconcilers:\n  - sync: Read\n    tracks: [b.example.com/v1/Config]\n");
  REQUIRE(ok->resolved);
  CHECK(ok->resolved->steps[0].tracks[0].group == "b.example.com");
}

TEST_CASE("spec resolve: a cluster-scoped child of a namespaced resource needs finalizer mode") {
  check_errors(kFunctionCrds, "resource: Function\nreconcilers:\n  - child: Space\n    kind: v1/Namespace\n",
               {"reconciler.yaml:6:11: error: v1/Namespace is cluster-scoped and cannot have the namespaced Function as its owner; give "
                "the step a 'finalizer' to manage the child without an owner reference [spec-child-scope]"});
  auto ok = resolve(kFunctionCrds, "resource: Function\nreconcilers:\n  - child: Space\n    kind: v1/Namespace\n    finalizer: example.com/space\n");
  CHECK(ok->resolved);
  // A child of the resource's own kind is fine (reconciler.io allows it).
  CHECK(resolve(kFunctionCrds, "resource: Function\nreconcilers:\n  - child: Copy\n    kind: Function\n")->resolved);
  // A namespaced child of a cluster-scoped resource can carry the owner reference.
  CHECK(resolve(crd("example.com", "Tenant", "Cluster"), "resource: Tenant\nreconcilers:\n  - child: Config\n    kind: ConfigMap\n")->resolved);
}

TEST_CASE("spec resolve: conditions need a status subresource") {
  check_errors(crd("example.com", "Note", "Namespaced", {{"v1", true}}, false), "resource: Note\nconditions: [Seen]\nreconcilers:\n  - sync: A\n",
               {"reconciler.yaml:4:13: error: conditions live in the status, and example.com/v1/Note has no status subresource (add "
                "subresources: {status: {}} to its CRD version) [spec-no-status]"});
  check_errors("", "resource: ConfigMap\nnamespace: mirror\nconditions: [Seen]\nreconcilers:\n  - sync: A\n",
               {"reconciler.yaml:5:13: error: conditions live in the status, and v1/ConfigMap has no status subresource [spec-no-status]"});
  CHECK(resolve(crd("example.com", "Note", "Namespaced", {{"v1", true}}, false), "resource: Note\nreconcilers:\n  - sync: A\n")->resolved);
}

TEST_CASE("spec resolve: statusWrite: apply needs a status subresource and a kind") {
  check_errors(
      crd("example.com", "Note", "Namespaced", {{"v1", true}}, false),
      "resource: Note\nstatusWrite: apply\nreconcilers:\n  - sync: A\n",
      {"reconciler.yaml:4:14: error: 'statusWrite: apply' applies the status subresource, and example.com/v1/Note "
       "has none (add subresources: {status: {}} to its CRD version) [spec-no-status]"});
  check_errors("",
               "name: Watcher\nnamespace: watcher\nresource:\n  duck: Conditions\n  kinds: [apps/v1/Deployment]\n"
               "statusWrite: apply\nreconcilers:\n  - sync: Mark\n",
               {"reconciler.yaml:8:14: error: 'statusWrite: apply' needs a kind; a duck's status is written as a merge "
                "patch [spec-bad-value]"});
  auto ok = resolve(kFunctionCrds, "resource: Function\nstatusWrite: apply\nreconcilers:\n  - sync: A\n");
  REQUIRE(ok->resolved);
  CHECK(ok->resolved->status_apply);
}

TEST_CASE("spec resolve: scope: Namespace cannot reach cluster-scoped kinds") {
  check_errors(kFunctionCrds, "resource: Function\nscope: Namespace\nreconcilers:\n  - sync: A\n    tracks: [Namespace]\n",
               {"reconciler.yaml:7:14: error: v1/Namespace is cluster-scoped, which scope: Namespace (a Role) cannot grant; use scope: "
                "Cluster [spec-namespace-scope]"});
}

TEST_CASE("spec resolve: two owner-reference children of one kind") {
  check_errors(kFunctionCrds,
               "resource: Function\nreconcilers:\n  - child: A\n    kind: Image\n  - childSet: B\n    kind: kpack.example.rrgen.dev/v1/Image\n",
               {"reconciler.yaml:8:11: error: steps 'A' and 'B' both own Image children through owner references, so each would delete "
                "the other's; give one of them a 'finalizer' [spec-duplicate-child]",
                "reconciler.yaml:6:11: note: 'A' owns Image children here"});
  CHECK(resolve(kFunctionCrds, "resource: Function\nreconcilers:\n  - child: A\n    kind: Image\n  - child: B\n    kind: Image\n    finalizer: example.com/b\n")
            ->resolved);
}

TEST_CASE("spec resolve: webhooks get kubebuilder's paths and names, and conversion every served version") {
  const std::string crds = crd("web.example.rrgen.dev", "WebApp", "Namespaced",
                               {{"v1", true}, {"v1alpha1", false}, {"v2beta1", false}});
  auto w = resolve(crds, R"(resource: web.example.rrgen.dev/v1/WebApp
reconcilers:
  - sync: Status
webhooks:
  defaulting: {}
  validation: {operations: [delete, update], path: /check-webapps}
  conversion: {hub: v2beta1}
)");
  REQUIRE(w->resolved);
  REQUIRE(w->resolved->webhooks);
  const ResolvedWebhooks& hooks = *w->resolved->webhooks;
  REQUIRE(hooks.defaulting);
  CHECK(hooks.defaulting->operations == std::vector<std::string>{"CREATE", "UPDATE"});
  CHECK(hooks.defaulting->path == "/mutate-web-example-rrgen-dev-v1-webapp");
  CHECK(hooks.defaulting->name == "mwebapp-v1.web.example.rrgen.dev");
  CHECK(hooks.defaulting->failure_policy == "Fail");
  REQUIRE(hooks.validation);
  CHECK(hooks.validation->operations == std::vector<std::string>{"UPDATE", "DELETE"});  // the API server's order
  CHECK(hooks.validation->path == "/check-webapps");
  CHECK(hooks.validation->name == "vwebapp-v1.web.example.rrgen.dev");
  REQUIRE(hooks.conversion);
  CHECK(kind_ref_text(hooks.conversion->hub) == "web.example.rrgen.dev/v2beta1/WebApp");
  CHECK(kind_texts(hooks.conversion->spokes) ==
        std::vector<std::string>{"web.example.rrgen.dev/v1/WebApp", "web.example.rrgen.dev/v1alpha1/WebApp"});
  CHECK(hooks.conversion->path == "/convert");
}

TEST_CASE("spec resolve: conversion needs two served versions and a served hub; webhooks need a CRD") {
  const std::string one = crd("web.example.rrgen.dev", "WebApp");
  check_errors(one, "resource: WebApp\nreconcilers:\n  - sync: S\nwebhooks:\n  conversion: {hub: v1}\n",
               {"reconciler.yaml:7:15: error: conversion needs at least two served versions, and the CRD of WebApp "
                "(web.example.rrgen.dev) serves only v1 [spec-conversion-versions]"});
  const std::string two = crd("web.example.rrgen.dev", "WebApp", "Namespaced", {{"v1", true}, {"v1beta1", false}});
  check_errors(
      two, "resource: WebApp\nreconcilers:\n  - sync: S\nwebhooks:\n  conversion: {hub: v2}\n",
      {"reconciler.yaml:7:21: error: hub 'v2' is not a served version of WebApp; its CRD serves v1 and v1beta1 "
       "[spec-unknown-hub]"});
  check_errors(
      two, "namespace: x\nresource: v1/Secret\nreconcilers:\n  - sync: S\nwebhooks:\n  defaulting: {}\n",
      {"reconciler.yaml:7:1: error: webhooks need a CRD, and the resource v1/Secret is a built-in kind (the API server "
       "admits and converts it itself) [spec-webhook-builtin]"});
}

TEST_CASE("spec resolve: a duck resource: the runtime's duck type over the kinds it applies to") {
  auto w = resolve("", "name: Watcher\nnamespace: watcher\nresource:\n  duck: Conditions\n"
                       "  kinds: [apps/v1/Deployment, Node]\nreconcilers:\n  - sync: Mark\n");
  REQUIRE(w->resolved);
  REQUIRE(w->resolved->duck);
  const ResolvedDuck& duck = *w->resolved->duck;
  CHECK(duck.name == "Conditions");
  CHECK(duck.cpp_type == "rr::ConditionsDuck");
  CHECK(duck.header == "rr/client/duck.hpp");
  CHECK(kind_texts(duck.kinds) == std::vector<std::string>{"apps/v1/Deployment", "v1/Node"});
  // The resource stands for the duck: its type, no kind of its own; cluster-scoped Node makes it so.
  const ResolvedKind& resource = w->resolved->resource;
  CHECK(resource.cpp_type == "rr::ConditionsDuck");
  CHECK(resource.kind == "ConditionsDuck");
  CHECK(resource.plural.empty());
  CHECK_FALSE(resource.namespaced);
  CHECK(w->resolved->kinds.size() == 1);  // the duck; its kinds have no C++ type in the wiring
  CHECK(w->resolved->cpp_namespace == "watcher");
  CHECK(w->resolved->name == "Watcher");
}

TEST_CASE("spec resolve: a duck's kinds must carry status.conditions and a status subresource") {
  // The CRD helper's status is an empty object: no conditions.
  check_errors(
      crd("example.dev", "Gadget"),
      "namespace: w\nresource:\n  duck: Conditions\n  kinds: [Gadget, v1/Secret]\nreconcilers:\n  - sync: Mark\n",
      {"reconciler.yaml:6:11: error: example.dev/v1/Gadget has no status.conditions, which the duck Conditions reads "
       "(metadata, status.conditions and status.observedGeneration) [spec-duck-kind]",
       "reconciler.yaml:6:19: error: v1/Secret has no status, which the duck Conditions reads (metadata, "
       "status.conditions and status.observedGeneration) [spec-duck-kind]"});
  check_errors(
      "",
      "namespace: w\nscope: Namespace\nresource:\n  duck: Conditions\n  kinds: [Node]\nreconcilers:\n  - sync: Mark\n",
      {"reconciler.yaml:7:11: error: v1/Node is cluster-scoped, which scope: Namespace (a Role) cannot grant; use "
       "scope: "
       "Cluster [spec-namespace-scope]"});
}

TEST_CASE("spec resolve: write: apply needs an apply configuration and owner references") {
  auto crd_child = resolve(kFunctionCrds,
                           "resource: Function\nreconcilers:\n  - child: Build\n    kind: Image\n    write: apply\n");
  REQUIRE(crd_child->resolved);
  CHECK(crd_child->resolved->steps[0].apply);
  auto deployment = resolve(
      kFunctionCrds,
      "resource: Function\nreconcilers:\n  - child: Web\n    kind: apps/v1/Deployment\n    write: apply\n");
  REQUIRE(deployment->resolved);
  CHECK(deployment->resolved->steps[0].apply);
  CHECK(resolve(kFunctionCrds, "resource: Function\nreconcilers:\n  - child: Web\n    kind: apps/v1/Deployment\n")
            ->resolved->steps[0]
            .apply == false);
  check_errors(
      kFunctionCrds, "resource: Function\nreconcilers:\n  - child: Jobs\n    kind: batch/v1/Job\n    write: apply\n",
      {"reconciler.yaml:7:12: error: 'write: apply' needs the apply configuration of batch/v1/Job, which "
       "rr::builtin_apply does not compile (it has apps/v1/Deployment, v1/Service, v1/ConfigMap, v1/Secret and "
       "v1/ServiceAccount); use 'write: update' [spec-apply-configuration]"});
  check_errors(
      kFunctionCrds,
      "resource: Function\nreconcilers:\n  - child: Web\n    kind: apps/v1/Deployment\n    write: apply\n"
      "    finalizer: example.com/web\n",
      {"reconciler.yaml:7:12: error: 'write: apply' sets an owner reference on the child; it cannot be combined "
       "with a 'finalizer' (finalizer mode manages the child without one) [spec-step-option]"});
}
