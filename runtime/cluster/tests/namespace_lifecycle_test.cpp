// Namespace lifecycle: the "kubernetes" spec finalizer, phase Active/Terminating, the namespace
// controller emptying a terminating namespace, and 403 on new content in it.
#include "test_support.hpp"

using namespace cluster_test;

namespace {

Json namespace_named(const std::string& name) { return Json{{"metadata", {{"name", name}}}}; }

Json with_finalizer(Json object, const std::string& finalizer) {
  object["metadata"]["finalizers"] = {finalizer};
  return object;
}

bool object_exists(rr::Cluster& cluster, const rr::KindInfo& kind, const rr::ObjectKey& key) {
  try {
    cluster.get(kind, key);
    return true;
  } catch (const rr::ApiError& e) {
    if (e.status().code == 404) return false;
    throw;
  }
}

std::vector<rr::WatchEvent> drain_events(rr::Watch& watch) {
  std::vector<rr::WatchEvent> events;
  while (auto event = watch.next(std::chrono::milliseconds(0))) events.push_back(std::move(*event));
  return events;
}

std::uint64_t rv_number(const Json& object) { return std::stoull(rv_of(object)); }

}  // namespace

TEST_CASE("create: spec.finalizers gains \"kubernetes\" and the phase is Active") {
  auto cluster = make_cluster();
  const Json plain = cluster->create(namespace_kind(), namespace_named("team"));
  CHECK(plain["spec"]["finalizers"] == Json{"kubernetes"});
  CHECK(plain["status"] == Json{{"phase", "Active"}});

  Json asked = namespace_named("other");
  asked["spec"] = {{"finalizers", {"example.test/hold"}}};
  asked["status"] = {{"phase", "Terminating"}};
  const Json created = cluster->create(namespace_kind(), asked);
  CHECK(created["spec"]["finalizers"] == Json{"example.test/hold", "kubernetes"});
  CHECK(created["status"]["phase"] == "Active");

  Json already = namespace_named("third");
  already["spec"] = {{"finalizers", {"kubernetes"}}};
  CHECK(cluster->create(namespace_kind(), already)["spec"]["finalizers"] == Json{"kubernetes"});
}

TEST_CASE("update cannot change spec.finalizers") {
  auto cluster = make_cluster();
  Json ns = cluster->create(namespace_kind(), namespace_named("team"));
  ns["spec"]["finalizers"] = Json::array();
  ns["metadata"]["labels"] = {{"team", "a"}};
  const Json updated = cluster->update(namespace_kind(), ns);
  CHECK(updated["spec"]["finalizers"] == Json{"kubernetes"});
  CHECK(updated["metadata"]["labels"]["team"] == "a");

  cluster->patch(namespace_kind(), {"", "team"}, rr::PatchType::Merge, R"({"spec":{"finalizers":null}})");
  CHECK(cluster->get(namespace_kind(), {"", "team"})["spec"]["finalizers"] == Json{"kubernetes"});
}

TEST_CASE("delete empties the namespace, then removes it; watchers see it in order") {
  auto clock = std::make_shared<PinnedClock>();
  auto cluster = make_cluster({}, clock);
  cluster->create(namespace_kind(), namespace_named("team"));
  cluster->create(namespace_kind(), namespace_named("stay"));
  cluster->create(config_map_kind(), config_map("team", "a"));
  cluster->create(config_map_kind(), config_map("team", "b"));
  cluster->create(thing_kind(), thing("team", "t"));
  cluster->create(config_map_kind(), config_map("stay", "a"));
  cluster->create(config_map_kind(), config_map("teams", "a"));  // a namespace whose name extends "team"
  const Json cluster_scoped = cluster->create(cluster_thing_kind(), {{"metadata", {{"name", "c"}}}});
  const std::string before = cluster->resource_version();
  auto namespaces = cluster->watch(namespace_kind(), since(before));
  auto config_maps = cluster->watch(config_map_kind(), since(before));
  auto things = cluster->watch(thing_kind(), since(before));

  clock->now += std::chrono::seconds(5);
  const Json last = cluster->remove(namespace_kind(), {"", "team"});
  CHECK(last["metadata"]["deletionTimestamp"] == "2024-05-01T12:00:05Z");
  CHECK(last["status"]["phase"] == "Terminating");
  CHECK_FALSE(last["spec"].contains("finalizers"));
  CHECK_FALSE(object_exists(*cluster, namespace_kind(), {"", "team"}));
  CHECK_FALSE(object_exists(*cluster, config_map_kind(), {"team", "a"}));
  CHECK_FALSE(object_exists(*cluster, config_map_kind(), {"team", "b"}));
  CHECK_FALSE(object_exists(*cluster, thing_kind(), {"team", "t"}));
  CHECK(object_exists(*cluster, config_map_kind(), {"stay", "a"}));
  CHECK(object_exists(*cluster, config_map_kind(), {"teams", "a"}));
  CHECK(cluster->get(cluster_thing_kind(), {"", "c"}) == cluster_scoped);

  const auto ns_events = drain_events(*namespaces);
  REQUIRE(ns_events.size() == 2);
  CHECK(ns_events[0].type == rr::WatchEventType::Modified);
  CHECK(ns_events[0].object["status"]["phase"] == "Terminating");
  CHECK(ns_events[0].object["spec"]["finalizers"] == Json{"kubernetes"});
  CHECK(ns_events[1].type == rr::WatchEventType::Deleted);
  CHECK(rv_of(ns_events[1].object) == cluster->resource_version());

  const auto cm_events = drain_events(*config_maps);
  const auto thing_events = drain_events(*things);
  REQUIRE(cm_events.size() == 2);
  REQUIRE(thing_events.size() == 1);
  for (const auto& event : {cm_events[0], cm_events[1], thing_events[0]}) {
    CHECK(event.type == rr::WatchEventType::Deleted);
    // Each content deletion comes after the namespace turned terminating and before it went.
    CHECK(rv_number(event.object) > rv_number(ns_events[0].object));
    CHECK(rv_number(event.object) < rv_number(ns_events[1].object));
  }
  CHECK(rv_number(cm_events[0].object) < rv_number(cm_events[1].object));
}

TEST_CASE("a terminating namespace waits for content with finalizers and refuses new content") {
  auto cluster = make_cluster();
  cluster->create(namespace_kind(), namespace_named("team"));
  cluster->create(config_map_kind(), with_finalizer(config_map("team", "held"), "example.test/cleanup"));
  cluster->create(config_map_kind(), config_map("team", "free"));

  const Json terminating = cluster->remove(namespace_kind(), {"", "team"});
  CHECK(terminating["status"]["phase"] == "Terminating");
  CHECK(terminating["spec"]["finalizers"] == Json{"kubernetes"});
  CHECK(cluster->get(namespace_kind(), {"", "team"}) == terminating);
  CHECK_FALSE(object_exists(*cluster, config_map_kind(), {"team", "free"}));
  Json held = cluster->get(config_map_kind(), {"team", "held"});
  CHECK(held["metadata"].contains("deletionTimestamp"));

  const rr::Status refused = failure_of([&] { cluster->create(config_map_kind(), config_map("team", "new")); });
  CHECK(refused.code == 403);
  CHECK(refused.reason == "Forbidden");
  CHECK(refused.message ==
        "configmaps \"new\" is forbidden: unable to create new content in namespace team because it is being "
        "terminated");
  CHECK(refused.details_name == "new");
  REQUIRE(refused.causes.size() == 1);
  CHECK(refused.causes[0].type == "NamespaceTerminating");
  CHECK(refused.causes[0].message == "namespace team is being terminated");
  CHECK(refused.causes[0].field == "metadata.namespace");

  // Admission runs before names are generated: the message names the generateName.
  Json generated = thing("team", "");
  generated["metadata"].erase("name");
  generated["metadata"]["generateName"] = "gen-";
  CHECK(failure_of([&] { cluster->create(thing_kind(), generated); }).message ==
        "things.things.test \"gen-\" is forbidden: unable to create new content in namespace team because it is "
        "being terminated");

  // Updates of existing content are still allowed; dropping the last finalizer lets the namespace go.
  held["metadata"].erase("finalizers");
  cluster->update(config_map_kind(), held);
  CHECK_FALSE(object_exists(*cluster, config_map_kind(), {"team", "held"}));
  CHECK_FALSE(object_exists(*cluster, namespace_kind(), {"", "team"}));
  CHECK_NOTHROW(cluster->create(config_map_kind(), config_map("team", "after")));  // no require_namespaces
}

TEST_CASE("metadata.finalizers keep the emptied namespace terminating until they go") {
  auto cluster = make_cluster();
  cluster->create(namespace_kind(), with_finalizer(namespace_named("team"), "example.test/hold"));
  cluster->create(config_map_kind(), config_map("team", "a"));
  const Json terminating = cluster->remove(namespace_kind(), {"", "team"});
  CHECK_FALSE(object_exists(*cluster, config_map_kind(), {"team", "a"}));
  CHECK(terminating["status"]["phase"] == "Terminating");
  CHECK_FALSE(terminating["spec"].contains("finalizers"));  // the controller is done
  CHECK(terminating["metadata"]["finalizers"] == Json{"example.test/hold"});

  Json ns = cluster->get(namespace_kind(), {"", "team"});
  ns["metadata"].erase("finalizers");
  cluster->update(namespace_kind(), ns);
  CHECK_FALSE(object_exists(*cluster, namespace_kind(), {"", "team"}));
}

TEST_CASE("content keeps the namespace's other spec finalizers from letting it go") {
  auto cluster = make_cluster();
  Json ns = namespace_named("team");
  ns["spec"] = {{"finalizers", {"example.test/hold"}}};
  cluster->create(namespace_kind(), ns);
  cluster->create(config_map_kind(), config_map("team", "a"));
  const Json terminating = cluster->remove(namespace_kind(), {"", "team"});
  CHECK_FALSE(object_exists(*cluster, config_map_kind(), {"team", "a"}));
  CHECK(terminating["spec"]["finalizers"] == Json{"example.test/hold"});
  CHECK(object_exists(*cluster, namespace_kind(), {"", "team"}));
}

TEST_CASE("a namespace no finalizer holds is removed at once, its content left alone") {
  auto cluster = make_cluster();
  cluster->seed(namespace_kind(), namespace_named("bare"));
  cluster->create(config_map_kind(), config_map("bare", "a"));
  cluster->remove(namespace_kind(), {"", "bare"});
  CHECK_FALSE(object_exists(*cluster, namespace_kind(), {"", "bare"}));
  CHECK(object_exists(*cluster, config_map_kind(), {"bare", "a"}));
}

TEST_CASE("foreground deletion of a namespace: its GC finalizer and its content finalizer both go") {
  auto cluster = make_cluster();
  cluster->create(namespace_kind(), namespace_named("team"));
  cluster->create(config_map_kind(), config_map("team", "a"));
  rr::DeleteOptions foreground;
  foreground.propagation = rr::PropagationPolicy::Foreground;
  cluster->remove(namespace_kind(), {"", "team"}, foreground);
  CHECK_FALSE(object_exists(*cluster, config_map_kind(), {"team", "a"}));
  CHECK_FALSE(object_exists(*cluster, namespace_kind(), {"", "team"}));
}

TEST_CASE("require_namespaces still refuses a missing namespace; without it a missing one is fine") {
  auto strict = make_cluster(with_namespaces());
  CHECK(failure_of([&] { strict->create(config_map_kind(), config_map("nowhere", "a")); }).code == 404);
  auto loose = make_cluster();
  CHECK_NOTHROW(loose->create(config_map_kind(), config_map("nowhere", "a")));
}

TEST_CASE("a cluster without the v1 Namespace kind is unchanged") {
  auto cluster = std::make_shared<rr::Cluster>();
  cluster->register_kind(config_map_kind());
  // A cluster-scoped kind of another group named Namespace gets no lifecycle.
  const rr::KindInfo other{.gvk = {"other.test", "v1", "Namespace"}, .plural = "namespaces",
                           .list_kind = "NamespaceList", .scope = rr::Scope::Cluster};
  cluster->register_kind(other);
  const Json created = cluster->create(other, namespace_named("team"));
  CHECK_FALSE(created.contains("spec"));
  CHECK_FALSE(created.contains("status"));
  cluster->create(config_map_kind(), config_map("team", "a"));
  cluster->remove(other, {"", "team"});
  CHECK_FALSE(object_exists(*cluster, other, {"", "team"}));
  CHECK(object_exists(*cluster, config_map_kind(), {"team", "a"}));
}
