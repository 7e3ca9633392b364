#include <doctest/doctest.h>

#include "test_server.hpp"

using namespace rr;
using namespace rr::apiserver_test;
using namespace std::chrono_literals;

namespace {

const char* crd_path = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
const char* gizmos_path = "/apis/test.rrgen.dev/v1/namespaces/default/gizmos";

bool established(const Json& crd) {
  if (!crd.contains("status") || !crd["status"].contains("conditions")) return false;
  for (const Json& c : crd["status"]["conditions"]) {
    if (c["type"] == "Established" && c["status"] == "True") return true;
  }
  return false;
}

template <class F>
bool eventually(F&& condition, std::chrono::milliseconds timeout = 3s) {
  const auto until = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < until) {
    if (condition()) return true;
    std::this_thread::sleep_for(20ms);
  }
  return condition();
}

}  // namespace

TEST_CASE("a CRD created over HTTP is served at once, with its names, and reports Established") {
  TestServer t;
  auto c = t.client();
  auto created = c->Post(crd_path, gizmo_crd().dump(), "application/json");
  REQUIRE(created->status == 201);
  // The kind is served right after the create returns.
  auto gizmo = c->Post(gizmos_path, R"({"apiVersion":"test.rrgen.dev/v1","kind":"Gizmo","metadata":{"name":"g1"},"spec":{"size":3}})",
                       "application/json");
  CHECK(gizmo->status == 201);
  Json crd = body_of(c->Get(std::string(crd_path) + "/gizmos.test.rrgen.dev"));
  CHECK(established(crd));
  CHECK(crd["status"]["acceptedNames"]["kind"] == "Gizmo");
  CHECK(crd["status"]["storedVersions"] == Json::array({"v1"}));
  CHECK(crd["spec"]["names"]["listKind"] == "GizmoList");  // defaulted

  Json resources = body_of(c->Get("/apis/test.rrgen.dev/v1"));
  REQUIRE(resources["resources"].size() == 2);
  CHECK(resources["resources"][0]["name"] == "gizmos");
  CHECK(resources["resources"][0]["singularName"] == "gizmo");
  CHECK(resources["resources"][0]["shortNames"] == Json::array({"gz"}));
  CHECK(resources["resources"][1]["name"] == "gizmos/status");
  Json groups = body_of(c->Get("/apis"));
  bool listed = false;
  for (const Json& g : groups["groups"]) listed |= g["name"] == "test.rrgen.dev";
  CHECK(listed);
  // Strategic merge patch is refused for custom resources, as by the API server.
  CHECK(c->Patch(std::string(gizmos_path) + "/g1", "{}", "application/strategic-merge-patch+json")->status == 415);
}

TEST_CASE("a CRD created through the C++ API is picked up by the CRD controller") {
  TestServer t;
  const auto crd_kind = t.cluster->find_kind({"apiextensions.k8s.io", "v1", "CustomResourceDefinition"});
  REQUIRE(crd_kind);
  t.cluster->create(*crd_kind, gizmo_crd());
  auto c = t.client();
  CHECK(eventually([&] { return c->Get(gizmos_path)->status == 200; }));
  CHECK(eventually([&] { return established(t.cluster->get(*crd_kind, {"", "gizmos.test.rrgen.dev"})); }));
}

TEST_CASE("deleting a CRD stops serving its kind and deletes its objects") {
  TestServer t;
  auto c = t.client();
  REQUIRE(c->Post(crd_path, gizmo_crd().dump(), "application/json")->status == 201);
  REQUIRE(c->Post(gizmos_path, R"({"metadata":{"name":"g1"}})", "application/json")->status == 201);
  REQUIRE(c->Delete(std::string(crd_path) + "/gizmos.test.rrgen.dev")->status == 200);
  CHECK(c->Get(gizmos_path)->status == 404);
  CHECK(c->Get("/apis/test.rrgen.dev/v1")->status == 404);
  // Created again: served again, empty.
  REQUIRE(c->Post(crd_path, gizmo_crd().dump(), "application/json")->status == 201);
  CHECK(body_of(c->Get(gizmos_path))["items"].empty());
}

TEST_CASE("an invalid CRD is 422 Invalid") {
  TestServer t;
  auto c = t.client();
  Json crd = gizmo_crd();
  crd["metadata"]["name"] = "wrong.name";
  auto res = c->Post(crd_path, crd.dump(), "application/json");
  CHECK(res->status == 422);
  CHECK(body_of(res)["details"]["causes"][0]["field"] == "metadata.name");
  crd = gizmo_crd();
  crd["spec"]["versions"][0]["storage"] = false;
  CHECK(c->Post(crd_path, crd.dump(), "application/json")->status == 422);
}

TEST_CASE("a CRD's schema is its kinds' admission; a kind registered before a schemaless CRD keeps its own") {
  const auto spec_required = [](Json& object) {
    std::vector<FieldError> errors;
    if (!object.contains("spec")) errors.push_back({"spec", FieldErrorType::Required, "spec: Required value"});
    return errors;
  };
  {
    TestServer t;
    t.cluster->register_kind(gizmo_kind(), spec_required);
    auto c = t.client();
    REQUIRE(c->Post(crd_path, gizmo_crd().dump(), "application/json")->status == 201);
    // The CRD's schema (it preserves unknown fields) does not require spec: the API server's answer.
    CHECK(eventually(
        [&] { return c->Post(gizmos_path, R"({"metadata":{"name":"nospec"}})", "application/json")->status == 201; }));
  }
  TestServer t;
  t.cluster->register_kind(gizmo_kind(), spec_required);
  auto c = t.client();
  Json schemaless = gizmo_crd();
  schemaless["spec"]["versions"][0].erase("schema");
  REQUIRE(c->Post(crd_path, schemaless.dump(), "application/json")->status == 201);
  CHECK(c->Post(gizmos_path, R"({"metadata":{"name":"nospec"}})", "application/json")->status == 422);
  CHECK(c->Post(gizmos_path, R"({"metadata":{"name":"ok"},"spec":{}})", "application/json")->status == 201);
  Json resources = body_of(c->Get("/apis/test.rrgen.dev/v1"));
  CHECK(resources["resources"][0]["shortNames"] == Json::array({"gz"}));
}

TEST_CASE("a rule may read metadata.namespace of a nested object that declares it (not a resource root)") {
  // The API server narrows metadata to name and generateName only at a resource root, and finds a
  // property named after a CEL reserved word (`namespace`) by its own name: this CRD is accepted.
  Json crd = gizmo_crd();
  crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"] = Json::parse(R"({
    "type": "object",
    "properties": {"spec": {"type": "object", "properties": {"target": {"type": "object", "properties": {
      "metadata": {"type": "object", "properties": {"name": {"type": "string"}, "namespace": {"type": "string"}}}}}},
      "x-kubernetes-validations": [{"rule": "!has(self.target) || self.target.metadata.namespace != 'kube-system'",
                                    "message": "target must not be in kube-system"}]}}})");
  TestServer t;
  auto c = t.client();
  const auto created = c->Post(crd_path, crd.dump(), "application/json");
  REQUIRE_MESSAGE(created->status == 201, created->body);
  const auto gizmo = [&](const char* name, const char* ns) {
    return c->Post(gizmos_path,
                   std::string(R"({"apiVersion":"test.rrgen.dev/v1","kind":"Gizmo","metadata":{"name":")") + name +
                       R"("},"spec":{"target":{"metadata":{"name":"t","namespace":")" + ns + R"("}}}})",
                   "application/json");
  };
  CHECK(gizmo("ok", "apps")->status == 201);
  const auto refused = gizmo("refused", "kube-system");
  REQUIRE(refused->status == 422);
  const Json status = body_of(refused);
  CHECK(status["details"]["causes"][0]["field"] == "spec");
  CHECK(status["details"]["causes"][0]["message"] == "Invalid value: target must not be in kube-system");
}

TEST_CASE("a CRD's selectableFields are field selectors of its kind; invalid ones refuse the CRD") {
  TestServer t;
  auto c = t.client();
  Json crd = gizmo_crd();
  crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"] = Json::parse(R"({"type": "object", "properties": {
      "spec": {"type": "object", "properties": {"color": {"type": "string"}, "size": {"type": "integer"},
                                                 "parts": {"type": "array", "items": {"type": "string"}}}}}})");
  Json bad = crd;
  bad["spec"]["versions"][0]["selectableFields"] = Json::parse(
      R"([{"jsonPath": ".spec.parts"}, {"jsonPath": ".spec.shape"}, {"jsonPath": "spec.color"},
                      {"jsonPath": ".spec.size"}, {"jsonPath": ".spec.size"}, {}])");
  auto refused = c->Post(crd_path, bad.dump(), "application/json");
  REQUIRE(refused->status == 422);
  const std::string message = body_of(refused)["message"].get<std::string>();
  CAPTURE(message);
  const std::string at = "spec.versions[0].selectableFields";
  CHECK(message.find(at + "[0].jsonPath: Invalid value: \".spec.parts\": must point to a field of type string, "
                          "boolean or integer. Enum string fields and strings with formats are allowed.") !=
        std::string::npos);
  CHECK(message.find(at + "[1].jsonPath: Invalid value: \".spec.shape\": is an invalid path: does not refer to a "
                          "valid field") != std::string::npos);
  CHECK(message.find(at + "[2].jsonPath: Invalid value: \"spec.color\": is an invalid path: expected [ or . but "
                          "got: spec") != std::string::npos);
  CHECK(message.find(at + "[4].jsonPath: Duplicate value: \".spec.size\"") != std::string::npos);
  CHECK(message.find(at + "[5].jsonPath: Required value") != std::string::npos);

  crd["spec"]["versions"][0]["selectableFields"] = Json::parse(
      R"([{"jsonPath": ".spec.color"}, {"jsonPath": ".spec.size"}])");
  REQUIRE(c->Post(crd_path, crd.dump(), "application/json")->status == 201);
  for (
      const char* body :
      {R"({"apiVersion":"test.rrgen.dev/v1","kind":"Gizmo","metadata":{"name":"red"},"spec":{"color":"red","size":3}})",
       R"({"apiVersion":"test.rrgen.dev/v1","kind":"Gizmo","metadata":{"name":"blue"},"spec":{"color":"blue"}})"}) {
    REQUIRE(c->Post(gizmos_path, body, "application/json")->status == 201);
  }
  const auto names = [&](const std::string& selector) {
    const Json list = body_of(c->Get(std::string(gizmos_path) + "?fieldSelector=" + selector));
    std::vector<std::string> out;
    for (const Json& item : list["items"]) out.push_back(item["metadata"]["name"]);
    return out;
  };
  CHECK(names("spec.color%3Dred") == std::vector<std::string>{"red"});
  CHECK(names("spec.size%3D3") == std::vector<std::string>{"red"});
  CHECK(names("spec.color%21%3Dred") == std::vector<std::string>{"blue"});
  auto unknown = c->Get(std::string(gizmos_path) + "?fieldSelector=spec.parts%3Dx");
  CHECK(unknown->status == 400);
  CHECK(body_of(unknown)["message"] == "field label not supported: spec.parts");
}
