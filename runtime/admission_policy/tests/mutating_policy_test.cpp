// MutatingAdmissionPolicy over an in-memory rr::Cluster: ApplyConfiguration and JSONPatch
// mutations, matchConditions, params, failurePolicy, reinvocation, and the chain with a
// ValidatingAdmissionPolicy that sees the mutated object.
#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

#include "rr/admission_policy/admission_chain.hpp"
#include "rr/admission_policy/mutating_policy.hpp"
#include "rr/client/api_error.hpp"

namespace {

using rr::Json;
using rr::KindInfo;
using rr::Scope;
namespace ap = rr::admission_policy;

const KindInfo map_configmaps{{"", "v1", "ConfigMap"}, "configmaps", "ConfigMapList", Scope::Namespaced};
const KindInfo map_policies{{"admissionregistration.k8s.io", "v1beta1", "MutatingAdmissionPolicy"},
                            "mutatingadmissionpolicies", "MutatingAdmissionPolicyList", Scope::Cluster};
const KindInfo map_bindings{{"admissionregistration.k8s.io", "v1beta1", "MutatingAdmissionPolicyBinding"},
                            "mutatingadmissionpolicybindings", "MutatingAdmissionPolicyBindingList", Scope::Cluster};
const KindInfo vap_policies{ap::validating_policy_gvk, "validatingadmissionpolicies", "ValidatingAdmissionPolicyList",
                            Scope::Cluster};
const KindInfo vap_bindings{ap::validating_binding_gvk, "validatingadmissionpolicybindings",
                            "ValidatingAdmissionPolicyBindingList", Scope::Cluster};

struct MapFixture {
  std::shared_ptr<rr::Cluster> cluster = std::make_shared<rr::Cluster>();

  MapFixture() {
    for (const auto& k : {map_configmaps, map_policies, map_bindings, vap_policies, vap_bindings}) {
      cluster->register_kind(k);
    }
    cluster->set_admission_plugin(std::make_shared<ap::AdmissionChain>(std::vector<std::shared_ptr<rr::AdmissionPlugin>>{
        std::make_shared<ap::MutatingPolicyPlugin>(), std::make_shared<ap::ValidatingPolicyPlugin>()}));
  }

  // A policy over ConfigMaps with these mutations (and spec members).
  void policy(const std::string& name, Json mutations, Json extra = Json::object()) {
    Json spec{{"matchConstraints", Json::parse(R"J({"resourceRules":[{"apiGroups":[""],"apiVersions":["v1"],
                "operations":["CREATE","UPDATE"],"resources":["configmaps"]}]})J")},
              {"mutations", std::move(mutations)}};
    spec.update(extra);
    cluster->create(map_policies, Json{{"metadata", {{"name", name}}}, {"spec", std::move(spec)}});
    cluster->create(map_bindings, Json{{"metadata", {{"name", name + "-binding"}}}, {"spec", {{"policyName", name}}}});
  }
  Json create(const std::string& name, Json labels = Json::object()) {
    return cluster->create(map_configmaps,
                           Json{{"metadata", {{"name", name}, {"namespace", "ns"}, {"labels", std::move(labels)}}}});
  }
};

Json apply_configuration(const std::string& expression) {
  return Json::array({{{"patchType", "ApplyConfiguration"}, {"applyConfiguration", {{"expression", expression}}}}});
}

Json json_patch(const std::string& expression) {
  return Json::array({{{"patchType", "JSONPatch"}, {"jsonPatch", {{"expression", expression}}}}});
}

}  // namespace

TEST_CASE("an ApplyConfiguration mutation merges its Object into the written object") {
  MapFixture f;
  f.policy("add-label", apply_configuration("Object{metadata: Object.metadata{labels: {'team': 'blue'}}}"));
  const Json stored = f.create("a", Json{{"app", "web"}});
  CHECK(stored["metadata"]["labels"] == Json{{"app", "web"}, {"team", "blue"}});
}

TEST_CASE("an ApplyConfiguration merges lists as server-side apply does: containers by name, others replaced") {
  MapFixture f;
  const KindInfo pods{{"", "v1", "Pod"}, "pods", "PodList", Scope::Namespaced};
  f.cluster->register_kind(pods);
  f.cluster->create(map_policies, Json::parse(R"J({"metadata":{"name":"env"},"spec":{
      "matchConstraints":{"resourceRules":[{"apiGroups":[""],"apiVersions":["v1"],"operations":["CREATE"],
                                            "resources":["pods"]}]},
      "mutations":[{"patchType":"ApplyConfiguration","applyConfiguration":{"expression":
        "Object{spec: Object.spec{containers: [Object.spec.containers{name: 'app', env: [Object.spec.containers.env{name: 'MODE', value: 'prod'}]}], tolerations: [Object.spec.tolerations{key: 'k'}]}}"}}]}})J"));
  f.cluster->create(map_bindings, Json{{"metadata", {{"name", "env-binding"}}}, {"spec", {{"policyName", "env"}}}});
  const Json stored = f.cluster->create(pods, Json::parse(R"J({"metadata":{"name":"p","namespace":"ns"},"spec":{
      "containers":[{"name":"app","image":"app:1","env":[{"name":"A","value":"1"}]},{"name":"sidecar","image":"s:1"}],
      "tolerations":[{"key":"old"}]}})J"));
  // The container named app keeps its image and gains the variable (env is keyed by name too);
  // the sidecar stays; tolerations, an atomic list, are replaced.
  CHECK(stored["spec"]["containers"] == Json::parse(R"J([
      {"name":"app","image":"app:1","env":[{"name":"A","value":"1"},{"name":"MODE","value":"prod"}]},
      {"name":"sidecar","image":"s:1"}])J"));
  CHECK(stored["spec"]["tolerations"] == Json::parse(R"J([{"key":"k"}])J"));
}

TEST_CASE("a JSONPatch mutation applies its operations; matchConditions choose the objects") {
  MapFixture f;
  f.policy("patch",
           json_patch("[JSONPatch{op: 'add', path: '/data', value: {'k': 'v'}}, "
                      "JSONPatch{op: 'add', path: '/metadata/labels/patched', value: 'true'}]"),
           Json{{"matchConditions", Json::parse(R"J([{"name":"opted-in","expression":"has(object.metadata.labels) && 'patch-me' in object.metadata.labels"}])J")}});
  CHECK_FALSE(f.create("skipped")["metadata"]["labels"].contains("patched"));
  const Json stored = f.create("patched", Json{{"patch-me", "yes"}});
  CHECK(stored["data"] == Json{{"k", "v"}});
  CHECK(stored["metadata"]["labels"]["patched"] == "true");
}

TEST_CASE("a failing mutation refuses the write under Fail and is skipped under Ignore") {
  MapFixture f;
  f.policy("broken", json_patch("[JSONPatch{op: 'replace', path: '/nothing/here', value: 1}]"));
  try {
    f.create("a");
    FAIL("admitted");
  } catch (const rr::ApiError& e) {
    CHECK(e.status().code == 403);
    CHECK(e.status().reason == "Invalid");
    CHECK(e.status().message.starts_with("policy 'broken' with binding 'broken-binding' denied request: "));
    CHECK(e.status().details_kind == "configmaps");
    REQUIRE(e.status().causes.size() == 1);
  }
  MapFixture g;
  g.policy("broken", json_patch("[JSONPatch{op: 'replace', path: '/nothing/here', value: 1}]"),
           Json{{"failurePolicy", "Ignore"}});
  CHECK(g.create("a")["metadata"]["name"] == "a");
}

TEST_CASE("reinvocationPolicy IfNeeded runs a policy again after a later one changed the object") {
  for (const bool reinvoke : {false, true}) {
    MapFixture f;
    f.policy("a-count", apply_configuration("Object{metadata: Object.metadata{labels: {'count': "
                                            "string(size(object.metadata.labels))}}}"),
             Json{{"reinvocationPolicy", reinvoke ? "IfNeeded" : "Never"}});
    f.policy("b-add", apply_configuration("Object{metadata: Object.metadata{labels: {'b': 'added'}}}"));
    const Json stored = f.create("x", Json{{"seed", "1"}});
    CHECK(stored["metadata"]["labels"]["b"] == "added");
    // First run: {seed} -> count 1; after b's change a reinvoked policy counts seed, count and b.
    CHECK(stored["metadata"]["labels"]["count"] == (reinvoke ? "3" : "1"));
  }
}

TEST_CASE("params reach the mutation, and a ValidatingAdmissionPolicy sees the mutated object") {
  MapFixture f;
  f.cluster->create(map_configmaps, Json::parse(R"J({"metadata":{"name":"owner","namespace":"ns"},"data":{"team":"red"}})J"));
  Json spec{{"matchConstraints", Json::parse(R"J({"resourceRules":[{"apiGroups":[""],"apiVersions":["v1"],
              "operations":["CREATE"],"resources":["configmaps"]}]})J")},
            {"paramKind", {{"apiVersion", "v1"}, {"kind", "ConfigMap"}}},
            {"matchConditions", Json::parse(R"J([{"name":"not-the-param","expression":"object.metadata.name != 'owner'"}])J")},
            {"mutations", apply_configuration("Object{metadata: Object.metadata{labels: {'team': params.data.team}}}")}};
  f.cluster->create(map_policies, Json{{"metadata", {{"name", "team"}}}, {"spec", spec}});
  f.cluster->create(map_bindings,
                    Json{{"metadata", {{"name", "team"}}}, {"spec", {{"policyName", "team"}, {"paramRef", {{"name", "owner"}}}}}});
  f.cluster->create(vap_policies, Json::parse(R"J({"metadata":{"name":"needs-team"},"spec":{
      "matchConstraints":{"resourceRules":[{"apiGroups":[""],"apiVersions":["v1"],"operations":["CREATE"],"resources":["configmaps"]}]},
      "validations":[{"expression":"object.metadata.?labels.team.orValue('') == 'red'","message":"no team"}]}})J"));
  f.cluster->create(vap_bindings, Json::parse(R"J({"metadata":{"name":"needs-team"},"spec":{"policyName":"needs-team","validationActions":["Deny"]}})J"));
  CHECK(f.create("c")["metadata"]["labels"]["team"] == "red");
}
