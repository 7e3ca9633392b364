// Server-side apply over HTTP types fields by the schema the API server serves: a built-in kind's
// 1.35 definition, a custom resource's CRD version schema (its own list types and keys).
#include <doctest/doctest.h>

#include <thread>

#include "test_server.hpp"

using namespace rr;
using namespace rr::apiserver_test;
using namespace std::chrono_literals;

namespace {

httplib::Result apply_as(const TestServer& t, const std::string& path, const std::string& manager,
                         const std::string& body) {
  return t.client()->Patch(path + "?fieldManager=" + manager, body, "application/apply-patch+yaml");
}

Json fields_of(const Json& object, const std::string& manager) {
  for (const Json& entry : object["metadata"].value("managedFields", Json::array())) {
    if (entry.value("manager", "") == manager) return entry["fieldsV1"];
  }
  return nullptr;
}

}  // namespace

TEST_CASE("apply over HTTP: a Deployment's selector is atomic, as its 1.35 definition says") {
  TestServer t;
  const std::string path = "/apis/apps/v1/namespaces/default/deployments/web";
  const std::string deployment = R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{
      "selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web","tier":"fe"}},
      "spec":{"containers":[{"name":"app","image":"i","ports":[{"containerPort":80}]}]}}}})";
  auto created = apply_as(t, path, "a", deployment);
  REQUIRE(created->status == 201);
  const Json fields = fields_of(body_of(created), "a");
  CHECK(fields["f:spec"]["f:selector"] == Json::object());
  const Json& container = fields["f:spec"]["f:template"]["f:spec"]["f:containers"]["k:{\"name\":\"app\"}"];
  CHECK(container["f:ports"].contains("k:{\"containerPort\":80,\"protocol\":\"TCP\"}"));

  auto refused = apply_as(t, path, "b",
                          R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{
      "selector":{"matchLabels":{"app":"web","tier":"fe"}}}})");
  CHECK(refused->status == 409);
  CHECK(body_of(refused)["message"] == R"(Apply failed with 1 conflict: conflict with "a": .spec.selector)");
}

TEST_CASE("apply over HTTP: a custom resource's list types come from its CRD version's schema") {
  TestServer t;
  Json crd = gizmo_crd();
  crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"] = Json::parse(R"({"type": "object", "properties": {
      "spec": {"type": "object", "properties": {
        "size": {"type": "integer"},
        "slots": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["bay", "row"],
                  "items": {"type": "object", "required": ["bay"], "properties": {
                    "bay": {"type": "string"}, "row": {"type": "integer", "default": 1}, "part": {"type": "string"}}}},
        "containers": {"type": "array", "items": {"type": "object", "properties": {"name": {"type": "string"}}}}}}}})");
  REQUIRE(t.client()
              ->Post("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd.dump(), "application/json")
              ->status == 201);
  const std::string path = "/apis/test.rrgen.dev/v1/namespaces/default/gizmos/g";
  const std::string head = R"({"apiVersion":"test.rrgen.dev/v1","kind":"Gizmo","metadata":{"name":"g"},"spec":)";
  const std::string by_a = head + R"({"slots":[{"bay":"x","part":"p"}],"containers":[{"name":"one"}]}})";
  auto first = apply_as(t, path, "a", by_a);
  for (int i = 0; i < 100 && first->status == 404; ++i) {  // served once the CRD controller registered it
    std::this_thread::sleep_for(20ms);
    first = apply_as(t, path, "a", by_a);
  }
  REQUIRE(first->status == 201);
  CHECK(fields_of(body_of(first), "a")["f:spec"]["f:slots"].contains("k:{\"bay\":\"x\",\"row\":1}"));
  CHECK(fields_of(body_of(first), "a")["f:spec"]["f:containers"] == Json::object());

  auto merged = apply_as(t, path, "b", head + R"({"slots":[{"bay":"y"}]}})");
  REQUIRE(merged->status == 200);
  // The schema defaults row in both items (the key a and b left out).
  CHECK(body_of(merged)["spec"]["slots"] == Json::parse(R"([{"bay":"x","part":"p","row":1},{"bay":"y","row":1}])"));

  // No list type: atomic, although the fallback table would key `containers` by name.
  auto refused = apply_as(t, path, "b", head + R"({"containers":[{"name":"two"}]}})");
  CHECK(refused->status == 409);
  CHECK(body_of(refused)["message"] == R"(Apply failed with 1 conflict: conflict with "a": .spec.containers)");
}
