// rr::InformerCache over several namespaces (controller-runtime's cache.Options.DefaultNamespaces):
// one list and watch per namespace, one store, reads outside refused.
#include <doctest/doctest.h>

#include <set>

#include "informer_test_support.hpp"
#include "rr/controller/informer_cache.hpp"

using namespace rr;
using namespace rr::test;
using namespace std::chrono_literals;

namespace {

std::vector<std::string> ns_names_of(const Json& list) {
  std::vector<std::string> out;
  for (const auto& item : list["items"]) out.push_back(key_of(item).str());
  return out;
}

}  // namespace

TEST_CASE("informer cache: several namespaces are listed and watched one by one; a third is ignored") {
  auto cluster = make_cluster();
  cluster->create(widget_kind(), object(widget_kind(), "a", "one"));
  cluster->create(widget_kind(), object(widget_kind(), "b", "two"));
  cluster->create(widget_kind(), object(widget_kind(), "c", "three"));
  auto client = std::make_shared<RoleClient>(std::make_shared<ClusterClient>(cluster), std::set<std::string>{"a", "b"});
  InformerCacheOptions options;
  options.informer = fast_options();
  options.namespaces = {"b", "a", "b"};  // sorted, repeats dropped
  auto cache = std::make_shared<InformerCache>(client, options);
  CHECK(cache->namespaces_of(widget_kind()) == std::vector<std::string>{"a", "b"});

  Recorder events;
  auto informer = cache->get_or_create(widget_kind());
  informer->add_handlers(events.handlers());
  std::jthread running([&](std::stop_token stop) { cache->start(stop); });
  REQUIRE(cache->wait_for_sync(running.get_stop_token(), 5s));
  CHECK(client->asked() == std::set<std::string>{"a", "b"});  // never every namespace, never c

  // The list covers both namespaces; one namespace of them reads alone.
  CHECK(ns_names_of(cache->list(widget_kind(), {})) == std::vector<std::string>{"a/one", "b/two"});
  ListOptions in_b;
  in_b.namespace_ = "b";
  CHECK(ns_names_of(cache->list(widget_kind(), in_b)) == std::vector<std::string>{"b/two"});
  CHECK(cache->get(widget_kind(), {"a", "one"})["metadata"]["name"] == "one");

  // Outside: an error, as controller-runtime's multi-namespace cache gives (not NotFound).
  CHECK_THROWS_WITH_AS(cache->get(widget_kind(), {"c", "three"}),
                       "unable to get: c/three because of unknown namespace for the cache", CacheNamespaceError);
  ListOptions in_c;
  in_c.namespace_ = "c";
  CHECK_THROWS_AS(cache->list(widget_kind(), in_c), CacheNamespaceError);
  // Inside but absent: NotFound.
  CHECK_THROWS_AS(cache->get(widget_kind(), {"b", "nope"}), ApiError);

  // Both namespaces' watches deliver; the third namespace's changes never arrive.
  REQUIRE(events.wait_for(2));
  const std::size_t mark = events.size();
  cluster->create(widget_kind(), object(widget_kind(), "c", "four"));
  cluster->create(widget_kind(), object(widget_kind(), "b", "five"));
  cluster->create(widget_kind(), object(widget_kind(), "a", "six"));
  REQUIRE(events.wait_for(mark + 2));
  REQUIRE(eventually([&] { return cache->list(widget_kind(), {})["items"].size() == 4; }));
  auto later = events.since(mark);
  std::sort(later.begin(), later.end());
  CHECK(later == std::vector<std::string>{"add a/six", "add b/five"});
  CHECK(ns_names_of(cache->list(widget_kind(), {})) == std::vector<std::string>{"a/one", "a/six", "b/five", "b/two"});
  // A handler added late gets both namespaces' objects replayed.
  Recorder late;
  informer->add_handlers(late.handlers());
  CHECK(late.size() == 4);
  CHECK(informer->last_resource_version().empty());  // no one version covers two streams
}

TEST_CASE("informer cache: a kind's own namespaces, one namespace and cluster scope") {
  auto cluster = make_cluster();
  cluster->create(widget_kind(), object(widget_kind(), "a", "one"));
  cluster->create(widget_kind(), object(widget_kind(), "b", "two"));
  cluster->create(gadget_kind(), object(gadget_kind(), "a", "g1"));
  cluster->create(gadget_kind(), object(gadget_kind(), "c", "g2"));
  auto client = std::make_shared<CountingClient>(std::make_shared<ClusterClient>(cluster));
  InformerCacheOptions options;
  options.informer = fast_options();
  options.namespaces = {"a", "b"};
  options.by_kind[gadget_kind().gvk].namespaces = std::vector<std::string>{"c"};
  auto cache = std::make_shared<InformerCache>(client, options);
  std::jthread running([&](std::stop_token stop) { cache->start(stop); });
  REQUIRE(eventually([&] { return cache->started(); }));

  CHECK(ns_names_of(cache->list(gadget_kind(), {})) == std::vector<std::string>{"c/g2"});
  CHECK_THROWS_AS(cache->get(gadget_kind(), {"a", "g1"}), CacheNamespaceError);
  // One namespace is one stream, whose version the list reports.
  CHECK(cache->list(gadget_kind(), {})["metadata"]["resourceVersion"] == cluster->resource_version());
  CHECK(ns_names_of(cache->list(widget_kind(), {})) == std::vector<std::string>{"a/one", "b/two"});
  CHECK(client->streams == 3);  // c for gadgets; a and b for widgets

  // Cluster-scoped kinds are not limited by namespaces.
  KindInfo cluster_scoped = widget_kind();
  cluster_scoped.scope = Scope::Cluster;
  CHECK(cache->namespaces_of(cluster_scoped).empty());
}
