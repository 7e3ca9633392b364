// Server-side apply through Cluster::patch(PatchType::Apply): creation, no-op re-apply, removal of
// fields a manager stops applying, YAML bodies, /status, and the requests the server refuses.
#include "cluster_test_api_types.hpp"
#include "rr/core/json.hpp"
#include "test_support.hpp"

using namespace cluster_test;

namespace {

Json apply(rr::Cluster& cluster, const rr::KindInfo& kind, const std::string& name, const std::string& body,
           const rr::WriteOptions& opts, std::string_view subresource = {}) {
  return cluster.patch(kind, {"default", name}, rr::PatchType::Apply, body, subresource, opts);
}

}  // namespace

TEST_CASE("apply creates a missing object and records an Apply entry") {
  auto cluster = make_cluster();
  const Json created = apply(*cluster, config_map_kind(), "a",
                             R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","labels":{"app":"web"}},
                                 "data":{"k":"v"}})",
                             manager("kubectl"));
  CHECK(created["data"] == Json{{"k", "v"}});
  CHECK(created["metadata"]["namespace"] == "default");  // from the URL
  CHECK(created["metadata"]["uid"].is_string());
  CHECK(rv_of(created) == "1");
  CHECK(generation_of(created) == 1);
  CHECK(managed_fields(created) == Json::parse(R"([{
      "manager": "kubectl", "operation": "Apply", "apiVersion": "v1", "time": "2024-05-01T12:00:00Z",
      "fieldsType": "FieldsV1",
      "fieldsV1": {"f:data": {"f:k": {}}, "f:metadata": {"f:labels": {"f:app": {}}}}}])"));
  CHECK(cluster->get(config_map_kind(), {"default", "a"}) == created);
}

TEST_CASE("re-applying the same configuration changes nothing and keeps the resourceVersion") {
  auto clock = std::make_shared<PinnedClock>();
  auto cluster = make_cluster({}, clock);
  const std::string body = R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"},"data":{"k":"v"}})";
  const Json first = apply(*cluster, config_map_kind(), "a", body, manager("kubectl"));
  clock->now += std::chrono::hours(1);
  const Json again = apply(*cluster, config_map_kind(), "a", body, manager("kubectl"));
  CHECK(again == first);
  CHECK(cluster->resource_version() == "1");
}

TEST_CASE("a field the manager stops applying is removed; a changed one is updated with a new time") {
  auto clock = std::make_shared<PinnedClock>();
  auto cluster = make_cluster({}, clock);
  apply(*cluster, config_map_kind(), "a",
        R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","labels":{"app":"web","tier":"front"}},
            "data":{"keep":"1","drop":"2"}})",
        manager("kubectl"));
  clock->now += std::chrono::seconds(30);
  const Json applied = apply(*cluster, config_map_kind(), "a",
                             R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"},"data":{"keep":"3"}})",
                             manager("kubectl"));
  CHECK(applied["data"] == Json{{"keep", "3"}});
  CHECK_FALSE(applied["metadata"].contains("labels"));  // emptied by the removal, so gone
  CHECK(rv_of(applied) == "2");
  CHECK(managed_fields(applied)[0]["fieldsV1"] == Json::parse(R"({"f:data":{"f:keep":{}}})"));
  CHECK(managed_fields(applied)[0]["time"] == "2024-05-01T12:00:30Z");
}

TEST_CASE("applying an empty configuration removes everything the manager applied, and its entry") {
  auto cluster = make_cluster();
  apply(*cluster, config_map_kind(), "a",
        R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"},"data":{"k":"v"}})", manager("kubectl"));
  const Json applied =
      apply(*cluster, config_map_kind(), "a", R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"}})",
            manager("kubectl"));
  CHECK_FALSE(applied.contains("data"));
  CHECK_FALSE(applied["metadata"].contains("managedFields"));
}

TEST_CASE("apply bodies are YAML: ints stay ints, booleans and nulls resolve, quoted scalars stay strings") {
  auto cluster = make_cluster();
  const Json created = apply(*cluster, thing_kind(), "a", R"(
apiVersion: things.test/v1
kind: Thing
metadata:
  name: a
  labels: {app: web, version: "2"}
spec:
  size: 3
  ratio: 0.5
  enabled: true
  legacy: yes
  hex: 0x1F
  nothing: ~
  words: [a, "1", 2]
  quoted: "true"
)",
                             manager("kubectl"));
  const Json& spec = created["spec"];
  CHECK(spec["size"].is_number_integer());
  CHECK(spec["size"] == 3);
  CHECK(spec["ratio"] == 0.5);
  CHECK(spec["enabled"] == true);
  CHECK(spec["legacy"] == true);
  CHECK(spec["hex"] == 31);
  CHECK_FALSE(spec.contains("nothing"));  // a null sets nothing on create
  CHECK(spec["words"] == Json::parse(R"(["a","1",2])"));
  CHECK(spec["quoted"] == "true");
  CHECK(created["metadata"]["labels"]["version"] == "2");
}

TEST_CASE("a body that is not YAML, or not a mapping, is a BadRequest") {
  auto cluster = make_cluster();
  for (const char* body : {"{", "- a\n- b\n", "just text"}) {
    const rr::Status s = failure_of([&] { apply(*cluster, config_map_kind(), "a", body, manager("kubectl")); });
    CHECK(s.code == 400);
    CHECK(s.message.starts_with("error decoding YAML: "));
  }
}

TEST_CASE("apply without a field manager is refused as the API server's PatchOptions validation does") {
  auto cluster = make_cluster();
  const rr::Status s = failure_of([&] {
    apply(*cluster, config_map_kind(), "a", R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"}})", {});
  });
  CHECK(s.code == 422);
  CHECK(s.reason == "Invalid");
  CHECK(s.message == R"(PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch)");
  REQUIRE(s.causes.size() == 1);
  CHECK(s.causes[0].field == "fieldManager");
  CHECK_THROWS_AS(cluster->get(config_map_kind(), {"default", "a"}), rr::ApiError);
}

TEST_CASE("the configuration must name the object of the URL") {
  auto cluster = make_cluster();
  auto refused = [&](const std::string& body) {
    return failure_of([&] { apply(*cluster, config_map_kind(), "a", body, manager("kubectl")); });
  };
  const rr::Status other_name = refused(R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"b"}})");
  CHECK(other_name.code == 400);
  CHECK(other_name.message == "the name of the object (b) does not match the name on the URL (a)");
  CHECK(refused(R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{}})").code == 400);
  const rr::Status other_namespace =
      refused(R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","namespace":"other"}})");
  CHECK(other_namespace.message == "the namespace of the object (other) does not match the namespace on the URL (default)");
  const rr::Status version = refused(R"({"apiVersion":"v2","kind":"ConfigMap","metadata":{"name":"a"}})");
  CHECK(version.message == "Incorrect version specified in apply patch. Specified patch version: v2, expected: v1");
  CHECK(refused(R"({"kind":"ConfigMap","metadata":{"name":"a"}})").code == 400);
  CHECK(refused(R"({"apiVersion":"v1","kind":"Secret","metadata":{"name":"a"}})").code == 400);
  const rr::Status managed =
      refused(R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","managedFields":[{}]}})");
  CHECK(managed.message == "metadata.managedFields must be nil");
  CHECK(cluster->resource_version() == "0");
}

TEST_CASE("an applied resourceVersion is a precondition") {
  auto cluster = make_cluster();
  cluster->create(config_map_kind(), config_map("default", "a"));
  const rr::Status s = failure_of([&] {
    apply(*cluster, config_map_kind(), "a",
          R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","resourceVersion":"7"},"data":{"k":"v"}})",
          manager("kubectl"));
  });
  CHECK(s.code == 409);
  CHECK(s.reason == "Conflict");
}

TEST_CASE("apply to the main resource bumps the generation for spec changes and leaves status alone") {
  auto cluster = make_cluster();
  apply(*cluster, thing_kind(), "a",
        R"({"apiVersion":"things.test/v1","kind":"Thing","metadata":{"name":"a"},"spec":{"size":1},
            "status":{"phase":"Ignored"}})",
        manager("kubectl"));
  const Json applied = apply(*cluster, thing_kind(), "a",
                             R"({"apiVersion":"things.test/v1","kind":"Thing","metadata":{"name":"a"},"spec":{"size":2}})",
                             manager("kubectl"));
  CHECK(applied["spec"]["size"] == 2);
  CHECK_FALSE(applied.contains("status"));
  CHECK(generation_of(applied) == 2);
  CHECK(managed_fields(applied)[0]["fieldsV1"] == Json::parse(R"({"f:spec":{"f:size":{}}})"));
}

TEST_CASE("apply to /status sets status only, under its own entry, and cannot create") {
  auto cluster = make_cluster();
  const std::string status_body =
      R"({"apiVersion":"things.test/v1","kind":"Thing","metadata":{"name":"a","labels":{"x":"y"}},
          "spec":{"size":9},"status":{"phase":"Ready"}})";
  const rr::Status missing =
      failure_of([&] { apply(*cluster, thing_kind(), "a", status_body, manager("controller"), "status"); });
  CHECK(missing.code == 404);

  apply(*cluster, thing_kind(), "a",
        R"({"apiVersion":"things.test/v1","kind":"Thing","metadata":{"name":"a"},"spec":{"size":1}})",
        manager("kubectl"));
  const Json applied = apply(*cluster, thing_kind(), "a", status_body, manager("controller"), "status");
  CHECK(applied["status"] == Json{{"phase", "Ready"}});
  CHECK(applied["spec"]["size"] == 1);
  CHECK_FALSE(applied["metadata"].contains("labels"));
  CHECK(generation_of(applied) == 1);
  REQUIRE(managed_fields(applied).size() == 2);
  // Same operation and time: ordered by manager, as the API server sorts them.
  CHECK(managed_fields(applied)[0] == Json::parse(R"({
      "manager": "controller", "operation": "Apply", "apiVersion": "things.test/v1", "time": "2024-05-01T12:00:00Z",
      "fieldsType": "FieldsV1", "fieldsV1": {"f:status": {"f:phase": {}}}, "subresource": "status"})"));
  CHECK(managed_fields(applied)[1]["manager"] == "kubectl");

  // Status apply on a kind without the status subresource: not served.
  CHECK(failure_of([&] { apply(*cluster, plain_thing_kind(), "a", status_body, manager("controller"), "status"); })
            .code == 404);
}

TEST_CASE("apply in dry-run mode stores nothing") {
  auto cluster = make_cluster();
  rr::WriteOptions opts = manager("kubectl");
  opts.dry_run = true;
  const Json would_be = apply(*cluster, config_map_kind(), "a",
                              R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"},"data":{"k":"v"}})", opts);
  CHECK(would_be["data"]["k"] == "v");
  CHECK(cluster->resource_version() == "0");
  CHECK_THROWS_AS(cluster->get(config_map_kind(), {"default", "a"}), rr::ApiError);
}

TEST_CASE("strategic merge patch of a custom resource stays UnsupportedMediaType") {
  auto cluster = make_cluster();
  cluster->create(thing_kind(), thing("default", "a"));
  CHECK(failure_of([&] {
          cluster->patch(thing_kind(), {"default", "a"}, rr::PatchType::Strategic, "{}", {}, manager("m"));
        }).code == 415);
}

TEST_CASE("apply to a generated kind: admission defaults what the configuration leaves out, re-apply is a no-op") {
  auto cluster = make_cluster();
  cluster->register_kind<clustertest::v1::Gadget>();
  const rr::KindInfo gadgets = rr::kind_info_of<clustertest::v1::Gadget>();
  const std::string body =
      R"({"apiVersion":"clustertest.rrgen.dev/v1","kind":"Gadget","metadata":{"name":"g"},"spec":{"color":"red"}})";
  const Json created = apply(*cluster, gadgets, "g", body, manager("kubectl"));
  CHECK(created["spec"] == Json{{"color", "red"}, {"mode", "slow"}, {"size", 3}});
  // Defaults belong to nobody: the entry holds only what was applied.
  CHECK(managed_fields(created)[0]["fieldsV1"] == Json::parse(R"({"f:spec":{"f:color":{}}})"));
  CHECK(apply(*cluster, gadgets, "g", body, manager("kubectl")) == created);
  // Admission still refuses what the schema refuses.
  const rr::Status s = failure_of([&] {
    apply(*cluster, gadgets, "g",
          R"({"apiVersion":"clustertest.rrgen.dev/v1","kind":"Gadget","metadata":{"name":"g"},"spec":{"size":99}})",
          manager("kubectl"));
  });
  CHECK(s.code == 422);
}
