#include "load/spec_reader.hpp"

#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

using namespace rrgen;

namespace {

struct Read {
  SourceSet sources;
  Diagnostics diags;
  std::optional<ReconcilerSpec> spec;
};

std::unique_ptr<Read> read(std::string text) {
  auto r = std::make_unique<Read>();
  r->spec = read_spec_text(r->sources, "reconciler.yaml", std::move(text), r->diags);
  return r;
}

// One diagnostic a line, so that doctest shows both sides of a mismatch.
std::string messages(const Read& r) {
  std::string out;
  for (const auto& d : r.diags.all()) out += format(d) + "\n";
  return out;
}
std::string lines(const std::vector<std::string>& expected) {
  std::string out;
  for (const auto& e : expected) out += e + "\n";
  return out;
}

// A valid header; the body starts on line 4.
std::string spec(const std::string& body) {
  return "apiVersion: rrgen.dev/v1alpha1\nkind: ReconcilerSpec\nresource: Function\n" + body;
}
const std::string kSteps = "reconcilers:\n  - sync: Only\n";

// The spec reads with errors, and these are exactly the diagnostics.
void check_errors(const std::string& text, const std::vector<std::string>& expected) {
  auto r = read(text);
  CHECK_FALSE(r->spec);
  CHECK(messages(*r) == lines(expected));
}

}  // namespace

TEST_CASE("spec reader: the Function example reads into the struct") {
  auto r = read(R"(apiVersion: rrgen.dev/v1alpha1
kind: ReconcilerSpec
name: Function
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
  REQUIRE(r->spec);
  CHECK(r->diags.all().empty());
  const ReconcilerSpec& s = *r->spec;
  CHECK(*s.file == "reconciler.yaml");
  CHECK(s.name == "Function");
  CHECK(s.cpp_namespace == "fnsample");
  CHECK(s.resource.text == "build.example.rrgen.dev/v1/Function");
  CHECK(s.resource.group == "build.example.rrgen.dev");
  CHECK(s.resource.group_given);
  CHECK(s.resource.version == "v1");
  CHECK(s.resource.kind == "Function");
  CHECK(s.resource.location.line == 5);
  CHECK(s.resource.location.column == 11);
  CHECK(s.scope == Scope::Cluster);
  CHECK(s.conditions == std::vector<std::string>{"ImageResolved", "ImageReady"});
  CHECK(s.conditions_location.line == 6);
  CHECK(s.leader_election_id == "function.build.example.rrgen.dev");
  CHECK(s.image == "controller:latest");
  CHECK(s.replicas == 1);
  CHECK(s.deploy_namespace.empty());
  CHECK(s.rbac.empty());
  REQUIRE(s.steps.size() == 2);
  CHECK(s.steps[0].type == StepType::Sync);
  CHECK(s.steps[0].name == "TargetImage");
  CHECK(s.steps[0].name_location.line == 9);
  CHECK(s.steps[0].name_location.column == 11);
  CHECK_FALSE(s.steps[0].child_kind);
  REQUIRE(s.steps[0].tracks.size() == 1);
  CHECK(s.steps[0].tracks[0].kind == "ConfigMap");
  CHECK_FALSE(s.steps[0].tracks[0].group_given);
  CHECK(s.steps[0].tracks[0].location.line == 10);
  CHECK(s.steps[0].tracks[0].location.column == 14);
  CHECK_FALSE(s.steps[0].finalize);
  CHECK(s.steps[1].type == StepType::Child);
  CHECK(s.steps[1].name == "ChildImage");
  REQUIRE(s.steps[1].child_kind);
  CHECK(s.steps[1].child_kind->kind == "Image");
  CHECK(s.steps[1].child_kind->version.empty());
  CHECK(s.steps[1].finalizer.empty());
}

TEST_CASE("spec reader: the WebApp example reads into the struct") {
  auto r = read(R"(apiVersion: rrgen.dev/v1alpha1
kind: ReconcilerSpec
name: WebApp
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
  REQUIRE(r->spec);
  const ReconcilerSpec& s = *r->spec;
  CHECK(s.name == "WebApp");
  CHECK(s.conditions.size() == 4);
  REQUIRE(s.steps.size() == 4);
  const KindRef& config_map = s.steps[0].tracks.at(0);
  CHECK(config_map.group_given);  // "v1" is the core group's apiVersion
  CHECK(config_map.group.empty());
  CHECK(config_map.version == "v1");
  CHECK(s.steps[1].child_kind->group == "apps");
  CHECK(s.steps[2].child_kind->group.empty());
  CHECK(s.steps[2].child_kind->group_given);
  CHECK(s.steps[3].type == StepType::Sync);
  CHECK(s.steps[3].finalizer == "web.example.rrgen.dev/dns-record");
  CHECK(s.steps[3].finalizer_location.line == 16);
  CHECK(s.steps[3].finalize);  // a finalizer implies the finalize hook
}

TEST_CASE("spec reader: name defaults to the resource's kind") {
  auto r = read(spec(kSteps));
  REQUIRE(r->spec);
  CHECK(r->spec->name == "Function");
}

TEST_CASE("spec reader: every key, with values other than the defaults") {
  auto r = read(R"(apiVersion: rrgen.dev/v1alpha1
kind: ReconcilerSpec
name: Cleaner
namespace: ops::cleaning
resource: core/v1/ConfigMap
scope: Namespace
leaderElectionID: cleaner
reconcilers:
  - sync: Sweep
    finalize: true
    withResult: true
    duringFinalization: true
  - childSet: Copies
    kind: /v1/Secret
    finalizer: ops.example.com/copies
    tracks: [apps/v1/Deployment]
rbac:
  - apiGroups: [""]
    resources: [pods, pods/log]
    resourceNames: [one]
    verbs: [get]
image: registry.example.com/cleaner:1.0
deployNamespace: cleaner-system
replicas: 2
)");
  REQUIRE(r->spec);
  const ReconcilerSpec& s = *r->spec;
  CHECK(s.name == "Cleaner");
  CHECK(s.cpp_namespace == "ops::cleaning");
  CHECK(s.resource.group.empty());
  CHECK(s.resource.group_given);
  CHECK(s.scope == Scope::Namespace);
  CHECK(s.conditions.empty());
  const SpecStep& sweep = s.steps.at(0);
  CHECK(sweep.finalize);
  CHECK(sweep.with_result);
  CHECK(sweep.during_finalization);
  const SpecStep& copies = s.steps.at(1);
  CHECK(copies.type == StepType::ChildSet);
  CHECK(copies.child_kind->group.empty());
  CHECK(copies.child_kind->group_given);
  CHECK(copies.finalizer == "ops.example.com/copies");
  CHECK(copies.tracks.at(0).group == "apps");
  REQUIRE(s.rbac.size() == 1);
  CHECK(s.rbac[0].api_groups == std::vector<std::string>{""});
  CHECK(s.rbac[0].resources == std::vector<std::string>{"pods", "pods/log"});
  CHECK(s.rbac[0].resource_names == std::vector<std::string>{"one"});
  CHECK(s.rbac[0].verbs == std::vector<std::string>{"get"});
  CHECK(s.rbac[0].location.line == 18);
  CHECK(s.image == "registry.example.com/cleaner:1.0");
  CHECK(s.replicas == 2);
  CHECK(s.deploy_namespace == "cleaner-system");
}

TEST_CASE("spec reader: kind references") {
  Diagnostics diags;
  SourceSet sources;
  const Location at{sources.add("x.yaml", ""), 3, 7};
  auto kind = parse_kind_ref("Deployment", at, diags);
  REQUIRE(kind);
  CHECK(kind->kind == "Deployment");
  CHECK_FALSE(kind->group_given);
  CHECK(kind->version.empty());
  CHECK(kind->location.line == 3);
  auto core = parse_kind_ref("core/v1/Pod", at, diags);
  REQUIRE(core);
  CHECK(core->group_given);
  CHECK(core->group.empty());
  CHECK(core->version == "v1");
  auto full = parse_kind_ref("monitoring.coreos.com/v1alpha1/AlertmanagerConfig", at, diags);
  REQUIRE(full);
  CHECK(full->group == "monitoring.coreos.com");
  CHECK(full->version == "v1alpha1");
  CHECK(diags.all().empty());

  for (const char* bad : {"", "a/b/c/Kind", "v1/", "V1/Pod", "apps/v1/", "Apps_Group/v1/Pod", "apps/v1/my-kind", "1Pod"}) {
    CAPTURE(bad);
    Diagnostics d;
    CHECK_FALSE(parse_kind_ref(bad, at, d));
    REQUIRE(d.all().size() == 1);
    CHECK(d.all()[0].check == "spec-bad-kind-ref");
  }
  Diagnostics d;
  parse_kind_ref("apps/V1/Deployment", at, d);
  CHECK(format(d.all().at(0)) ==
        "x.yaml:3:7: error: invalid kind reference 'apps/V1/Deployment': 'V1' is not an API version; write Kind, "
        "version/Kind or group/version/Kind [spec-bad-kind-ref]");
}

TEST_CASE("spec reader: suggestions only for close words") {
  CHECK(closest_match("resync", spec_top_level_keys()) == "resource");
  CHECK(closest_match("leaderElectionId", spec_top_level_keys()) == "leaderElectionID");
  CHECK(closest_match("condition", spec_top_level_keys()) == "conditions");
  CHECK(closest_match("x", spec_top_level_keys()).empty());
  CHECK(closest_match("metadata", spec_top_level_keys()).empty());
  CHECK(closest_match("Imag", {"Function", "Image"}) == "Image");
}

TEST_CASE("spec reader: unknown keys, with a suggestion when one is close") {
  check_errors(spec("resync: 10m\n" + kSteps),
               {"reconciler.yaml:4:1: error: unknown key 'resync'; did you mean 'resource'? [spec-unknown-key]"});
  check_errors(spec("metadata: {}\n" + kSteps), {"reconciler.yaml:4:1: error: unknown key 'metadata' [spec-unknown-key]"});
  check_errors(spec("reconcilers:\n  - sync: Only\n    finaliser: example.com/x\n"),
               {"reconciler.yaml:6:5: error: unknown key 'finaliser'; did you mean 'finalizer'? [spec-unknown-key]"});
  check_errors(spec(kSteps + "rbac:\n  - verbs: [get]\n    nonResourceUrls: [/healthz]\n"),
               {"reconciler.yaml:8:5: error: unknown key 'nonResourceUrls'; did you mean 'nonResourceURLs'? [spec-unknown-key]",
                "reconciler.yaml:7:5: error: a resource rule needs 'apiGroups' (\"\" is the core group) [spec-bad-rule]",
                "reconciler.yaml:7:5: error: a resource rule needs 'resources' [spec-bad-rule]"});
}

TEST_CASE("spec reader: options that belong to another step type") {
  check_errors(spec("reconcilers:\n  - sync: Only\n    kind: Image\n"),
               {"reconciler.yaml:6:5: error: 'kind' applies to child and childSet steps only, not to a sync step [spec-unknown-key]"});
  check_errors(spec("reconcilers:\n  - child: Image\n    kind: Image\n    withResult: true\n"),
               {"reconciler.yaml:7:5: error: 'withResult' applies to sync steps only, not to a child step [spec-unknown-key]"});
}

TEST_CASE("spec reader: wrong node types") {
  check_errors(spec("conditions: {Ready: true}\n" + kSteps),
               {"reconciler.yaml:4:13: error: 'conditions' must be a sequence of strings, not a mapping [spec-wrong-type]"});
  check_errors(spec("conditions: [A, [B]]\n" + kSteps),
               {"reconciler.yaml:4:17: error: each item of 'conditions' must be a string, not a sequence [spec-wrong-type]"});
  check_errors(spec("name: 42\n" + kSteps), {"reconciler.yaml:4:7: error: 'name' must be a string, not an integer [spec-wrong-type]"});
  check_errors(spec("reconcilers:\n  - sync: Only\n    finalize: \"true\"\n"),
               {"reconciler.yaml:6:15: error: 'finalize' must be true or false, not a string [spec-wrong-type]"});
  check_errors(spec("reconcilers: {sync: Only}\n"),
               {"reconciler.yaml:4:14: error: 'reconcilers' must be a sequence of steps, not a mapping [spec-wrong-type]"});
  check_errors(spec("reconcilers:\n  - Only\n"),
               {"reconciler.yaml:5:5: error: each step of 'reconcilers' must be a mapping, not a string [spec-wrong-type]"});
  check_errors(spec(kSteps + "rbac: [get]\n"),
               {"reconciler.yaml:6:8: error: each rule of 'rbac' must be a mapping, not a string [spec-wrong-type]"});
  check_errors("- a\n- b\n", {"reconciler.yaml:1:1: error: the spec must be a mapping, not a sequence [spec-wrong-type]"});
}

TEST_CASE("spec reader: required keys") {
  check_errors("apiVersion: rrgen.dev/v1alpha1\nkind: ReconcilerSpec\n",
               {"reconciler.yaml:1:1: error: missing required key 'resource' (the kind this reconciler reconciles) [spec-missing-key]",
                "reconciler.yaml:1:1: error: missing required key 'reconcilers' (the steps, in order) [spec-missing-key]"});
  check_errors(spec("reconcilers: []\n"),
               {"reconciler.yaml:4:14: error: 'reconcilers' must list at least one step [spec-missing-key]"});
  check_errors("resource: Function\n" + kSteps,
               {"reconciler.yaml:1:1: error: missing required key 'apiVersion' (apiVersion: rrgen.dev/v1alpha1) [spec-missing-key]",
                "reconciler.yaml:1:1: error: missing required key 'kind' (kind: ReconcilerSpec) [spec-missing-key]"});
  check_errors(spec("reconcilers:\n  - child: Image\n"),
               {"reconciler.yaml:5:5: error: child step 'Image' needs a 'kind' (the kind of its children) [spec-missing-key]"});
}

TEST_CASE("spec reader: a document that is not a reconciler spec stops at its header") {
  check_errors("apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nspec: {}\n",
               {"reconciler.yaml:1:13: error: apiVersion 'apiextensions.k8s.io/v1' is not supported; this rrgen reads "
                "rrgen.dev/v1alpha1 [spec-bad-api-version]",
                "reconciler.yaml:2:7: error: kind 'CustomResourceDefinition' is not a reconciler spec; expected kind: "
                "ReconcilerSpec [spec-bad-document-kind]"});
}

TEST_CASE("spec reader: exactly one document") {
  check_errors("", {"reconciler.yaml: error: the spec is empty; it must be a mapping with apiVersion: rrgen.dev/v1alpha1 "
                    "and kind: ReconcilerSpec [spec-document-count]"});
  check_errors(spec(kSteps) + "---\n" + spec(kSteps),
               {"reconciler.yaml:7:1: error: a spec file holds exactly one YAML document; a second one starts here [spec-document-count]"});
  auto trailing = read(spec(kSteps) + "---\n");  // an empty document after '---' is no document
  CHECK(trailing->spec);
}

TEST_CASE("spec reader: duplicate YAML keys are the loader's error") {
  check_errors(spec("name: A\nname: B\n" + kSteps),
               {"reconciler.yaml:5:1: error: duplicate mapping key 'name' [yaml-duplicate-key]"});
}

TEST_CASE("spec reader: names") {
  check_errors(spec("name: my_function\n" + kSteps),
               {"reconciler.yaml:4:7: error: name 'my_function' must be a PascalCase identifier like 'MyFunction' [spec-bad-name]"});
  check_errors(spec("reconcilers:\n  - sync: target-image\n"),
               {"reconciler.yaml:5:11: error: step name 'target-image' must be a PascalCase identifier like 'TargetImage' [spec-bad-name]"});
  check_errors(spec("conditions: [image_ready]\n" + kSteps),
               {"reconciler.yaml:4:14: error: condition type 'image_ready' must be a PascalCase identifier like 'ImageReady' [spec-bad-name]"});
  check_errors(spec("name: '-'\n" + kSteps), {"reconciler.yaml:4:7: error: name '-' must be a PascalCase identifier [spec-bad-name]"});
}

TEST_CASE("spec reader: duplicate step names and conditions point at the first") {
  check_errors(spec("reconcilers:\n  - sync: Resolve\n  - child: Resolve\n    kind: Image\n"),
               {"reconciler.yaml:6:12: error: step name 'Resolve' is used twice [spec-duplicate-name]",
                "reconciler.yaml:5:11: note: first used here"});
  check_errors(spec("reconcilers:\n  - sync: ABC\n  - sync: Abc\n"),
               {"reconciler.yaml:6:11: error: step names 'ABC' and 'Abc' both become 'abc' in file and hook names [spec-duplicate-name]",
                "reconciler.yaml:5:11: note: first used here"});
  check_errors(spec("conditions: [A, B, A]\n" + kSteps),
               {"reconciler.yaml:4:20: error: condition 'A' is listed twice [spec-duplicate-name]",
                "reconciler.yaml:4:14: note: first listed here"});
}

TEST_CASE("spec reader: Ready is implied") {
  check_errors(spec("conditions: [Ready, ImageReady]\n" + kSteps),
               {"reconciler.yaml:4:14: error: 'Ready' is implied: it summarises the listed conditions; list only the others "
                "[spec-ready-condition]"});
}

TEST_CASE("spec reader: each step is exactly one type") {
  check_errors(spec("reconcilers:\n  - sync: A\n    child: B\n    kind: Image\n"),
               {"reconciler.yaml:6:5: error: a step is exactly one of 'sync', 'child' or 'childSet'; this one has both 'sync' and "
                "'child' [spec-step-type]",
                "reconciler.yaml:7:5: error: 'kind' applies to child and childSet steps only, not to a sync step [spec-unknown-key]"});
  check_errors(spec("reconcilers:\n  - kind: Image\n    snyc: A\n"),
               {"reconciler.yaml:5:5: error: a step needs one of 'sync', 'child' or 'childSet', with the step's name as its value "
                "[spec-step-type]",
                "reconciler.yaml:6:5: error: unknown key 'snyc'; did you mean 'sync'? [spec-unknown-key]"});
}

TEST_CASE("spec reader: finalizers") {
  check_errors(spec("reconcilers:\n  - sync: Dns\n    finalizer: cleanup\n"),
               {"reconciler.yaml:6:16: error: finalizer 'cleanup' must be a domain-qualified name like 'example.com/cleanup' (a DNS "
                "subdomain, '/', and a name of up to 63 letters, digits, '-', '_' or '.') [spec-bad-finalizer]"});
  for (const char* bad : {"Example.com/x", "example.com/", "example.com/a/b", "/x", "example.com/-x", "exa mple.com/x"}) {
    CAPTURE(bad);
    auto r = read(spec("reconcilers:\n  - sync: Dns\n    finalizer: '" + std::string(bad) + "'\n"));
    CHECK_FALSE(r->spec);
    REQUIRE(r->diags.all().size() == 1);
    CHECK(r->diags.all()[0].check == "spec-bad-finalizer");
  }
  check_errors(spec("reconcilers:\n  - sync: Dns\n    finalizer: example.com/x\n    finalize: false\n"),
               {"reconciler.yaml:7:5: error: a sync step with a 'finalizer' needs its finalize hook; remove 'finalize: false' "
                "[spec-step-option]"});
  check_errors(spec("reconcilers:\n  - sync: A\n    finalizer: example.com/x\n  - child: B\n    kind: Image\n    finalizer: example.com/x\n"),
               {"reconciler.yaml:9:16: error: finalizer 'example.com/x' is already used by step 'A'; each step needs its own "
                "[spec-duplicate-finalizer]",
                "reconciler.yaml:6:16: note: first used here"});
}

TEST_CASE("spec reader: scope") {
  check_errors(spec("scope: Namespaced\n" + kSteps),
               {"reconciler.yaml:4:8: error: 'scope' must be 'Cluster' or 'Namespace', not 'Namespaced' [spec-bad-scope]"});
}

TEST_CASE("spec reader: namespaces, with scope: Namespace") {
  auto ok = read(spec("scope: Namespace\nnamespaces: [team-b, team-a]\n" + kSteps));
  REQUIRE(ok->spec);
  CHECK(ok->spec->namespaces == std::vector<std::string>{"team-a", "team-b"});
  CHECK(read(spec(kSteps))->spec->namespaces.empty());
  check_errors(spec("namespaces: [a]\n" + kSteps),
               {"reconciler.yaml:4:13: error: 'namespaces' needs scope: Namespace (a Role in each listed namespace); "
                "scope: Cluster watches every namespace [spec-namespaces-scope]"});
  check_errors(spec("scope: Namespace\nnamespaces: [Team, a, a]\n" + kSteps),
               {"reconciler.yaml:5:14: error: namespace 'Team' must be a Kubernetes namespace name: at most 63 "
                "lower-case letters, digits and '-' [spec-bad-value]",
                "reconciler.yaml:5:23: error: namespace 'a' is listed twice [spec-duplicate-name]"});
  check_errors(spec("scope: Namespace\nnamespaces: []\n" + kSteps),
               {"reconciler.yaml:5:13: error: 'namespaces' must list at least one namespace [spec-bad-value]"});
}

TEST_CASE("spec reader: namespaces chosen by a label selector") {
  auto ok = read(spec("scope: Namespace\nnamespaces:\n  selector:\n    matchLabels: {team: a}\n"
                      "    matchExpressions: [{key: env, operator: NotIn, values: [dev]}, {key: legacy, operator: "
                      "DoesNotExist}]\n" +
                      kSteps));
  REQUIRE(ok->spec);
  CHECK(ok->spec->namespace_selector == "team=a,env notin (dev),!legacy");
  CHECK(ok->spec->namespaces.empty());
  check_errors(spec("scope: Namespace\nnamespaces: {selector: {}}\n" + kSteps),
               {"reconciler.yaml:5:24: error: an empty selector matches every object; leave out 'namespaces' to "
                "watch every namespace [spec-bad-predicate]"});
  check_errors(spec("scope: Namespace\nnamespaces: {selectr: {matchLabels: {a: b}}}\n" + kSteps),
               {"reconciler.yaml:5:14: error: unknown key 'selectr'; did you mean 'selector'? [spec-unknown-key]",
                "reconciler.yaml:5:13: error: 'namespaces' as a mapping needs 'selector' (matchLabels, "
                "matchExpressions); or list the namespaces [spec-missing-key]"});
  check_errors(spec("scope: Namespace\nnamespaces: {selector: {matchLabels: {team: 'a b'}}}\n" + kSteps),
               {"reconciler.yaml:5:45: error: label value 'a b' is not a label value [spec-bad-predicate]"});
  check_errors(
      spec("scope: Namespace\nnamespaces: {selector: {matchExpressions: [{key: t, operator: In}]}}\n" + kSteps),
      {"reconciler.yaml:5:63: error: operator In needs at least one value [spec-bad-predicate]"});
  check_errors(spec("namespaces: {selector: {matchLabels: {team: a}}}\n" + kSteps),
               {"reconciler.yaml:4:13: error: 'namespaces: {selector: ...}' needs scope: Namespace (a RoleBinding in "
                "each selected namespace); scope: Cluster watches every namespace [spec-namespaces-scope]"});
}

TEST_CASE("spec reader: events") {
  CHECK_FALSE(read(spec(kSteps))->spec->core_v1_events);
  CHECK_FALSE(read(spec("events: events.k8s.io/v1\n" + kSteps))->spec->core_v1_events);
  CHECK(read(spec("events: core/v1\n" + kSteps))->spec->core_v1_events);
  check_errors(
      spec("events: v1\n" + kSteps),
      {"reconciler.yaml:4:9: error: 'events' must be 'events.k8s.io/v1' or 'core/v1' (older clusters), not 'v1' "
       "[spec-bad-value]"});
}

TEST_CASE("spec reader: rbac rules as Kubernetes validates a PolicyRule") {
  check_errors(spec(kSteps + "rbac:\n  - apiGroups: [\"\"]\n    resources: [pods]\n"),
               {"reconciler.yaml:7:5: error: a rule needs 'verbs' [spec-bad-rule]"});
  check_errors(spec(kSteps + "rbac:\n  - apiGroups: [\"\"]\n    resources: [pods]\n    verbs: []\n"),
               {"reconciler.yaml:9:12: error: a rule needs at least one verb [spec-bad-rule]"});
  check_errors(spec(kSteps + "rbac:\n  - apiGroups: [\"\"]\n    nonResourceURLs: [/metrics]\n    verbs: [get]\n"),
               {"reconciler.yaml:8:5: error: a rule names either resources or nonResourceURLs, not both; split it in two [spec-bad-rule]"});
  check_errors(spec("scope: Namespace\n" + kSteps + "rbac:\n  - nonResourceURLs: [/metrics]\n    verbs: [get]\n"),
               {"reconciler.yaml:8:5: error: nonResourceURLs need scope: Cluster (a namespaced Role cannot grant them) [spec-bad-rule]"});
  auto ok = read(spec(kSteps + "rbac:\n  - nonResourceURLs: [/metrics]\n    verbs: [get]\n"));
  CHECK(ok->spec);
}

TEST_CASE("spec reader: values with a fixed syntax") {
  check_errors(spec("leaderElectionID: Function_Lock\n" + kSteps),
               {"reconciler.yaml:4:19: error: leaderElectionID 'Function_Lock' must be a DNS subdomain (it names a Lease): lower-case "
                "letters, digits, '-' and '.' [spec-bad-value]"});
  check_errors(spec("deployNamespace: fn.system\n" + kSteps),
               {"reconciler.yaml:4:18: error: deployNamespace 'fn.system' must be a Kubernetes namespace name: at most 63 lower-case "
                "letters, digits and '-' [spec-bad-value]"});
  check_errors(
      spec("replicas: 0\n" + kSteps),
      {"reconciler.yaml:4:11: error: 'replicas' must be a whole number from 1 to 9999 (the manager Deployment's), "
       "not 0 [spec-bad-value]"});
  check_errors(
      spec("replicas: two\n" + kSteps),
      {"reconciler.yaml:4:11: error: 'replicas' must be a whole number from 1 to 9999 (the manager Deployment's), "
       "not a string [spec-wrong-type]"});
  check_errors(spec("image: ''\n" + kSteps),
               {"reconciler.yaml:4:8: error: image '' is not a container image reference: repository name must have at "
                "least one component [spec-bad-value]"});
  check_errors(
      spec("image: Registry/Operator:1.0\n" + kSteps),
      {"reconciler.yaml:4:8: error: image 'Registry/Operator:1.0' is not a container image reference: repository "
       "name must be lowercase [spec-bad-value]"});
  check_errors(spec("image: 'op:1.0 '\n" + kSteps),
               {"reconciler.yaml:4:8: error: image 'op:1.0 ' is not a container image reference: invalid tag '1.0 ': "
                "letters, digits, '_', '.' and '-', at most 128, not starting with '.' or '-' [spec-bad-value]"});
}

TEST_CASE("spec reader: the C++ namespace") {
  for (const char* good : {"fnsample", "acme::ops", "Acme::v2_ops", "_x"}) {
    CAPTURE(good);
    CHECK(read(spec("namespace: '" + std::string(good) + "'\n" + kSteps))->spec);
  }
  check_errors(spec("namespace: fn-sample\n" + kSteps),
               {"reconciler.yaml:4:12: error: namespace 'fn-sample' is not a C++ namespace: 'fn-sample' is not an identifier "
                "[spec-bad-namespace]"});
  check_errors(spec("namespace: acme::class\n" + kSteps),
               {"reconciler.yaml:4:12: error: namespace 'acme::class' is not a C++ namespace: 'class' is a C++ keyword or a name the "
                "runtime or system headers use [spec-bad-namespace]"});
  for (const char* bad : {"::acme", "acme::", "acme:::b", "rr", "std::x", "a__b", "_Ugly", "1st", "a.b", "a::::b"}) {
    CAPTURE(bad);
    auto r = read(spec("namespace: '" + std::string(bad) + "'\n" + kSteps));
    CHECK_FALSE(r->spec);
    REQUIRE_FALSE(r->diags.all().empty());
    CHECK(r->diags.all()[0].check == "spec-bad-namespace");
  }
}

TEST_CASE("spec reader: a missing file is the source set's error") {
  SourceSet sources;
  Diagnostics diags;
  CHECK_FALSE(read_spec(sources, "/nonexistent/reconciler.yaml", diags));
  CHECK(diags.has_errors());
}

TEST_CASE("spec reader: webhooks read with kubebuilder's defaults where nothing is said") {
  auto r = read(spec(kSteps + R"(webhooks:
  defaulting: {}
  validation:
    operations: [delete, create, delete]
    failurePolicy: Ignore
    sideEffects: NoneOnDryRun
    timeoutSeconds: 3
    path: /check
  conversion: {hub: v1}
)"));
  REQUIRE(r->spec);
  CHECK(messages(*r).empty());
  REQUIRE(r->spec->webhooks);
  const SpecWebhooks& w = *r->spec->webhooks;
  CHECK(w.location.line == 6);
  REQUIRE(w.defaulting);
  CHECK(w.defaulting->operations.empty());  // CREATE and UPDATE, decided by sema
  CHECK(w.defaulting->failure_policy == "Fail");
  CHECK(w.defaulting->side_effects == "None");
  CHECK(w.defaulting->timeout_seconds == 10);
  CHECK(w.defaulting->path.empty());
  REQUIRE(w.validation);
  CHECK(w.validation->operations == std::vector<SpecOperation>{SpecOperation::Delete, SpecOperation::Create});
  CHECK(w.validation->failure_policy == "Ignore");
  CHECK(w.validation->side_effects == "NoneOnDryRun");
  CHECK(w.validation->timeout_seconds == 3);
  CHECK(w.validation->path == "/check");
  REQUIRE(w.conversion);
  CHECK(w.conversion->hub == "v1");
  CHECK(w.conversion->path.empty());
}

TEST_CASE("spec reader: webhook mistakes are reported where they are written") {
  check_errors(spec(kSteps + "webhooks: {}\n"), {"reconciler.yaml:6:11: error: 'webhooks' needs at least one of "
                                                 "'defaulting', 'validation' or 'conversion' [spec-missing-key]"});
  check_errors(spec(kSteps + "webhooks: [defaulting]\n"), {"reconciler.yaml:6:11: error: 'webhooks' must be a mapping "
                                                           "of defaulting, validation and conversion, not a sequence "
                                                           "[spec-wrong-type]"});
  check_errors(spec(kSteps + "webhooks:\n  validation: true\n"),
               {"reconciler.yaml:7:15: error: 'validation' must be a mapping (write validation: {} for the defaults), "
                "not a boolean "
                "[spec-wrong-type]"});
  check_errors(spec(kSteps + "webhooks:\n  validation: {operations: [connect]}\n"),
               {"reconciler.yaml:7:29: error: unknown operation 'connect'; a validating webhook runs on 'create', "
                "'update' and 'delete' "
                "[spec-bad-operation]"});
  check_errors(spec(kSteps + "webhooks:\n  validation: {operations: []}\n"),
               {"reconciler.yaml:7:28: error: 'operations' must list at least one operation [spec-bad-operation]"});
  check_errors(spec(kSteps + "webhooks:\n  defaulting: {timeoutSeconds: '5'}\n"),
               {"reconciler.yaml:7:32: error: 'timeoutSeconds' must be an integer, not a string [spec-wrong-type]"});
  check_errors(spec(kSteps + "webhooks:\n  conversion: {hub: v1, hubs: [v2]}\n"),
               {"reconciler.yaml:7:25: error: unknown key 'hubs'; did you mean 'hub'? [spec-unknown-key]"});
}

TEST_CASE("spec reader: metrics, kubebuilder's defaults unless given; mistakes named") {
  auto defaults = read(spec(kSteps));
  REQUIRE(defaults->spec);
  CHECK(defaults->spec->metrics.secure);
  CHECK_FALSE(defaults->spec->metrics.service_monitor);
  CHECK_FALSE(defaults->spec->metrics.network_policy);
  auto given = read(spec(kSteps + "metrics: {secure: false, serviceMonitor: true, networkPolicy: true}\n"));
  REQUIRE(given->spec);
  CHECK_FALSE(given->spec->metrics.secure);
  CHECK(given->spec->metrics.service_monitor);
  CHECK(given->spec->metrics.network_policy);
  check_errors(spec(kSteps + "metrics:\n  servicemonitor: true\n  secure: 'yes'\n"),
               {"reconciler.yaml:7:3: error: unknown key 'servicemonitor'; did you mean 'serviceMonitor'? "
                "[spec-unknown-key]",
                "reconciler.yaml:8:11: error: 'secure' must be true or false, not a string [spec-wrong-type]"});
  check_errors(spec(kSteps + "metrics: true\n"),
               {"reconciler.yaml:6:10: error: 'metrics' must be a mapping of secure, serviceMonitor and networkPolicy, "
                "not a boolean [spec-wrong-type]"});
}

TEST_CASE("spec reader: statusWrite") {
  auto apply = read(spec("statusWrite: apply\n" + kSteps));
  REQUIRE(apply->spec);
  CHECK(apply->spec->status_apply);
  CHECK(apply->spec->status_write_location.line == 4);
  auto update = read(spec("statusWrite: update\n" + kSteps));
  REQUIRE(update->spec);
  CHECK_FALSE(update->spec->status_apply);
  auto unset = read(spec(kSteps));
  REQUIRE(unset->spec);
  CHECK_FALSE(unset->spec->status_apply);
  check_errors(spec("statusWrite: patch\n" + kSteps),
               {"reconciler.yaml:4:14: error: 'statusWrite' must be 'update' (an update of the status subresource) or "
                "'apply' (server-side apply of the status), not 'patch' [spec-bad-value]"});
  check_errors(spec("statusWrite: [apply]\n" + kSteps),
               {"reconciler.yaml:4:14: error: 'statusWrite' must be a string, not a sequence [spec-wrong-type]"});
}

TEST_CASE("spec reader: a child step's write mode") {
  auto apply = read(spec("reconcilers:\n  - child: Deployment\n    kind: apps/v1/Deployment\n    write: apply\n"));
  REQUIRE(apply->spec);
  CHECK(apply->spec->steps[0].apply);
  CHECK(apply->spec->steps[0].write_location.line == 7);
  auto update = read(spec("reconcilers:\n  - child: Deployment\n    kind: apps/v1/Deployment\n    write: update\n"));
  REQUIRE(update->spec);
  CHECK_FALSE(update->spec->steps[0].apply);
  auto unset = read(spec("reconcilers:\n  - child: Deployment\n    kind: apps/v1/Deployment\n"));
  REQUIRE(unset->spec);
  CHECK_FALSE(unset->spec->steps[0].apply);
  check_errors(
      spec("reconcilers:\n  - child: Deployment\n    kind: apps/v1/Deployment\n    write: patch\n"),
      {"reconciler.yaml:7:12: error: 'write' must be 'update' (create and update the child) or 'apply' (server-side "
       "apply of an apply configuration), not 'patch' [spec-bad-value]"});
  check_errors(
      spec("reconcilers:\n  - sync: Dns\n    write: apply\n"),
      {"reconciler.yaml:6:5: error: 'write' applies to child steps only, not to a sync step [spec-unknown-key]"});
}
