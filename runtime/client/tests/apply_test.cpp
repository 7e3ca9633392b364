// Client::apply's request (one apply patch, only what the configuration sets, the options as query
// parameters), the default field owner and field validation, ObjectMetaApply's codec and
// extract_applied's walk of fieldsV1. The apply semantics themselves (create, conflicts, force) are
// the servers': runtime/cluster and runtime/http_client test them through this same call.
#include <doctest/doctest.h>

#include <stdexcept>

#include "fake_client.hpp"
#include "rr/client/apply.hpp"

namespace clienttest {

// An apply configuration as rrgen generates them, written by hand for the client's own test kind.
struct GizmoApply {
  using object_type = Gizmo;
  std::string api_version = "example.dev/v1";
  std::string kind = "Gizmo";
  rr::ObjectMetaApply metadata{};
  rr::Optional<std::string> color{};  // spec.color
  rr::Optional<std::string> phase{};  // status.phase
};
inline void to_json(rr::Json& j, const GizmoApply& a) {
  j = {{"apiVersion", a.api_version}, {"kind", a.kind}};
  if (!a.metadata.empty()) j["metadata"] = a.metadata;
  if (a.color) j["spec"]["color"] = *a.color;
  if (a.phase) j["status"]["phase"] = *a.phase;
}

// Records each apply and answers it as a merge of the configuration into the stored object.
class ApplyRecorder : public FakeClient {
 public:
  std::vector<rr::PatchType> types;
  std::vector<std::string> bodies;

 protected:
  rr::Json do_patch(const rr::KindInfo& kind, const rr::ObjectKey& key, rr::PatchType type, std::string_view body,
                    std::string_view subresource, const rr::WriteOptions& opts) override {
    types.push_back(type);
    bodies.emplace_back(body);
    return FakeClient::do_patch(kind, key, rr::PatchType::Merge, body, subresource, opts);
  }
};

}  // namespace clienttest

using clienttest::ApplyRecorder;
using clienttest::GizmoApply;

static_assert(rr::ApplyConfiguration<GizmoApply>);
static_assert(!rr::ApplyConfiguration<clienttest::Gizmo>);

TEST_CASE("Client::apply sends one apply patch with only the members the configuration sets") {
  ApplyRecorder client;
  client.put(clienttest::gizmo("ns", "g", "red"));
  std::vector<std::string> warnings;
  const clienttest::Gizmo out = client.apply(
      GizmoApply{.metadata = {.name = "g", .namespace_ = "ns", .labels = {{{"app", "web"}}}}, .color = "blue"},
      {.field_manager = "op",
       .force = true,
       .dry_run = true,
       .field_validation = rr::FieldValidation::Strict,
       .warnings = &warnings});
  REQUIRE(client.types.size() == 1);
  CHECK(client.types[0] == rr::PatchType::Apply);
  CHECK(rr::Json::parse(client.bodies[0]) == rr::Json::parse(R"({"apiVersion":"example.dev/v1","kind":"Gizmo",
                            "metadata":{"name":"g","namespace":"ns","labels":{"app":"web"}},"spec":{"color":"blue"}})"));
  CHECK(client.calls.back() == "patch gizmos ns/g");
  CHECK(client.last_write.field_manager == "op");
  CHECK(client.last_write.force);
  CHECK(client.last_write.dry_run);
  CHECK(client.last_write.field_validation == rr::FieldValidation::Strict);
  CHECK(client.last_write.warnings == &warnings);
  CHECK(out.color == "blue");
  CHECK(out.metadata.labels.at("app") == "web");
}

TEST_CASE("Client::apply_status goes to the status subresource") {
  ApplyRecorder client;
  client.put(clienttest::gizmo("ns", "g"));
  const auto out = client.apply_status(GizmoApply{.metadata = {.name = "g", .namespace_ = "ns"}, .phase = "Ready"},
                                       {.field_manager = "op"});
  CHECK(client.calls.back() == "patch status gizmos ns/g");
  CHECK(rr::Json::parse(client.bodies.at(0)).at("status") == rr::Json{{"phase", "Ready"}});
  CHECK(out.phase == "Ready");
}

TEST_CASE("Client::apply refuses a configuration without a name before any request") {
  ApplyRecorder client;
  CHECK_THROWS_AS(client.apply(GizmoApply{.color = "blue"}), std::invalid_argument);
  CHECK(client.calls.empty());
}

TEST_CASE("with_field_owner and with_field_validation fill in what a write leaves out") {
  auto recorder = std::make_shared<ApplyRecorder>();
  recorder->put(clienttest::gizmo("ns", "g"));
  auto client = rr::with_field_validation(rr::with_field_owner(recorder, "my-operator"), rr::FieldValidation::Warn);

  client->apply(GizmoApply{.metadata = {.name = "g", .namespace_ = "ns"}, .color = "green"});
  CHECK(recorder->last_write.field_manager == "my-operator");
  CHECK(recorder->last_write.field_validation == rr::FieldValidation::Warn);

  // What the call sets wins.
  client->apply(GizmoApply{.metadata = {.name = "g", .namespace_ = "ns"}, .color = "green"},
                {.field_manager = "other", .field_validation = rr::FieldValidation::Ignore});
  CHECK(recorder->last_write.field_manager == "other");
  CHECK(recorder->last_write.field_validation == rr::FieldValidation::Ignore);

  // Every write, not only apply.
  client->create(clienttest::gizmo("ns", "h"));
  CHECK(recorder->last_write.field_manager == "my-operator");
  auto h = client->get<clienttest::Gizmo>("ns", "h");
  h.color = "black";
  client->update(h);
  CHECK(recorder->last_write.field_manager == "my-operator");
  client->update_status(h);
  CHECK(recorder->last_write.field_manager == "my-operator");

  // Without ownership, over a client the caller keeps.
  ApplyRecorder plain;
  plain.put(clienttest::gizmo("ns", "g"));
  rr::with_field_owner(plain, "borrowed")->apply(GizmoApply{.metadata = {.name = "g", .namespace_ = "ns"}});
  CHECK(plain.last_write.field_manager == "borrowed");
}

TEST_CASE("ObjectMetaApply writes only what is set and reads only what an applier owns") {
  const rr::ObjectMetaApply empty{};
  CHECK(empty.empty());
  CHECK(rr::Json(empty) == rr::Json::object());

  rr::OwnerReference owner;
  owner.api_version = "v1";
  owner.kind = "Pod";
  owner.name = "p";
  owner.uid = "u";
  const rr::ObjectMetaApply meta{
      .name = "x", .labels = {{{"a", "1"}}}, .owner_references = std::vector{owner}, .finalizers = {{"f"}}};
  const rr::Json j = meta;
  CHECK(j == rr::Json::parse(R"({"name":"x","labels":{"a":"1"},"finalizers":["f"],
                                 "ownerReferences":[{"apiVersion":"v1","kind":"Pod","name":"p","uid":"u"}]})"));
  CHECK(j.get<rr::ObjectMetaApply>() == meta);
  CHECK(!meta.empty());

  // Server-set members are not part of an apply configuration.
  const auto read =
      rr::Json::parse(R"({"name":"x","uid":"u1","resourceVersion":"5","namespace":"n"})").get<rr::ObjectMetaApply>();
  CHECK(read == rr::ObjectMetaApply{.name = "x", .namespace_ = "n"});
  // An empty map is set, not absent.
  CHECK(rr::Json(rr::ObjectMetaApply{.annotations = std::map<std::string, std::string>{}}) ==
        rr::Json::parse(R"({"annotations":{}})"));
}

namespace {

// A Deployment-like object with two managers: "op" applied replicas, one label, one container
// (by its key) with its image and one port, and a finalizer; "kubectl" owns the rest.
const char* const kManaged = R"({
  "apiVersion": "apps/v1", "kind": "Deployment",
  "metadata": {
    "name": "web", "namespace": "prod", "uid": "123", "resourceVersion": "7",
    "labels": {"app": "web", "team": "a"},
    "finalizers": ["a.example/f", "b.example/f"],
    "managedFields": [
      {"manager": "op", "operation": "Apply", "apiVersion": "apps/v1", "fieldsType": "FieldsV1",
       "fieldsV1": {"f:metadata": {"f:labels": {"f:app": {}}, "f:finalizers": {"v:\"a.example/f\"": {}}},
                    "f:spec": {"f:replicas": {}, "f:selector": {},
                               "f:template": {"f:spec": {"f:containers": {"k:{\"name\":\"app\"}": {
                                  ".": {}, "f:name": {}, "f:image": {},
                                  "f:ports": {"k:{\"containerPort\":80,\"protocol\":\"TCP\"}": {".": {}, "f:containerPort": {}}}}}}}}}},
      {"manager": "op", "operation": "Update", "apiVersion": "apps/v1", "fieldsType": "FieldsV1",
       "fieldsV1": {"f:spec": {"f:paused": {}}}},
      {"manager": "op", "operation": "Apply", "apiVersion": "apps/v1", "fieldsType": "FieldsV1", "subresource": "status",
       "fieldsV1": {"f:status": {"f:readyReplicas": {}}}},
      {"manager": "kubectl", "operation": "Apply", "apiVersion": "apps/v1", "fieldsType": "FieldsV1",
       "fieldsV1": {"f:metadata": {"f:labels": {"f:team": {}}}, "f:spec": {"f:minReadySeconds": {}}}}
    ]
  },
  "spec": {
    "replicas": 3, "minReadySeconds": 5, "paused": false,
    "selector": {"matchLabels": {"app": "web"}},
    "template": {"spec": {"containers": [
      {"name": "sidecar", "image": "envoy"},
      {"name": "app", "image": "nginx:1", "imagePullPolicy": "Always",
       "ports": [{"containerPort": 80, "protocol": "TCP", "name": "http"}, {"containerPort": 443, "protocol": "TCP"}]}
    ]}}
  },
  "status": {"readyReplicas": 2, "replicas": 3}
})";

}  // namespace

TEST_CASE("extract_applied rebuilds what one manager applied, and nothing another owns") {
  const rr::Json object = rr::Json::parse(kManaged);
  CHECK(rr::extract_applied(object, "op") == rr::Json::parse(R"({
    "apiVersion": "apps/v1", "kind": "Deployment",
    "metadata": {"name": "web", "namespace": "prod", "labels": {"app": "web"}, "finalizers": ["a.example/f"]},
    "spec": {"replicas": 3, "selector": {"matchLabels": {"app": "web"}},
             "template": {"spec": {"containers": [
               {"name": "app", "image": "nginx:1", "ports": [{"containerPort": 80, "protocol": "TCP"}]}]}}}
  })"));
  CHECK(rr::extract_applied(object, "op", "status") == rr::Json::parse(R"({
    "apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "namespace": "prod"},
    "status": {"readyReplicas": 2}
  })"));
  CHECK(rr::extract_applied(object, "kubectl") == rr::Json::parse(R"({
    "apiVersion": "apps/v1", "kind": "Deployment",
    "metadata": {"name": "web", "namespace": "prod", "labels": {"team": "a"}}, "spec": {"minReadySeconds": 5}
  })"));
  // No Apply entry of that manager: only what names the object.
  CHECK(rr::extract_applied(object, "nobody") == rr::Json::parse(R"({
    "apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "namespace": "prod"}})"));
}

TEST_CASE("extract_applied refuses malformed managedFields") {
  CHECK_THROWS_AS(rr::extract_applied(rr::Json::parse(R"({"metadata":{"managedFields":{}}})"), "op"),
                  std::invalid_argument);
  CHECK_THROWS_AS(rr::extract_applied(rr::Json::parse(R"({"metadata":{"managedFields":[
                    {"manager":"op","operation":"Apply","fieldsV1":{"f:a":[]}}]},"a":1})"),
                                      "op"),
                  std::invalid_argument);
  CHECK_THROWS_AS(rr::extract_applied(rr::Json::parse(R"({"metadata":{"managedFields":[
                    {"manager":"op","operation":"Apply","fieldsV1":{"f:a":{"k:{oops":{}}}}]},"a":[{"x":1}]})"),
                                      "op"),
                  std::invalid_argument);
  CHECK_THROWS_AS(rr::extract_applied(rr::Json::array(), "op"), std::invalid_argument);
  // A key that is not an object, a manager that is not a string.
  CHECK_THROWS_AS(rr::extract_applied(rr::Json::parse(R"({"metadata":{"managedFields":[
                    {"manager":"op","operation":"Apply","fieldsV1":{"f:a":{"k:5":{}}}}]},"a":[{"x":1}]})"),
                                      "op"),
                  std::invalid_argument);
  CHECK_THROWS_AS(rr::extract_applied(rr::Json::parse(R"({"metadata":{"managedFields":[{"manager":7}]}})"), "op"),
                  std::invalid_argument);
}
