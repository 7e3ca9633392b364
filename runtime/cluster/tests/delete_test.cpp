// DELETE semantics: finalizers and deletionTimestamp, preconditions, collections, dry run.
#include "test_support.hpp"

using namespace cluster_test;

namespace {

rr::DeleteOptions precondition_uid(std::string uid) {
  rr::DeleteOptions o;
  o.precondition_uid = std::move(uid);
  return o;
}
rr::DeleteOptions precondition_rv(std::string rv) {
  rr::DeleteOptions o;
  o.precondition_resource_version = std::move(rv);
  return o;
}

}  // namespace

TEST_CASE("delete without finalizers removes the object and returns its last state") {
  auto cluster = make_cluster();
  const Json created = cluster->create(config_map_kind(), config_map("default", "a", {{"k", "v"}}));
  auto watch = cluster->watch(config_map_kind(), since(rv_of(created)));
  const Json last = cluster->remove(config_map_kind(), {"default", "a"});
  CHECK(last["data"]["k"] == "v");
  CHECK(failure_of([&] { cluster->get(config_map_kind(), {"default", "a"}); }).code == 404);
  auto deleted = watch->next(std::chrono::milliseconds(0));
  REQUIRE(deleted);
  CHECK(deleted->type == rr::WatchEventType::Deleted);
  CHECK(rv_of(deleted->object) == "2");  // the deletion has its own resourceVersion
  CHECK(cluster->resource_version() == "2");
}

TEST_CASE("delete with finalizers sets deletionTimestamp and bumps the generation once") {
  auto clock = std::make_shared<PinnedClock>();
  auto cluster = make_cluster({}, clock);
  Json object = thing("default", "a");
  object["metadata"]["finalizers"] = {"example.test/cleanup"};
  cluster->create(thing_kind(), object);
  clock->now += std::chrono::seconds(30);
  const Json terminating = cluster->remove(thing_kind(), {"default", "a"});
  CHECK(terminating["metadata"]["deletionTimestamp"] == "2024-05-01T12:00:30Z");
  CHECK(terminating["metadata"]["deletionGracePeriodSeconds"] == 0);
  CHECK(generation_of(terminating) == 2);
  CHECK(rv_of(terminating) == "2");
  CHECK(cluster->get(thing_kind(), {"default", "a"}) == terminating);

  // Deleting again is a no-op that returns the object.
  clock->now += std::chrono::seconds(30);
  CHECK(cluster->remove(thing_kind(), {"default", "a"}) == terminating);
  CHECK(cluster->resource_version() == "2");
}

TEST_CASE("deletionTimestamp cannot be unset by an update") {
  auto cluster = make_cluster();
  Json object = config_map("default", "a");
  object["metadata"]["finalizers"] = {"example.test/f"};
  cluster->create(config_map_kind(), object);
  Json terminating = cluster->remove(config_map_kind(), {"default", "a"});
  Json request = terminating;
  request["metadata"].erase("deletionTimestamp");
  request["data"] = {{"k", "v"}};
  CHECK(cluster->update(config_map_kind(), request)["metadata"]["deletionTimestamp"] ==
        terminating["metadata"]["deletionTimestamp"]);
}

TEST_CASE("delete preconditions: uid and resourceVersion") {
  auto cluster = make_cluster();
  const Json created = cluster->create(config_map_kind(), config_map("default", "a"));
  const rr::Status uid =
      failure_of([&] { cluster->remove(config_map_kind(), {"default", "a"}, precondition_uid("x")); });
  CHECK(uid.code == 409);
  CHECK(uid.message.find("Precondition failed: UID in precondition: x") != std::string::npos);
  const rr::Status rv = failure_of([&] { cluster->remove(config_map_kind(), {"default", "a"}, precondition_rv("0")); });
  CHECK(rv.code == 409);
  CHECK_NOTHROW(cluster->remove(config_map_kind(), {"default", "a"},
                                precondition_uid(created["metadata"]["uid"].get<std::string>())));
}

TEST_CASE("delete of a missing object is NotFound") {
  auto cluster = make_cluster();
  CHECK(failure_of([&] { cluster->remove(config_map_kind(), {"default", "nope"}); }).code == 404);
}

TEST_CASE("dry-run delete keeps the object") {
  auto cluster = make_cluster();
  cluster->create(config_map_kind(), config_map("default", "a"));
  rr::DeleteOptions dry;
  dry.dry_run = true;
  CHECK(cluster->remove(config_map_kind(), {"default", "a"}, dry)["metadata"]["name"] == "a");
  CHECK_NOTHROW(cluster->get(config_map_kind(), {"default", "a"}));
}

TEST_CASE("delete collection by label selector within a namespace") {
  auto cluster = make_cluster();
  auto labelled = [](const std::string& ns, const std::string& name, const std::string& app) {
    Json j = config_map(ns, name);
    j["metadata"]["labels"] = {{"app", app}};
    return j;
  };
  cluster->create(config_map_kind(), labelled("default", "a", "web"));
  cluster->create(config_map_kind(), labelled("default", "b", "db"));
  cluster->create(config_map_kind(), labelled("other", "c", "web"));
  rr::ListOptions selector;
  selector.namespace_ = "default";
  selector.label_selector = "app=web";
  cluster->remove_collection(config_map_kind(), selector);
  const Json left = cluster->list(config_map_kind(), {});
  REQUIRE(left["items"].size() == 2);
  CHECK(left["items"][0]["metadata"]["name"] == "b");
  CHECK(left["items"][1]["metadata"]["name"] == "c");
}
