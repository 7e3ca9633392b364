// A ChildReconciler reading through the cached client looks its children up in the cache's
// controller-owner index ("<.metadata.controller>=<parent uid>"), so it decodes only its own; over
// a client without the index (the API, the test harness's cluster) it lists the namespace and
// filters, as before. Both find, update and leave alone the same child.
#include <doctest/doctest.h>

#include "informer_test_support.hpp"
#include "rr/client/field_index.hpp"
#include "rr/client/unstructured.hpp"
#include "rr/controller/cached_client.hpp"
#include "rr/reconcilers/child.hpp"
#include "rr/reconcilers/resource.hpp"

using namespace rr;
using namespace rr::test;

namespace {

// Records the field selector and the item count of every Gadget list.
class ListRecorder final : public ForwardingClient {
 public:
  using ForwardingClient::ForwardingClient;
  std::vector<std::string> selectors;
  std::vector<std::size_t> sizes;

 protected:
  Json do_list(const KindInfo& kind, const ListOptions& opts) override {
    Json out = ForwardingClient::do_list(kind, opts);
    if (kind.gvk == gadget_kind().gvk) {
      selectors.push_back(opts.field_selector);
      sizes.push_back(out["items"].size());
    }
    return out;
  }
};

std::string color_of(const Unstructured& o) {
  const Json* spec = o.find("spec");
  return spec && spec->contains("color") ? spec->at("color").get<std::string>() : "";
}

// Widget → one Gadget of the same name and color.
Reconciler widget_reconciler(const Config& config) {
  return ResourceReconciler<Unstructured>{
      .reconciler = ChildReconciler<Unstructured, Unstructured>{
          .desired_child = [](Context&, const Unstructured& parent) -> std::optional<Unstructured> {
            Unstructured child(gadget_kind().gvk);
            child.metadata.namespace_ = parent.metadata.namespace_;
            child.metadata.name = parent.metadata.name;
            child.member("spec")["color"] = color_of(parent);
            return child;
          },
          .child_object_manager =
              UpdatingObjectManager<Unstructured>{
                  .merge_before_update =
                      [](Unstructured& current, const Unstructured& desired) {
                        current.member("spec")["color"] = color_of(desired);
                      },
              },
          .reflect_child_status_on_parent = [](Context&, Unstructured&, const Unstructured*, const Error&) {},
          .child_type = gadget_kind(),
      },
      .config = config,
      .type = widget_kind(),
  };
}

struct ChildIndexFixture {
  std::shared_ptr<Cluster> cluster = make_cluster();
  std::shared_ptr<ClusterClient> api = std::make_shared<ClusterClient>(cluster);
  std::shared_ptr<InformerCache> cache;
  std::jthread running;

  ChildIndexFixture() {
    InformerCacheOptions options;
    options.informer = fast_options();
    cache = std::make_shared<InformerCache>(api, options);
    running = std::jthread([c = cache](std::stop_token stop) { c->start(stop); });
    REQUIRE(eventually([&] { return cache->started(); }));
    for (const char* name : {"w1", "w2", "w3"}) cluster->create(widget_kind(), object(widget_kind(), "a", name));
  }
  std::string uid(const std::string& name) { return cluster->get(widget_kind(), {"a", name})["metadata"]["uid"]; }
  void wait_for_cache() {
    const Json want = cluster->list(gadget_kind(), ListOptions{})["items"];
    REQUIRE(eventually([&] { return cache->list(gadget_kind(), ListOptions{})["items"] == want; }));
  }
  std::string gadget_color(const std::string& name) {
    return cluster->get(gadget_kind(), {"a", name})["spec"]["color"];
  }
};

}  // namespace

TEST_CASE("child index: through the cache, a child reconciler reads only its own children") {
  ChildIndexFixture f;
  auto client = std::make_shared<ListRecorder>(std::make_shared<CachedClient>(f.api, f.cache));
  const Reconciler reconciler = widget_reconciler(make_config(client));
  for (const char* name : {"w1", "w2", "w3"}) REQUIRE_FALSE(reconciler.reconcile(Request{"a", name}).error);
  f.wait_for_cache();
  CHECK(f.cluster->list(gadget_kind(), ListOptions{})["items"].size() == 3);

  client->selectors.clear();
  client->sizes.clear();
  Json w2 = f.cluster->get(widget_kind(), {"a", "w2"});
  w2["spec"]["color"] = "blue";
  f.cluster->update(widget_kind(), w2);
  REQUIRE(eventually([&] { return f.cache->get(widget_kind(), {"a", "w2"})["spec"]["color"] == "blue"; }));
  REQUIRE_FALSE(reconciler.reconcile(Request{"a", "w2"}).error);  // found by the index, updated
  CHECK(f.gadget_color("w2") == "blue");
  CHECK(f.gadget_color("w1") == "red");
  CHECK(client->selectors == std::vector<std::string>{".metadata.controller=" + f.uid("w2")});
  CHECK(client->sizes == std::vector<std::size_t>{1});  // one child read, not the namespace's three

  // The owner index follows the child's updates: the next reconcile finds the new version.
  f.wait_for_cache();
  const std::string rv = f.cluster->resource_version();
  REQUIRE_FALSE(reconciler.reconcile(Request{"a", "w2"}).error);
  CHECK(f.cluster->resource_version() == rv);  // nothing to do
}

TEST_CASE("child index: without an index the child reconciler lists the namespace and filters") {
  ChildIndexFixture f;
  auto client = std::make_shared<ListRecorder>(f.api);  // the API: no field index
  const Reconciler reconciler = widget_reconciler(make_config(client));
  for (const char* name : {"w1", "w2", "w3"}) REQUIRE_FALSE(reconciler.reconcile(Request{"a", name}).error);
  Json w2 = f.cluster->get(widget_kind(), {"a", "w2"});
  w2["spec"]["color"] = "blue";
  f.cluster->update(widget_kind(), w2);
  client->selectors.clear();
  client->sizes.clear();
  REQUIRE_FALSE(reconciler.reconcile(Request{"a", "w2"}).error);
  CHECK(f.gadget_color("w2") == "blue");
  CHECK(f.gadget_color("w1") == "red");
  CHECK(client->selectors == std::vector<std::string>{""});
  CHECK(client->sizes == std::vector<std::size_t>{3});
}

TEST_CASE("child index: an uncached child kind is read from the API without the index") {
  ChildIndexFixture f;
  CachedClientOptions options;
  options.uncached = {gadget_kind().gvk};
  auto client = std::make_shared<ListRecorder>(std::make_shared<CachedClient>(f.api, f.cache, options));
  const Reconciler reconciler = widget_reconciler(make_config(client));
  for (const char* name : {"w1", "w2"}) REQUIRE_FALSE(reconciler.reconcile(Request{"a", name}).error);
  CHECK(client->selectors == std::vector<std::string>{"", ""});
  CHECK(client->sizes == std::vector<std::size_t>{0, 1});
}
