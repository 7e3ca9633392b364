// rr::InformerCache with a namespace label selector (InformerCacheOptions::namespace_selector, as
// OLM's OperatorGroup selects namespaces): Namespaces are watched, matching ones are cached as they
// come, the others leave with delete events; a 403 namespace is retried until allowed.
#include <doctest/doctest.h>

#include <set>

#include "informer_test_support.hpp"
#include "rr/controller/informer_cache.hpp"
#include "rr/controller/informer_cache_metrics.hpp"

using namespace rr;
using namespace rr::test;
using namespace std::chrono_literals;

namespace {

const KindInfo& namespace_kind() {
  static const KindInfo kind{{"", "v1", "Namespace"}, "namespaces", "NamespaceList", Scope::Cluster, true};
  return kind;
}

std::shared_ptr<Cluster> cluster_with_namespaces() {
  auto cluster = make_cluster();
  if (!cluster->find_kind(namespace_kind().gvk)) cluster->register_kind(namespace_kind());
  return cluster;
}

void make_namespace(Cluster& cluster, const std::string& name, std::map<std::string, std::string> labels) {
  Json ns = {{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", name}}}};
  if (!labels.empty()) ns["metadata"]["labels"] = labels;
  cluster.create(namespace_kind(), ns);
}

void label_namespace(Cluster& cluster, const std::string& name, std::map<std::string, std::string> labels) {
  Json ns = cluster.get(namespace_kind(), {"", name});
  ns["metadata"]["labels"] = labels;
  cluster.update(namespace_kind(), ns);
}

std::vector<std::string> keys_in(const Json& list) {
  std::vector<std::string> out;
  for (const auto& item : list["items"]) out.push_back(key_of(item).str());
  return out;
}

struct Running {
  std::shared_ptr<InformerCache> cache;
  std::jthread thread;
  explicit Running(std::shared_ptr<InformerCache> c)
      : cache(std::move(c)), thread([cache = cache](std::stop_token stop) { cache->start(stop); }) {}
};

InformerCacheOptions selector_options(std::string selector) {
  InformerCacheOptions options;
  options.informer = fast_options();
  options.namespace_selector = std::move(selector);
  return options;
}

}  // namespace

TEST_CASE("namespace selector: labelled namespaces are cached as they come and leave when unlabelled") {
  auto cluster = cluster_with_namespaces();
  make_namespace(*cluster, "a", {{"team", "x"}});
  make_namespace(*cluster, "b", {{"team", "y"}});
  make_namespace(*cluster, "c", {});
  cluster->create(widget_kind(), object(widget_kind(), "a", "one"));
  cluster->create(widget_kind(), object(widget_kind(), "b", "two"));
  cluster->create(widget_kind(), object(widget_kind(), "c", "three"));
  auto client = std::make_shared<RoleClient>(std::make_shared<ClusterClient>(cluster),
                                             std::set<std::string>{"a", "b", "c", "d"});
  auto cache = std::make_shared<InformerCache>(client, selector_options("team in (x, y)"));
  Recorder events;
  cache->get_or_create(widget_kind())->add_handlers(events.handlers());
  Running running(cache);
  REQUIRE(cache->wait_for_sync(running.thread.get_stop_token(), 5s));
  REQUIRE(eventually([&] { return cache->ready(); }));
  CHECK(cache->selected_namespaces() == std::vector<std::string>{"a", "b"});
  CHECK(cache->namespaces_of(widget_kind()) == std::vector<std::string>{"a", "b"});
  CHECK(keys_in(cache->list(widget_kind(), {})) == std::vector<std::string>{"a/one", "b/two"});
  CHECK(client->asked() == std::set<std::string>{"a", "b"});  // never every namespace, never c
  // A namespace not selected is a miss: NotFound, an empty list (not CacheNamespaceError).
  CHECK_THROWS_AS(cache->get(widget_kind(), {"c", "three"}), ApiError);
  ListOptions in_c;
  in_c.namespace_ = "c";
  CHECK(cache->list(widget_kind(), in_c)["items"].empty());
  REQUIRE(events.wait_for(2));

  SUBCASE("a namespace that stops matching leaves: its objects are delivered as deletes") {
    const std::size_t mark = events.size();
    label_namespace(*cluster, "b", {{"team", "z"}});
    REQUIRE(events.wait_for(mark + 1));
    CHECK(events.since(mark) == std::vector<std::string>{"delete b/two red"});
    CHECK(cache->selected_namespaces() == std::vector<std::string>{"a"});
    CHECK(keys_in(cache->list(widget_kind(), {})) == std::vector<std::string>{"a/one"});
    CHECK_THROWS_AS(cache->get(widget_kind(), {"b", "two"}), ApiError);
    // Its later changes never arrive; a's do.
    cluster->create(widget_kind(), object(widget_kind(), "b", "late"));
    cluster->create(widget_kind(), object(widget_kind(), "a", "six"));
    REQUIRE(events.wait_for(mark + 2));
    CHECK(events.since(mark + 1) == std::vector<std::string>{"add a/six"});
    // Labelled again: listed again, with what was made meanwhile.
    label_namespace(*cluster, "b", {{"team", "y"}});
    REQUIRE(events.wait_for(mark + 4));
    auto back = events.since(mark + 2);
    std::sort(back.begin(), back.end());
    CHECK(back == std::vector<std::string>{"add b/late", "add b/two"});
  }

  SUBCASE("a new matching namespace is picked up; a deleted one leaves") {
    const std::size_t mark = events.size();
    make_namespace(*cluster, "d", {{"team", "x"}});
    cluster->create(widget_kind(), object(widget_kind(), "d", "four"));
    REQUIRE(events.wait_for(mark + 1));
    CHECK(events.since(mark) == std::vector<std::string>{"add d/four"});
    CHECK(cache->get(widget_kind(), {"d", "four"})["metadata"]["name"] == "four");
    cluster->remove(namespace_kind(), {"", "a"});
    REQUIRE(events.wait_for(mark + 2));
    // (The cluster may delete the namespace's objects first, as its namespace controller does, or
    // the namespace goes first and its objects leave the cache: one delete either way.)
    CHECK(events.since(mark + 1) == std::vector<std::string>{"delete a/one red"});
    CHECK(eventually([&] { return cache->selected_namespaces() == std::vector<std::string>{"b", "d"}; }));
    CHECK(events.size() == mark + 2);
  }
}

TEST_CASE("namespace selector: a namespace without a RoleBinding is retried, counted, and served once bound") {
  auto cluster = cluster_with_namespaces();
  make_namespace(*cluster, "a", {{"team", "x"}});
  make_namespace(*cluster, "b", {{"team", "x"}});
  cluster->create(widget_kind(), object(widget_kind(), "a", "one"));
  cluster->create(widget_kind(), object(widget_kind(), "b", "two"));
  auto client = std::make_shared<RoleClient>(std::make_shared<ClusterClient>(cluster), std::set<std::string>{"a"});
  auto options = selector_options("team=x");
  std::mutex mutex;
  std::vector<std::string> reports;
  options.informer.on_error = [&](std::string_view message) {
    std::lock_guard lock(mutex);
    reports.emplace_back(message);
  };
  auto cache = std::make_shared<InformerCache>(client, options);
  metrics::Registry registry;
  metrics::InformerCacheMetrics cache_metrics(registry, cache);
  Running running(cache);

  // b is refused, yet the cache syncs with a: one namespace without a RoleBinding stops no one.
  REQUIRE(cache->wait_for_sync(widget_kind(), running.thread.get_stop_token(), 5s));
  CHECK(keys_in(cache->list(widget_kind(), {})) == std::vector<std::string>{"a/one"});
  const GroupVersionKind& gvk = widget_kind().gvk;
  REQUIRE(eventually([&] { return cache->forbidden_counts()[{gvk, "b"}] >= 2; }));  // retried
  CHECK(cache->forbidden_counts().count({gvk, "a"}) == 0);
  cache_metrics.collect();
  const std::string text = registry.expose();
  CHECK(text.find(
            R"(rr_informer_cache_forbidden_total{group="example.dev",kind="Widget",namespace="b",version="v1"} )") !=
        std::string::npos);
  CHECK(text.find(R"(namespace="a")") == std::string::npos);
  {
    std::lock_guard lock(mutex);
    CHECK(std::any_of(reports.begin(), reports.end(),
                      [](const std::string& r) { return r.find("forbidden in namespace b") != std::string::npos; }));
  }

  // The admin binds the role in b: the next retry lists it.
  client->grant("b");
  REQUIRE(eventually([&] { return cache->list(widget_kind(), {})["items"].size() == 2; }));
  CHECK(keys_in(cache->list(widget_kind(), {})) == std::vector<std::string>{"a/one", "b/two"});
}

TEST_CASE("namespace selector: refused with a namespace list, or when it does not parse") {
  auto client = std::make_shared<ClusterClient>(cluster_with_namespaces());
  InformerCacheOptions both = selector_options("team=x");
  both.namespaces = {"a"};
  CHECK_THROWS_AS(InformerCache(client, both), std::invalid_argument);
  CHECK_THROWS_AS(InformerCache(client, selector_options("team in (x")), std::invalid_argument);
}
