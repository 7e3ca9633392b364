// Garbage collection through ownerReferences: background, foreground and orphan propagation.
#include "test_support.hpp"

using namespace cluster_test;

namespace {

rr::DeleteOptions propagation(rr::PropagationPolicy policy) {
  rr::DeleteOptions o;
  o.propagation = policy;
  return o;
}

Json child_of(const std::string& name, const std::vector<Json>& refs) {
  Json child = config_map("default", name);
  child["metadata"]["ownerReferences"] = refs;
  return child;
}

bool exists(rr::Cluster& cluster, const rr::KindInfo& kind, const std::string& name) {
  try {
    cluster.get(kind, {"default", name});
    return true;
  } catch (const rr::ApiError& e) {
    if (!rr::is_not_found(e.status())) throw;
    return false;
  }
}

}  // namespace

TEST_CASE("background: dependents go with their owner, recursively") {
  auto cluster = make_cluster();
  const Json owner = cluster->create(thing_kind(), thing("default", "owner"));
  const Json child = cluster->create(config_map_kind(), child_of("child", {owner_ref(owner, true)}));
  cluster->create(config_map_kind(), child_of("grandchild", {owner_ref(child)}));
  cluster->create(config_map_kind(), config_map("default", "unrelated"));

  cluster->remove(thing_kind(), {"default", "owner"});
  CHECK_FALSE(exists(*cluster, thing_kind(), "owner"));
  CHECK_FALSE(exists(*cluster, config_map_kind(), "child"));
  CHECK_FALSE(exists(*cluster, config_map_kind(), "grandchild"));
  CHECK(exists(*cluster, config_map_kind(), "unrelated"));
}

TEST_CASE("background: a dependent with another live owner stays; with finalizers it becomes terminating") {
  auto cluster = make_cluster();
  const Json owner = cluster->create(thing_kind(), thing("default", "owner"));
  const Json other = cluster->create(thing_kind(), thing("default", "other"));
  cluster->create(config_map_kind(), child_of("shared", {owner_ref(owner), owner_ref(other)}));
  Json guarded = child_of("guarded", {owner_ref(owner)});
  guarded["metadata"]["finalizers"] = {"example.test/keep"};
  cluster->create(config_map_kind(), guarded);

  cluster->remove(thing_kind(), {"default", "owner"});
  CHECK(exists(*cluster, config_map_kind(), "shared"));
  const Json terminating = cluster->get(config_map_kind(), {"default", "guarded"});
  CHECK(terminating["metadata"].contains("deletionTimestamp"));
}

TEST_CASE("an ownerReference whose uid does not match counts as a missing owner") {
  auto cluster = make_cluster();
  const Json owner = cluster->create(thing_kind(), thing("default", "owner"));
  const Json other = cluster->create(thing_kind(), thing("default", "other"));
  Json stale = owner_ref(other);
  stale["uid"] = "not-the-uid-of-other";
  cluster->create(config_map_kind(), child_of("child", {owner_ref(owner), stale}));

  cluster->remove(thing_kind(), {"default", "owner"});
  CHECK_FALSE(exists(*cluster, config_map_kind(), "child"));
  CHECK(exists(*cluster, thing_kind(), "other"));
}

TEST_CASE("foreground: the owner waits for dependents that block its deletion") {
  auto cluster = make_cluster();
  const Json owner = cluster->create(thing_kind(), thing("default", "owner"));
  Json blocking = child_of("blocking", {owner_ref(owner, true, true)});
  blocking["metadata"]["finalizers"] = {"example.test/slow"};
  cluster->create(config_map_kind(), blocking);
  cluster->create(config_map_kind(), child_of("free", {owner_ref(owner)}));

  const Json terminating = cluster->remove(thing_kind(), {"default", "owner"},
                                           propagation(rr::PropagationPolicy::Foreground));
  CHECK(terminating["metadata"]["finalizers"] == Json::array({"foregroundDeletion"}));
  CHECK(terminating["metadata"].contains("deletionTimestamp"));
  CHECK_FALSE(exists(*cluster, config_map_kind(), "free"));
  Json blocked = cluster->get(config_map_kind(), {"default", "blocking"});
  CHECK(blocked["metadata"].contains("deletionTimestamp"));
  CHECK(exists(*cluster, thing_kind(), "owner"));

  // The GC's own finalizer on the dependent is gone; once its other finalizer goes, it is removed,
  // then the owner.
  CHECK(blocked["metadata"]["finalizers"] == Json::array({"example.test/slow"}));
  blocked["metadata"].erase("finalizers");
  cluster->update(config_map_kind(), blocked);
  CHECK_FALSE(exists(*cluster, config_map_kind(), "blocking"));
  CHECK_FALSE(exists(*cluster, thing_kind(), "owner"));
}

TEST_CASE("foreground: a dependent that stops blocking releases the owner") {
  auto cluster = make_cluster();
  const Json owner = cluster->create(thing_kind(), thing("default", "owner"));
  Json blocking = child_of("blocking", {owner_ref(owner, true, true)});
  blocking["metadata"]["finalizers"] = {"example.test/slow"};
  cluster->create(config_map_kind(), blocking);
  cluster->remove(thing_kind(), {"default", "owner"}, propagation(rr::PropagationPolicy::Foreground));
  REQUIRE(exists(*cluster, thing_kind(), "owner"));

  Json dependent = cluster->get(config_map_kind(), {"default", "blocking"});
  dependent["metadata"]["ownerReferences"][0]["blockOwnerDeletion"] = false;
  cluster->update(config_map_kind(), dependent);
  CHECK_FALSE(exists(*cluster, thing_kind(), "owner"));
  CHECK(exists(*cluster, config_map_kind(), "blocking"));  // still held by its own finalizer
}

TEST_CASE("foreground without dependents: the owner goes at once") {
  auto cluster = make_cluster();
  cluster->create(thing_kind(), thing("default", "owner"));
  const Json last = cluster->remove(thing_kind(), {"default", "owner"}, propagation(rr::PropagationPolicy::Foreground));
  CHECK(last["metadata"].contains("deletionTimestamp"));
  CHECK_FALSE(exists(*cluster, thing_kind(), "owner"));
}

TEST_CASE("orphan: dependents lose the ownerReference and stay") {
  auto cluster = make_cluster();
  const Json owner = cluster->create(thing_kind(), thing("default", "owner"));
  const Json other = cluster->create(thing_kind(), thing("default", "other"));
  cluster->create(config_map_kind(), child_of("only", {owner_ref(owner, true)}));
  cluster->create(config_map_kind(), child_of("two", {owner_ref(owner), owner_ref(other)}));

  auto watch = cluster->watch(thing_kind(), since(cluster->resource_version()));
  cluster->remove(thing_kind(), {"default", "owner"}, propagation(rr::PropagationPolicy::Orphan));
  CHECK_FALSE(exists(*cluster, thing_kind(), "owner"));
  CHECK_FALSE(cluster->get(config_map_kind(), {"default", "only"})["metadata"].contains("ownerReferences"));
  CHECK(cluster->get(config_map_kind(), {"default", "two"})["metadata"]["ownerReferences"] ==
        Json::array({owner_ref(other)}));

  // The owner went through the orphan finalizer first.
  auto marked = watch->next(std::chrono::milliseconds(0));
  REQUIRE(marked);
  CHECK(marked->type == rr::WatchEventType::Modified);
  CHECK(marked->object["metadata"]["finalizers"] == Json::array({"orphan"}));
  auto removed = watch->next(std::chrono::milliseconds(0));
  REQUIRE(removed);
  CHECK(removed->type == rr::WatchEventType::Deleted);
}

TEST_CASE("a cluster-scoped owner collects namespaced dependents") {
  auto cluster = make_cluster();
  const Json cluster_owner = cluster->create(cluster_thing_kind(), {{"metadata", {{"name", "global"}}}});
  cluster->create(config_map_kind(), child_of("child", {owner_ref(cluster_owner)}));
  cluster->remove(cluster_thing_kind(), {"", "global"});
  CHECK_FALSE(exists(*cluster, config_map_kind(), "child"));
}

TEST_CASE("a namespaced owner in another namespace than the dependent counts as missing") {
  auto cluster = make_cluster();
  const Json first = cluster->create(thing_kind(), thing("default", "first"));
  const Json second = cluster->create(thing_kind(), thing("default", "second"));
  Json elsewhere = child_of("elsewhere", {owner_ref(first), owner_ref(second)});
  elsewhere["metadata"]["namespace"] = "other";
  cluster->create(config_map_kind(), elsewhere);
  // "second" still exists, but not in the dependent's namespace, so nothing keeps it.
  cluster->remove(thing_kind(), {"default", "first"});
  CHECK(exists(*cluster, thing_kind(), "second"));
  CHECK(failure_of([&] { cluster->get(config_map_kind(), {"other", "elsewhere"}); }).code == 404);
}

TEST_CASE("owners of kinds the server does not serve keep their dependents") {
  auto cluster = make_cluster();
  const Json owner = cluster->create(thing_kind(), thing("default", "owner"));
  const Json unknown = {{"apiVersion", "elsewhere.test/v1"}, {"kind", "Unknown"}, {"name", "x"}, {"uid", "u-1"}};
  cluster->create(config_map_kind(), child_of("child", {owner_ref(owner), unknown}));
  cluster->remove(thing_kind(), {"default", "owner"});
  CHECK(exists(*cluster, config_map_kind(), "child"));
}
