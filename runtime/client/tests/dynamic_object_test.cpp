// rr::Unstructured and rr::ConditionsDuck: their codecs lose nothing, and DynamicApi addresses them
// through a run-time KindInfo, refusing whole-object writes of a duck as reconciler.io's duck-aware
// client does.
#include <doctest/doctest.h>

#include "fake_client.hpp"
#include "rr/client/duck.hpp"
#include "rr/client/unstructured.hpp"

namespace {

// A Deployment as an API server sends it: members neither type declares, at every level.
const rr::Json deployment = rr::Json::parse(R"({
  "apiVersion": "apps/v1", "kind": "Deployment",
  "metadata": {"name": "web", "namespace": "default", "uid": "u-1", "resourceVersion": "7", "generation": 3,
               "labels": {"app": "web"}, "futureMetaField": {"x": 1}},
  "spec": {"replicas": 2, "selector": {"matchLabels": {"app": "web"}}},
  "status": {"observedGeneration": 2, "replicas": 2, "readyReplicas": 1,
             "conditions": [{"type": "Available", "status": "True", "lastUpdateTime": "2024-01-01T00:00:00Z",
                             "lastTransitionTime": "2024-01-01T00:00:00Z", "reason": "MinimumReplicasAvailable",
                             "message": "ok"}]}
})");

rr::KindInfo gizmo_kind() { return rr::kind_info_of<clienttest::Gizmo>(); }

}  // namespace

TEST_CASE("Unstructured: apiVersion, kind and metadata decoded, the rest kept, re-encoded as read") {
  auto u = deployment.get<rr::Unstructured>();
  CHECK(u.api_version == "apps/v1");
  CHECK(u.kind == "Deployment");
  CHECK(u.metadata.name == "web");
  CHECK(u.metadata.generation == 3);
  CHECK(rr::gvk_of(u) == rr::GroupVersionKind{"apps", "v1", "Deployment"});
  REQUIRE(u.find("spec") != nullptr);
  CHECK((*u.find("spec"))["replicas"] == 2);
  CHECK(u.find("metadata") == nullptr);  // metadata is the struct, not a body member
  CHECK(rr::Json(u) == deployment);
  CHECK(rr::key_of(u) == rr::ObjectKey{"default", "web"});
}

TEST_CASE("Unstructured: member() creates an object member, a new object knows its kind") {
  rr::Unstructured u(rr::GroupVersionKind{"", "v1", "ConfigMap"});
  u.metadata.name = "settings";
  u.member("data")["key"] = "value";
  CHECK(rr::Json(u) == rr::Json::parse(R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"settings"},
                                          "data":{"key":"value"}})"));
  CHECK_THROWS_AS(rr::Json::array().get<rr::Unstructured>(), std::invalid_argument);
}

TEST_CASE("ConditionsDuck: conditions and observedGeneration decoded, every other member kept") {
  auto duck = deployment.get<rr::ConditionsDuck>();
  REQUIRE(duck.status);
  CHECK(duck.status->observed_generation == 2);
  REQUIRE(duck.status->conditions);
  REQUIRE(duck.status->conditions->size() == 1);
  CHECK(duck.status->conditions->front().type == "Available");
  CHECK(duck.status->unknown_fields.find("readyReplicas") != nullptr);
  CHECK(*duck.unknown_fields.find("spec") == R"({"replicas":2,"selector":{"matchLabels":{"app":"web"}}})");
  // The condition's own extra member (lastUpdateTime) survives too.
  CHECK(rr::Json(duck) == deployment);
}

TEST_CASE("ConditionsDuck: a null status reads as absent; a status of the wrong type is an error") {
  auto duck = rr::Json::parse(R"({"apiVersion":"v1","kind":"X","metadata":{"name":"a"},"status":null})")
                  .get<rr::ConditionsDuck>();
  CHECK_FALSE(duck.status);
  CHECK_THROWS(rr::Json::parse(R"({"status":[]})").get<rr::ConditionsDuck>());
  CHECK_THROWS(rr::Json::parse(R"({"status":{"observedGeneration":"two"}})").get<rr::ConditionsDuck>());
}

TEST_CASE("DynamicApi: an unstructured object through the kind given at run time") {
  clienttest::FakeClient client;
  rr::DynamicApi<rr::Unstructured> api(client, gizmo_kind());
  rr::Unstructured u;  // no apiVersion/kind: the addressed kind's are sent
  u.metadata.namespace_ = "ns";
  u.metadata.name = "g";
  u.member("spec")["color"] = "blue";
  rr::Unstructured created = api.create(u);
  CHECK(created.api_version == "example.dev/v1");
  CHECK(created.kind == "Gizmo");
  CHECK(created.metadata.uid == "uid-1");
  CHECK(api.get({"ns", "g"}).find("spec")->at("color") == "blue");
  CHECK_FALSE(api.try_get({"ns", "missing"}));
  CHECK(api.list({}).size() == 1);
  created.member("status")["phase"] = "Ready";
  CHECK(api.update_status(created).find("status")->at("phase") == "Ready");
  api.remove({"ns", "g"});
  CHECK(client.calls == std::vector<std::string>{"create gizmos ns/g", "get gizmos ns/g", "get gizmos ns/missing",
                                                 "list gizmos ", "update_status gizmos ns/g", "remove gizmos ns/g"});
}

TEST_CASE("DynamicApi: a duck cannot be created or updated, only patched") {
  clienttest::FakeClient client;
  client.put(clienttest::gizmo("ns", "g", "red"));
  rr::DynamicApi<rr::ConditionsDuck> api(client, gizmo_kind());
  rr::ConditionsDuck duck = api.get({"ns", "g"});
  CHECK(*duck.unknown_fields.find("spec") == R"({"color":"red"})");
  CHECK_THROWS_WITH_AS(api.create(duck), "Create is not supported for the duck typed objects", rr::DuckWriteRefused);
  CHECK_THROWS_WITH_AS(api.update(duck), "Update is not supported for the duck typed objects, use Patch instead",
                       rr::DuckWriteRefused);
  CHECK_THROWS_WITH_AS(api.update_status(duck), "Update is not supported for the duck typed objects, use Patch instead",
                       rr::DuckWriteRefused);
  rr::ConditionsDuck patched = api.patch({"ns", "g"}, rr::PatchType::Merge, R"({"status":{"phase":"Ready"}})",
                                         "status");
  CHECK(*patched.status->unknown_fields.find("phase") == R"("Ready")");
  CHECK(*patched.unknown_fields.find("spec") == R"({"color":"red"})");
  // Only the read and the patch reached the client.
  CHECK(client.calls == std::vector<std::string>{"get gizmos ns/g", "patch status gizmos ns/g"});
}

TEST_CASE("kind_info_for: traits for a generated kind, the client's discovery for a dynamic object") {
  clienttest::FakeClient client;
  CHECK(rr::kind_info_for(client, clienttest::gizmo("ns", "g")) == gizmo_kind());
  rr::Unstructured u(gizmo_kind().gvk);
  CHECK(rr::kind_info_for(client, u) == gizmo_kind());
  u.kind = "Unknown";
  CHECK_THROWS_AS(rr::kind_info_for(client, u), rr::ApiError);
  CHECK(rr::api_version_of(u) == "example.dev/v1");
  CHECK(rr::kind_of(clienttest::gizmo("ns", "g")) == "Gizmo");
}
