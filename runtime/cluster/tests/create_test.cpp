// POST semantics: server-owned metadata, names, namespaces, dry run, and the resourceVersion counter.
#include "test_support.hpp"

using namespace cluster_test;

TEST_CASE("create sets uid, creationTimestamp, generation 1 and a new resourceVersion") {
  auto cluster = make_cluster();
  Json request = config_map("default", "a");
  request["metadata"]["uid"] = "client-chosen";
  request["metadata"]["creationTimestamp"] = "2000-01-01T00:00:00Z";
  request["metadata"]["generation"] = 7;
  const Json created = cluster->create(config_map_kind(), request);
  CHECK(created["metadata"]["uid"] == "00000000-0000-4000-8000-000000000001");
  CHECK(created["metadata"]["creationTimestamp"] == pinned_time);
  CHECK(generation_of(created) == 1);
  CHECK(rv_of(created) == "1");
  CHECK(cluster->get(config_map_kind(), {"default", "a"}) == created);
  CHECK(cluster->resource_version() == "1");
}

TEST_CASE("the resourceVersion is one counter across kinds; lists carry the current one") {
  auto cluster = make_cluster();
  CHECK(rv_of(cluster->create(config_map_kind(), config_map("default", "a"))) == "1");
  CHECK(rv_of(cluster->create(thing_kind(), thing("default", "t"))) == "2");
  CHECK(rv_of(cluster->create(config_map_kind(), config_map("default", "b"))) == "3");
  CHECK(cluster->list(thing_kind(), {})["metadata"]["resourceVersion"] == "3");
}

TEST_CASE("seed keeps the given resourceVersion (default 999) and the counter moves past it") {
  auto cluster = make_cluster();
  cluster->seed(config_map_kind(), config_map("default", "given"));
  Json given = cluster->get(config_map_kind(), {"default", "given"});
  CHECK(rv_of(given) == "999");
  CHECK(given["metadata"]["creationTimestamp"] == "1970-01-01T00:00:01Z");
  CHECK_FALSE(given["metadata"]["uid"].get<std::string>().empty());
  CHECK(cluster->resource_version() == "999");
  CHECK(rv_of(cluster->create(config_map_kind(), config_map("default", "new"))) == "1000");

  Json custom = config_map("default", "custom");
  custom["metadata"]["resourceVersion"] = "5000";
  cluster->seed(config_map_kind(), custom);
  CHECK(rv_of(cluster->create(config_map_kind(), config_map("default", "newer"))) == "5001");
}

TEST_CASE("seed refuses a terminating object without finalizers") {
  auto cluster = make_cluster();
  Json gone = config_map("default", "gone");
  gone["metadata"]["deletionTimestamp"] = pinned_time;
  CHECK_THROWS_AS(cluster->seed(config_map_kind(), gone), std::invalid_argument);
  gone["metadata"]["finalizers"] = {"keep"};
  CHECK_NOTHROW(cluster->seed(config_map_kind(), gone));
}

TEST_CASE("create with a resourceVersion is a BadRequest") {
  auto cluster = make_cluster();
  Json request = config_map("default", "a");
  request["metadata"]["resourceVersion"] = "3";
  const rr::Status s = failure_of([&] { cluster->create(config_map_kind(), request); });
  CHECK(s.code == 400);
  CHECK(s.reason == "BadRequest");
  CHECK(s.message == "resourceVersion can not be set for Create requests");
}

TEST_CASE("create of an existing name is AlreadyExists") {
  auto cluster = make_cluster();
  cluster->create(thing_kind(), thing("default", "a"));
  const rr::Status s = failure_of([&] { cluster->create(thing_kind(), thing("default", "a")); });
  CHECK(s.code == 409);
  CHECK(s.reason == "AlreadyExists");
  CHECK(s.message == "things.things.test \"a\" already exists");
  // The same name in another namespace is another object.
  CHECK_NOTHROW(cluster->create(thing_kind(), thing("other", "a")));
}

TEST_CASE("create needs a name or generateName, and a namespace for namespaced kinds") {
  auto cluster = make_cluster();
  Json nameless = config_map("default", "");
  const rr::Status no_name = failure_of([&] { cluster->create(config_map_kind(), nameless); });
  CHECK(no_name.code == 422);
  REQUIRE(no_name.causes.size() == 1);
  CHECK(no_name.causes[0].field == "metadata.name");
  CHECK(no_name.causes[0].message == "Required value: name or generateName is required");

  const rr::Status no_namespace = failure_of([&] { cluster->create(config_map_kind(), config_map("", "a")); });
  CHECK(no_namespace.code == 422);
  REQUIRE(no_namespace.causes.size() == 1);
  CHECK(no_namespace.causes[0].field == "metadata.namespace");
}

TEST_CASE("cluster-scoped objects carry no namespace") {
  auto cluster = make_cluster();
  Json ns = {{"metadata", {{"name", "team"}, {"namespace", "ignored"}}}};
  const Json created = cluster->create(namespace_kind(), ns);
  CHECK_FALSE(created["metadata"].contains("namespace"));
  CHECK(created["apiVersion"] == "v1");
  CHECK(created["kind"] == "Namespace");
  CHECK(cluster->get(namespace_kind(), {"anything", "team"}) == created);
}

TEST_CASE("create fills in apiVersion and kind, and refuses another kind's") {
  auto cluster = make_cluster();
  Json bare = {{"metadata", {{"namespace", "default"}, {"name", "a"}}}};
  const Json created = cluster->create(thing_kind(), bare);
  CHECK(created["apiVersion"] == "things.test/v1");
  CHECK(created["kind"] == "Thing");
  const rr::Status s = failure_of([&] { cluster->create(thing_kind(), config_map("default", "b")); });
  CHECK(s.code == 400);
}

TEST_CASE("generateName: random suffix from the Kubernetes alphabet, seeded") {
  auto make_name = [](std::uint64_t seed) {
    auto cluster = make_cluster(seeded(seed));
    Json request = config_map("default", "");
    request["metadata"]["generateName"] = std::string(70, 'x');
    return cluster->create(config_map_kind(), request)["metadata"]["name"].get<std::string>();
  };
  const std::string name = make_name(1);
  REQUIRE(name.size() == 63);
  CHECK(name.substr(0, 58) == std::string(58, 'x'));
  for (char c : name.substr(58)) CHECK(std::string("bcdfghjklmnpqrstvwxz2456789").find(c) != std::string::npos);
  CHECK(make_name(1) == name);  // deterministic for a seed
  CHECK(make_name(2) != name);
}

TEST_CASE("generateName: counter suffixes as reconciler.io's test client") {
  auto cluster = make_cluster(counter_names());
  Json request = config_map("default", "");
  request["metadata"]["generateName"] = "foo-";
  CHECK(cluster->create(config_map_kind(), request)["metadata"]["name"] == "foo-001");
  CHECK(cluster->create(config_map_kind(), request)["metadata"]["name"] == "foo-002");
  request["metadata"]["generateName"] = "bar-";
  CHECK(cluster->create(config_map_kind(), request)["metadata"]["name"] == "bar-003");
}

TEST_CASE("create strips status when the kind has the status subresource, keeps it otherwise") {
  auto cluster = make_cluster();
  Json with_status = thing("default", "a");
  with_status["status"] = {{"phase", "Ready"}};
  CHECK_FALSE(cluster->create(thing_kind(), with_status).contains("status"));
  Json plain = plain_thing("default", "a");
  plain["status"] = {{"phase", "Ready"}};
  CHECK(cluster->create(plain_thing_kind(), plain)["status"]["phase"] == "Ready");
}

TEST_CASE("create ignores a deletionTimestamp in the request") {
  auto cluster = make_cluster();
  Json request = config_map("default", "a");
  request["metadata"]["deletionTimestamp"] = pinned_time;
  CHECK_FALSE(cluster->create(config_map_kind(), request)["metadata"].contains("deletionTimestamp"));
}

TEST_CASE("dry-run create returns the would-be object and stores nothing") {
  auto cluster = make_cluster();
  Json request = config_map("default", "");
  request["metadata"]["generateName"] = "dry-";
  const Json result = cluster->create(config_map_kind(), request, dry_run());
  CHECK(result["metadata"]["name"].get<std::string>().starts_with("dry-"));
  CHECK(result["metadata"]["creationTimestamp"] == pinned_time);
  CHECK(cluster->list(config_map_kind(), {})["items"].empty());
  CHECK(cluster->resource_version() == "0");
  // The uid and name it drew are given back: the real create gets the same ones.
  const Json real = cluster->create(config_map_kind(), request);
  CHECK(real["metadata"]["name"] == result["metadata"]["name"]);
  CHECK(real["metadata"]["uid"] == result["metadata"]["uid"]);
}

TEST_CASE("a refused create draws no uid") {
  auto cluster = make_cluster();
  cluster->create(config_map_kind(), config_map("default", "a"));
  failure_of([&] { cluster->create(config_map_kind(), config_map("default", "a")); });
  CHECK(cluster->create(config_map_kind(), config_map("default", "b"))["metadata"]["uid"] ==
        "00000000-0000-4000-8000-000000000002");
}

TEST_CASE("require_namespaces: a namespaced create needs its Namespace, not terminating") {
  auto cluster = make_cluster(with_namespaces());
  const rr::Status missing = failure_of([&] { cluster->create(config_map_kind(), config_map("team", "a")); });
  CHECK(missing.code == 404);
  CHECK(missing.message == "namespaces \"team\" not found");

  cluster->create(namespace_kind(), {{"metadata", {{"name", "team"}, {"finalizers", {"kubernetes"}}}}});
  CHECK_NOTHROW(cluster->create(config_map_kind(), config_map("team", "a")));
  cluster->remove(namespace_kind(), {"", "team"});
  const rr::Status terminating = failure_of([&] { cluster->create(config_map_kind(), config_map("team", "b")); });
  CHECK(terminating.code == 403);
  CHECK(terminating.message ==
        "configmaps \"b\" is forbidden: unable to create new content in namespace team because it is being terminated");
}

TEST_CASE("ownerReferences: at most one controller, required members") {
  auto cluster = make_cluster();
  const Json a = cluster->create(config_map_kind(), config_map("default", "a"));
  const Json b = cluster->create(config_map_kind(), config_map("default", "b"));
  Json child = config_map("default", "child");
  child["metadata"]["ownerReferences"] = {owner_ref(a, true), owner_ref(b, true)};
  const rr::Status two = failure_of([&] { cluster->create(config_map_kind(), child); });
  CHECK(two.code == 422);
  REQUIRE(two.causes.size() == 1);
  CHECK(two.causes[0].field == "metadata.ownerReferences");
  CHECK(two.causes[0].message.find("Only one reference can have Controller set to true") != std::string::npos);

  child["metadata"]["ownerReferences"] = {{{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"name", "a"}}};
  const rr::Status no_uid = failure_of([&] { cluster->create(config_map_kind(), child); });
  REQUIRE(no_uid.causes.size() == 1);
  CHECK(no_uid.causes[0].field == "metadata.ownerReferences.uid");

  child["metadata"]["ownerReferences"] = {owner_ref(a, true), owner_ref(b, false)};
  CHECK_NOTHROW(cluster->create(config_map_kind(), child));
}

TEST_CASE("an unregistered kind is NotFound") {
  auto cluster = make_cluster();
  const rr::KindInfo unknown{.gvk = {"nowhere.test", "v1", "Ghost"}, .plural = "ghosts", .list_kind = "GhostList"};
  const rr::Status s = failure_of([&] { cluster->get(unknown, {"default", "x"}); });
  CHECK(s.code == 404);
  CHECK(s.reason == "NotFound");
  CHECK(failure_of([&] { cluster->create(unknown, config_map("default", "x")); }).code == 404);
  CHECK_FALSE(cluster->find_kind(unknown.gvk));
  CHECK(cluster->find_kind(thing_kind().gvk) == thing_kind());
  CHECK(cluster->find_kind_by_plural("things.test", "things") == thing_kind());
}
