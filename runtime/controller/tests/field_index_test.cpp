// Field indexes of the informer cache (controller-runtime's IndexField) and the built-in
// controller-owner index: lookups by one namespace and all, add/update/delete, owner change,
// other terms filtering the indexed objects, and which clients report an index.
#include <doctest/doctest.h>

#include <algorithm>

#include "informer_test_support.hpp"
#include "rr/controller/cached_client.hpp"
#include "rr/controller/field_indexer.hpp"

using namespace rr;
using namespace rr::test;

namespace {

struct FieldIndexFixture {
  std::shared_ptr<Cluster> cluster = make_cluster();
  std::shared_ptr<CountingClient> api = std::make_shared<CountingClient>(std::make_shared<ClusterClient>(cluster));
  std::shared_ptr<InformerCache> cache;
  std::jthread running;

  FieldIndexFixture() {
    InformerCacheOptions options;
    options.informer = fast_options();
    cache = std::make_shared<InformerCache>(api, options);
    running = std::jthread([c = cache](std::stop_token stop) { c->start(stop); });
    REQUIRE(eventually([&] { return cache->started(); }));
  }

  // The names a cached list answers, in order, comma-separated.
  std::string names(const KindInfo& kind, const std::string& ns, const std::string& fields) {
    ListOptions opts;
    opts.namespace_ = ns;
    opts.field_selector = fields;
    std::string out;
    const Json list = cache->list(kind, opts);
    for (const Json& item : list["items"]) {
      out += (out.empty() ? "" : ",") + item["metadata"]["name"].get<std::string>();
    }
    return out;
  }
  // Waits until the cache holds the kind's objects as the cluster has them.
  void sync(const KindInfo& kind) {
    const Json want = cluster->list(kind, ListOptions{})["items"];
    REQUIRE(eventually([&] { return cache->list(kind, ListOptions{})["items"] == want; }));
  }
  // A Widget to own gadgets; its uid.
  std::string owner(const std::string& ns, const std::string& name) {
    return cluster->create(widget_kind(), object(widget_kind(), ns, name))["metadata"]["uid"];
  }
};

Json owned(const KindInfo& kind, const std::string& ns, const std::string& name, const std::string& owner_uid,
           bool controller = true, const std::string& color = "red") {
  Json o = object(kind, ns, name, {}, color);
  o["metadata"]["ownerReferences"] = Json::array({Json{{"apiVersion", "example.dev/v1"},
                                                       {"kind", "Widget"},
                                                       {"name", "owner-" + owner_uid},
                                                       {"uid", owner_uid},
                                                       {"controller", controller}}});
  return o;
}

std::vector<std::string> colors(const Json& object) {
  if (!object.contains("spec") || !object["spec"].contains("color")) return {};
  return {object["spec"]["color"].get<std::string>()};
}

}  // namespace

TEST_CASE("field index: controller_owner_uid reads the controller reference only") {
  Json o = owned(gadget_kind(), "a", "g", "uid-1");
  CHECK(controller_owner_uid(o) == std::vector<std::string>{"uid-1"});
  CHECK(controller_owner_uid(owned(gadget_kind(), "a", "g", "uid-1", false)).empty());
  CHECK(controller_owner_uid(object(gadget_kind(), "a", "g")).empty());
  CHECK(field_equals(".metadata.controller", "a,b=c\\") == ".metadata.controller=a\\,b\\=c\\\\");
}

TEST_CASE("field index: the controller-owner index answers per namespace and across namespaces") {
  FieldIndexFixture f;
  f.cluster->create(gadget_kind(), owned(gadget_kind(), "a", "g1", "uid-1"));
  f.cluster->create(gadget_kind(), owned(gadget_kind(), "a", "g2", "uid-2"));
  f.cluster->create(gadget_kind(), owned(gadget_kind(), "a", "g3", "uid-1"));
  f.cluster->create(gadget_kind(), owned(gadget_kind(), "b", "g4", "uid-1"));
  f.cluster->create(gadget_kind(), owned(gadget_kind(), "a", "g5", "uid-1", false));  // not its controller
  f.cluster->create(gadget_kind(), object(gadget_kind(), "a", "g6"));
  f.sync(gadget_kind());
  const std::string by_uid1 = field_equals(controller_owner_field, "uid-1");
  CHECK(f.names(gadget_kind(), "a", by_uid1) == "g1,g3");
  CHECK(f.names(gadget_kind(), "b", by_uid1) == "g4");
  CHECK(f.names(gadget_kind(), "", by_uid1) == "g1,g3,g4");
  CHECK(f.names(gadget_kind(), "a", ".metadata.controller=uid-2") == "g2");
  CHECK(f.names(gadget_kind(), "a", ".metadata.controller=nobody").empty());
  // Other terms filter what the index gave: a path, and a negated term on the indexed field.
  CHECK(f.names(gadget_kind(), "a", by_uid1 + ",metadata.name!=g1") == "g3");
  CHECK(f.names(gadget_kind(), "", by_uid1 + ",metadata.namespace=b") == "g4");
  CHECK(f.names(gadget_kind(), "a", ".metadata.controller!=uid-1") == "g2,g5,g6");
  CHECK(f.cache->find(gadget_kind().gvk)->store().has_index("field:.metadata.controller"));
}

TEST_CASE("field index: adds, owner changes and deletes move objects in and out of the index") {
  FieldIndexFixture f;
  const std::string uid1 = f.owner("a", "w1");
  const std::string uid2 = f.owner("a", "w2");
  const std::string by_uid1 = field_equals(controller_owner_field, uid1);
  const std::string by_uid2 = field_equals(controller_owner_field, uid2);
  CHECK(f.names(gadget_kind(), "a", by_uid1).empty());  // built before any object exists
  Json g1 = f.cluster->create(gadget_kind(), owned(gadget_kind(), "a", "g1", uid1));
  f.cluster->create(gadget_kind(), owned(gadget_kind(), "a", "g2", uid1));
  f.sync(gadget_kind());
  CHECK(f.names(gadget_kind(), "a", by_uid1) == "g1,g2");

  // The controller changes from w1 to w2.
  g1["metadata"]["ownerReferences"][0]["uid"] = uid2;
  g1 = f.cluster->update(gadget_kind(), g1);
  f.sync(gadget_kind());
  CHECK(f.names(gadget_kind(), "a", by_uid1) == "g2");
  CHECK(f.names(gadget_kind(), "a", by_uid2) == "g1");

  // The reference is no longer a controller: out of every value.
  g1["metadata"]["ownerReferences"][0]["controller"] = false;
  f.cluster->update(gadget_kind(), g1);
  f.sync(gadget_kind());
  CHECK(f.names(gadget_kind(), "a", by_uid2).empty());

  f.cluster->remove(gadget_kind(), {"a", "g2"});
  f.sync(gadget_kind());
  CHECK(f.names(gadget_kind(), "a", by_uid1).empty());
  CHECK(f.names(gadget_kind(), "", by_uid1).empty());
  CHECK(f.names(gadget_kind(), "a", "") == "g1");
}

TEST_CASE("field index: IndexField indexes a user field, refuses a second indexer for it") {
  FieldIndexFixture f;
  f.cluster->create(widget_kind(), object(widget_kind(), "a", "w1", {}, "red"));
  f.cluster->create(widget_kind(), object(widget_kind(), "a", "w2", {}, "blue"));
  f.cluster->create(widget_kind(), object(widget_kind(), "b", "w3", {}, "red"));
  CHECK_FALSE(f.cache->has_field_index(widget_kind().gvk, "color"));
  f.cache->index_field(widget_kind(), "color", colors);  // before the informer syncs
  CHECK(f.cache->has_field_index(widget_kind().gvk, "color"));
  CHECK_FALSE(f.cache->has_field_index(gadget_kind().gvk, "color"));
  CHECK(f.cache->has_field_index(gadget_kind().gvk, controller_owner_field));  // built in for every kind
  f.sync(widget_kind());
  CHECK(f.names(widget_kind(), "a", "color=red") == "w1");
  CHECK(f.names(widget_kind(), "", "color=red") == "w1,w3");
  CHECK(f.names(widget_kind(), "", "color=blue") == "w2");
  CHECK(f.names(widget_kind(), "", "color=red,color!=red").empty());
  CHECK(f.cache->find(widget_kind().gvk)->store().has_index("field:color"));

  // The indexer sees updates.
  Json w2 = f.cluster->get(widget_kind(), {"a", "w2"});
  w2["spec"]["color"] = "red";
  f.cluster->update(widget_kind(), w2);
  f.sync(widget_kind());
  CHECK(f.names(widget_kind(), "", "color=red") == "w1,w2,w3");
  CHECK(f.names(widget_kind(), "", "color=blue").empty());

  // A field without an indexer is still a path in the object ("spec.color" is not "color").
  CHECK(f.names(widget_kind(), "", "spec.color=red") == "w1,w2,w3");

  CHECK_THROWS_WITH_AS(f.cache->index_field(widget_kind(), "color", colors),
                       "indexer conflict: field \"color\" of Widget is already indexed", std::invalid_argument);
  CHECK_THROWS_WITH_AS(f.cache->index_field(widget_kind(), "shape", FieldIndexFn{}),
                       "field indexer \"shape\" has no function", std::invalid_argument);
  CHECK(f.api->lists == 0);  // every list above came from the cache (the informer streamed)
}

TEST_CASE("field index: only a cached client reports the index; the API does not") {
  FieldIndexFixture f;
  auto cluster_client = std::make_shared<ClusterClient>(f.cluster);
  CachedClientOptions options;
  options.uncached = {widget_kind().gvk};
  CachedClient cached(f.api, f.cache, options);
  CHECK(cached.has_field_index(gadget_kind(), controller_owner_field));
  CHECK_FALSE(cached.has_field_index(gadget_kind(), "color"));
  CHECK_FALSE(cached.has_field_index(widget_kind(), controller_owner_field));  // uncached: read from the API
  CHECK_FALSE(cluster_client->has_field_index(gadget_kind(), controller_owner_field));
  CHECK_FALSE(f.api->has_field_index(gadget_kind(), controller_owner_field));  // forwarded to the cluster client
  // The API has no such field (a real API server refuses it): why callers ask first.
  f.cluster->create(gadget_kind(), owned(gadget_kind(), "a", "g1", "uid-1"));
  ListOptions opts;
  opts.field_selector = field_equals(controller_owner_field, "uid-1");
  CHECK(cluster_client->list(gadget_kind(), opts)["items"].empty());
  CHECK(f.cache->list(gadget_kind(), opts)["items"].size() == 1);
}
