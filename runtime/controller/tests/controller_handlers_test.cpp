// The controller's event handlers: which keys an event enqueues.
#include <doctest/doctest.h>

#include "controller_handlers.hpp"
#include "controller_test_support.hpp"

using namespace rr;
using namespace rr::test;
using namespace rr::controller_detail;

namespace {

Json owned(const std::string& ns, Json refs) {
  Json o = make(child_kind(), "c", ns);
  o["metadata"]["ownerReferences"] = std::move(refs);
  return o;
}
Json ref(const std::string& api_version, const std::string& kind, const std::string& name, bool controller) {
  return Json{{"apiVersion", api_version}, {"kind", kind}, {"name", name}, {"uid", "u"}, {"controller", controller}};
}

}  // namespace

TEST_CASE("controller handlers: the controller owner reference of the For kind, in the child's namespace") {
  const KindInfo parent = parent_kind();
  CHECK(controller_owner_key(owned("ns", Json::array({ref("example.dev/v1", "Parent", "p", true)})), parent) ==
        ObjectKey{"ns", "p"});
  CHECK(controller_owner_key(owned("ns", Json::array({ref("example.dev/v1", "Parent", "a", false),
                                                      ref("example.dev/v1", "Parent", "b", true)})),
                             parent) == ObjectKey{"ns", "b"});
  CHECK_FALSE(controller_owner_key(owned("ns", Json::array({ref("example.dev/v1", "Parent", "p", false)})), parent));
  CHECK_FALSE(controller_owner_key(owned("ns", Json::array({ref("v1", "Parent", "p", true)})), parent));
  CHECK_FALSE(controller_owner_key(owned("ns", Json::array({ref("a/b/c", "Parent", "p", true)})), parent));
  CHECK_FALSE(controller_owner_key(make(child_kind(), "c"), parent));

  KindInfo cluster_scoped = parent;
  cluster_scoped.scope = Scope::Cluster;
  CHECK(controller_owner_key(owned("ns", Json::array({ref("example.dev/v1", "Parent", "p", true)})), cluster_scoped) ==
        ObjectKey{"", "p"});
}

TEST_CASE("controller handlers: updates enqueue the owners of the old and the new object") {
  std::vector<ObjectKey> keys;
  auto handlers = enqueue_owner(parent_kind(), [&](const ObjectKey& k, int) { keys.push_back(k); });
  Json before = owned("ns", Json::array({ref("example.dev/v1", "Parent", "old", true)}));
  Json after = owned("ns", Json::array({ref("example.dev/v1", "Parent", "new", true)}));
  handlers.on_update(before, after);
  handlers.on_delete(after);
  handlers.on_add(make(child_kind(), "orphan"));
  handlers.on_update(after, after);  // one owner: enqueued once
  CHECK(keys == std::vector<ObjectKey>{{"ns", "new"}, {"ns", "old"}, {"ns", "new"}, {"ns", "new"}});

  keys.clear();
  auto objects = enqueue_object([&](const ObjectKey& k, int) { keys.push_back(k); });
  objects.on_update(before, make(parent_kind(), "x", "y"));
  CHECK(keys == std::vector<ObjectKey>{{"y", "x"}});
}

TEST_CASE("controller handlers: tracked objects enqueue their observers") {
  auto tracker = make_tracker(std::chrono::hours(1));
  tracker->track_reference({"", "ConfigMap", "ns", "settings", std::nullopt}, {"ns", "observer"});
  std::vector<ObjectKey> keys;
  auto handlers = enqueue_tracked(tracker, [&](const ObjectKey& k, int) { keys.push_back(k); });
  handlers.on_add(make(configmap_kind(), "settings", "ns"));
  handlers.on_add(make(configmap_kind(), "other", "ns"));
  CHECK(keys == std::vector<ObjectKey>{{"ns", "observer"}});
}

TEST_CASE("controller handlers: the initial list and resyncs enqueue at low priority, changes at 0") {
  std::vector<std::pair<ObjectKey, int>> queued;
  auto record = [&](const ObjectKey& k, int priority) { queued.emplace_back(k, priority); };
  auto versioned = [](const KindInfo& kind, const std::string& name, const std::string& version, Json refs = nullptr) {
    Json o = make(kind, name, "ns");
    o["metadata"]["resourceVersion"] = version;
    if (!refs.is_null()) o["metadata"]["ownerReferences"] = std::move(refs);
    return o;
  };
  const Json v1 = versioned(parent_kind(), "p", "1"), v2 = versioned(parent_kind(), "p", "2");
  auto objects = enqueue_object(record);
  objects.on_initial_add(v1);
  objects.on_add(v1);
  objects.on_update(v1, v1);  // a resync: the same resourceVersion
  objects.on_update(v1, v2);
  objects.on_delete(v2);
  const ObjectKey p{"ns", "p"};
  CHECK(queued == std::vector<std::pair<ObjectKey, int>>{{p, kLowPriority}, {p, 0}, {p, kLowPriority}, {p, 0}, {p, 0}});

  queued.clear();
  const Json refs = Json::array({ref("example.dev/v1", "Parent", "p", true)});
  const Json c1 = versioned(child_kind(), "c", "7", refs), c2 = versioned(child_kind(), "c", "8", refs);
  auto owners = enqueue_owner(parent_kind(), record);
  owners.on_initial_add(c1);
  owners.on_update(c1, c1);
  owners.on_update(c1, c2);
  owners.on_add(c2);
  CHECK(queued == std::vector<std::pair<ObjectKey, int>>{{p, kLowPriority}, {p, kLowPriority}, {p, 0}, {p, 0}});
}
