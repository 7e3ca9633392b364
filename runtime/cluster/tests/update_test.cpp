// PUT semantics: optimistic concurrency, immutable metadata, generation, the status subresource
// and finalizers.
#include "test_support.hpp"

using namespace cluster_test;

TEST_CASE("update with a stale resourceVersion is a Conflict with the API server's wording") {
  auto cluster = make_cluster();
  const Json created = cluster->create(thing_kind(), thing("default", "a"));
  Json first = created;
  first["spec"]["size"] = 2;
  cluster->update(thing_kind(), first);
  Json second = created;  // still at the old resourceVersion
  second["spec"]["size"] = 3;
  const rr::Status s = failure_of([&] { cluster->update(thing_kind(), second); });
  CHECK(s.code == 409);
  CHECK(s.reason == "Conflict");
  CHECK(s.message ==
        "Operation cannot be fulfilled on things.things.test \"a\": the object has been modified; please apply your "
        "changes to the latest version and try again");
  CHECK(cluster->get(thing_kind(), {"default", "a"})["spec"]["size"] == 2);
}

TEST_CASE("update without a resourceVersion is Invalid (no unconditional updates)") {
  auto cluster = make_cluster();
  cluster->create(thing_kind(), thing("default", "a"));
  const rr::Status s = failure_of([&] { cluster->update(thing_kind(), thing("default", "a")); });
  CHECK(s.code == 422);
  REQUIRE(s.causes.size() == 1);
  CHECK(s.causes[0].field == "metadata.resourceVersion");
  CHECK(s.message == "things.things.test \"a\" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be "
                     "specified for an update");
}

TEST_CASE("update of a missing object is NotFound") {
  auto cluster = make_cluster();
  Json request = thing("default", "missing");
  request["metadata"]["resourceVersion"] = "1";
  const rr::Status s = failure_of([&] { cluster->update(thing_kind(), request); });
  CHECK(s.code == 404);
  CHECK(s.message == "things.things.test \"missing\" not found");
}

TEST_CASE("update cannot change uid, creationTimestamp, generation or deletionTimestamp") {
  auto cluster = make_cluster();
  const Json created = cluster->create(config_map_kind(), config_map("default", "a"));
  Json request = created;
  request["metadata"]["uid"] = "other";
  request["metadata"]["creationTimestamp"] = "2000-01-01T00:00:00Z";
  request["metadata"]["generation"] = 40;
  request["metadata"]["deletionTimestamp"] = pinned_time;
  request["data"] = {{"k", "v"}};
  const Json updated = cluster->update(config_map_kind(), request);
  CHECK(updated["metadata"]["uid"] == created["metadata"]["uid"]);
  CHECK(updated["metadata"]["creationTimestamp"] == created["metadata"]["creationTimestamp"]);
  CHECK(generation_of(updated) == 2);
  CHECK_FALSE(updated["metadata"].contains("deletionTimestamp"));
}

TEST_CASE("generation: spec changes bump it, metadata changes do not") {
  auto cluster = make_cluster();
  Json object = cluster->create(thing_kind(), thing("default", "a"));
  object["metadata"]["labels"] = {{"app", "web"}};
  object = cluster->update(thing_kind(), object);
  CHECK(generation_of(object) == 1);
  CHECK(rv_of(object) == "2");
  object["spec"]["size"] = 5;
  object = cluster->update(thing_kind(), object);
  CHECK(generation_of(object) == 2);
  CHECK(rv_of(object) == "3");
}

TEST_CASE("status subresource: the main resource ignores status, status writes keep the generation") {
  auto cluster = make_cluster();
  Json object = cluster->create(thing_kind(), thing("default", "a"));
  object["status"] = {{"phase", "Ready"}};
  const Json after_main = cluster->update(thing_kind(), object);
  CHECK_FALSE(after_main.contains("status"));
  CHECK(rv_of(after_main) == rv_of(object));  // nothing changed: no new resourceVersion
  CHECK(generation_of(after_main) == 1);

  object = after_main;
  object["status"] = {{"phase", "Ready"}};
  const Json after_status = cluster->update_status(thing_kind(), object);
  CHECK(after_status["status"]["phase"] == "Ready");
  CHECK(generation_of(after_status) == 1);
  CHECK(rv_of(after_status) == "2");

  // A main-resource update keeps the stored status whatever the request says.
  Json main = after_status;
  main.erase("status");
  main["spec"]["size"] = 9;
  const Json after_spec = cluster->update(thing_kind(), main);
  CHECK(after_spec["status"]["phase"] == "Ready");
  CHECK(generation_of(after_spec) == 2);
}

TEST_CASE("status subresource: a status write ignores metadata and spec") {
  auto cluster = make_cluster();
  Json object = cluster->create(thing_kind(), thing("default", "a"));
  object["metadata"]["labels"] = {{"sneaky", "true"}};
  object["metadata"]["finalizers"] = {"sneaky"};
  object["spec"]["size"] = 100;
  object["status"] = {{"phase", "Ready"}};
  const Json after = cluster->update_status(thing_kind(), object);
  CHECK(after["status"]["phase"] == "Ready");
  CHECK(after["spec"]["size"] == 1);
  CHECK_FALSE(after["metadata"].contains("labels"));
  CHECK_FALSE(after["metadata"].contains("finalizers"));
}

TEST_CASE("status writes enforce the resourceVersion too") {
  auto cluster = make_cluster();
  const Json created = cluster->create(thing_kind(), thing("default", "a"));
  Json object = created;
  object["status"] = {{"phase", "One"}};
  cluster->update_status(thing_kind(), object);
  object["status"] = {{"phase", "Two"}};
  CHECK(failure_of([&] { cluster->update_status(thing_kind(), object); }).code == 409);
}

TEST_CASE("without the status subresource: status writes bump the generation, /status is NotFound") {
  auto cluster = make_cluster();
  Json object = cluster->create(plain_thing_kind(), plain_thing("default", "a"));
  object["status"] = {{"observedGeneration", 1}};
  const Json updated = cluster->update(plain_thing_kind(), object);
  CHECK(updated["status"]["observedGeneration"] == 1);
  CHECK(generation_of(updated) == 2);
  const rr::Status s = failure_of([&] { cluster->update_status(plain_thing_kind(), updated); });
  CHECK(s.code == 404);
  CHECK(s.reason == "NotFound");
}

TEST_CASE("a no-op update keeps the resourceVersion and records no event") {
  auto cluster = make_cluster();
  const Json created = cluster->create(config_map_kind(), config_map("default", "a", {{"k", "v"}}));
  const Json same = cluster->update(config_map_kind(), created);
  CHECK(same == created);
  CHECK(cluster->resource_version() == "1");
  auto watch = cluster->watch(config_map_kind(), since("1"));
  CHECK_FALSE(watch->next(std::chrono::milliseconds(0)));
}

TEST_CASE("a terminating object accepts no new finalizers") {
  auto cluster = make_cluster();
  Json object = config_map("default", "a");
  object["metadata"]["finalizers"] = {"example.test/first"};
  cluster->create(config_map_kind(), object);
  object = cluster->remove(config_map_kind(), {"default", "a"});
  REQUIRE(object["metadata"].contains("deletionTimestamp"));
  object["metadata"]["finalizers"] = {"example.test/first", "example.test/second"};
  const rr::Status s = failure_of([&] { cluster->update(config_map_kind(), object); });
  CHECK(s.code == 422);
  REQUIRE(s.causes.size() == 1);
  CHECK(s.causes[0].field == "metadata.finalizers");
  CHECK(s.causes[0].message ==
        "Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers "
        "[]string{\"example.test/second\"}");
}

TEST_CASE("the update removing the last finalizer of a terminating object deletes it") {
  auto cluster = make_cluster();
  Json object = config_map("default", "a");
  object["metadata"]["finalizers"] = {"example.test/one", "example.test/two"};
  cluster->create(config_map_kind(), object);
  object = cluster->remove(config_map_kind(), {"default", "a"});
  auto watch = cluster->watch(config_map_kind(), since(rv_of(object)));

  object["metadata"]["finalizers"] = {"example.test/two"};
  object = cluster->update(config_map_kind(), object);
  CHECK(cluster->get(config_map_kind(), {"default", "a"})["metadata"]["finalizers"] ==
        Json::array({"example.test/two"}));
  object["metadata"].erase("finalizers");
  const Json last = cluster->update(config_map_kind(), object);
  CHECK(failure_of([&] { cluster->get(config_map_kind(), {"default", "a"}); }).code == 404);

  auto modified = watch->next(std::chrono::milliseconds(0));
  REQUIRE(modified);
  CHECK(modified->type == rr::WatchEventType::Modified);
  auto deleted = watch->next(std::chrono::milliseconds(0));
  REQUIRE(deleted);
  CHECK(deleted->type == rr::WatchEventType::Deleted);
  CHECK(deleted->object == last);
  CHECK(rv_of(deleted->object) == cluster->resource_version());
}

TEST_CASE("dry-run update returns the would-be object and changes nothing") {
  auto cluster = make_cluster();
  Json object = cluster->create(thing_kind(), thing("default", "a"));
  object["spec"]["size"] = 4;
  const Json result = cluster->update(thing_kind(), object, dry_run());
  CHECK(result["spec"]["size"] == 4);
  CHECK(generation_of(result) == 2);
  CHECK(cluster->get(thing_kind(), {"default", "a"})["spec"]["size"] == 1);
  CHECK(cluster->resource_version() == "1");
}
