// Server-side apply between managers: conflicts (409 with FieldManagerConflict causes), force,
// shared ownership, and fields that stay because someone else still owns them.
#include "test_support.hpp"

using namespace cluster_test;

namespace {

rr::KindInfo deployment_kind() {
  return {.gvk = {"apps", "v1", "Deployment"}, .plural = "deployments", .list_kind = "DeploymentList", .has_status = true};
}

std::shared_ptr<rr::Cluster> cluster_with_deployments() {
  auto cluster = make_cluster();
  cluster->register_kind(deployment_kind());
  return cluster;
}

Json apply(rr::Cluster& cluster, const std::string& body, const rr::WriteOptions& opts) {
  return cluster.patch(deployment_kind(), {"default", "web"}, rr::PatchType::Apply, body, {}, opts);
}

std::string deployment(const std::string& spec) {
  return R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":)" + spec + "}";
}

// The manager names of the entries, in the stored order.
std::vector<std::string> managers_of(const Json& object) {
  std::vector<std::string> out;
  for (const Json& entry : object["metadata"].value("managedFields", Json::array())) {
    out.push_back(entry.value("manager", "") + "/" + entry.value("operation", ""));
  }
  return out;
}

Json fields_of(const Json& object, const std::string& manager) {
  for (const Json& entry : object["metadata"]["managedFields"]) {
    if (entry.value("manager", "") == manager) return entry["fieldsV1"];
  }
  return nullptr;
}

}  // namespace

TEST_CASE("a second applier changing a field the first owns gets a 409 naming the manager and the field") {
  auto cluster = cluster_with_deployments();
  apply(*cluster, deployment(R"({"replicas":1,"paused":false})"), manager("kubectl"));
  const rr::Status s =
      failure_of([&] { apply(*cluster, deployment(R"({"replicas":3})"), manager("autoscaler")); });
  CHECK(s.code == 409);
  CHECK(s.reason == "Conflict");
  CHECK(s.message == R"(Apply failed with 1 conflict: conflict with "kubectl": .spec.replicas)");
  REQUIRE(s.causes.size() == 1);
  CHECK(s.causes[0] == rr::StatusCause{"FieldManagerConflict", R"(conflict with "kubectl")", ".spec.replicas"});
  CHECK(cluster->get(deployment_kind(), {"default", "web"})["spec"]["replicas"] == 1);
}

TEST_CASE("several conflicts are listed by manager") {
  auto cluster = cluster_with_deployments();
  apply(*cluster, deployment(R"({"replicas":1,"paused":false})"), manager("a"));
  apply(*cluster, deployment(R"({"minReadySeconds":5})"), manager("b"));
  const rr::Status s = failure_of(
      [&] { apply(*cluster, deployment(R"({"replicas":2,"paused":true,"minReadySeconds":6})"), manager("c")); });
  CHECK(s.message ==
        "Apply failed with 3 conflicts: conflicts with \"a\":\n- .spec.paused\n- .spec.replicas\n"
        "conflicts with \"b\":\n- .spec.minReadySeconds");
  CHECK(s.causes.size() == 3);
}

TEST_CASE("force takes the conflicting fields over") {
  auto cluster = cluster_with_deployments();
  apply(*cluster, deployment(R"({"replicas":1,"paused":false})"), manager("kubectl"));
  const Json forced = apply(*cluster, deployment(R"({"replicas":3})"), manager("autoscaler", true));
  CHECK(forced["spec"]["replicas"] == 3);
  CHECK(fields_of(forced, "kubectl") == Json::parse(R"({"f:spec":{"f:paused":{}}})"));
  CHECK(fields_of(forced, "autoscaler") == Json::parse(R"({"f:spec":{"f:replicas":{}}})"));
  // kubectl no longer owns replicas: leaving it out of its next apply does not remove it.
  const Json reapplied = apply(*cluster, deployment(R"({"paused":false})"), manager("kubectl"));
  CHECK(reapplied["spec"]["replicas"] == 3);
  // ...and applying it again with another value is now kubectl's conflict.
  const rr::Status s = failure_of([&] { apply(*cluster, deployment(R"({"replicas":5})"), manager("kubectl")); });
  CHECK(s.message == R"(Apply failed with 1 conflict: conflict with "autoscaler": .spec.replicas)");
}

TEST_CASE("applying the value another manager set shares the field; it stays while either still applies it") {
  auto cluster = cluster_with_deployments();
  apply(*cluster, deployment(R"({"replicas":2})"), manager("a"));
  const Json shared = apply(*cluster, deployment(R"({"replicas":2})"), manager("b"));
  CHECK(managers_of(shared) == std::vector<std::string>{"a/Apply", "b/Apply"});
  // a drops it: b still owns it, so it stays. (a keeps an entry: the empty spec it applied is a
  // field of its own, `f:spec: {}`, as structured-merge-diff's field sets have it.)
  const Json dropped = apply(*cluster, deployment("{}"), manager("a"));
  CHECK(dropped["spec"]["replicas"] == 2);
  CHECK(managers_of(dropped) == std::vector<std::string>{"a/Apply", "b/Apply"});
  CHECK(dropped["metadata"]["managedFields"][0]["fieldsV1"] == Json::parse(R"({"f:spec":{}})"));
  // Now b alone may change it.
  CHECK(apply(*cluster, deployment(R"({"replicas":4})"), manager("b"))["spec"]["replicas"] == 4);
}

TEST_CASE("a co-owned field changed by one of its owners is a conflict for that owner") {
  auto cluster = cluster_with_deployments();
  apply(*cluster, deployment(R"({"replicas":2})"), manager("a"));
  apply(*cluster, deployment(R"({"replicas":2})"), manager("b"));
  const rr::Status s = failure_of([&] { apply(*cluster, deployment(R"({"replicas":3})"), manager("a")); });
  CHECK(s.message == R"(Apply failed with 1 conflict: conflict with "b": .spec.replicas)");
}

TEST_CASE("containers merge by name: each applier owns its own container") {
  auto cluster = cluster_with_deployments();
  apply(*cluster,
        deployment(R"({"template":{"spec":{"containers":[{"name":"app","image":"app:1"}]}}})"),
        manager("kubectl"));
  const Json both = apply(
      *cluster, deployment(R"({"template":{"spec":{"containers":[{"name":"sidecar","image":"proxy:1"}]}}})"),
      manager("injector"));
  CHECK(both["spec"]["template"]["spec"]["containers"] ==
        Json::parse(R"([{"name":"app","image":"app:1"},{"name":"sidecar","image":"proxy:1"}])"));
  CHECK(fields_of(both, "injector") == Json::parse(R"({"f:spec":{"f:template":{"f:spec":{"f:containers":{
      "k:{\"name\":\"sidecar\"}":{".":{},"f:image":{},"f:name":{}}}}}}})"));
  // The injector changing kubectl's image conflicts at the item's field.
  const rr::Status s = failure_of([&] {
    apply(*cluster, deployment(R"({"template":{"spec":{"containers":[{"name":"app","image":"app:2"}]}}})"),
          manager("injector"));
  });
  CHECK(s.message ==
        R"(Apply failed with 1 conflict: conflict with "kubectl": .spec.template.spec.containers[name="app"].image)");
  // kubectl dropping its container removes it and leaves the injector's.
  const Json after = apply(*cluster, deployment("{}"), manager("kubectl"));
  CHECK(after["spec"]["template"]["spec"]["containers"] ==
        Json::parse(R"([{"name":"sidecar","image":"proxy:1"}])"));
}
