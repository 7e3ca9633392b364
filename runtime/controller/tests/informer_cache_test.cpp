// rr::InformerCache: shared informers per kind, start/stop, sync waits and reads from the stores.
#include <doctest/doctest.h>

#include "informer_test_support.hpp"
#include "rr/controller/informer_cache.hpp"

using namespace rr;
using namespace rr::test;
using namespace std::chrono_literals;

namespace {

std::vector<std::string> cached_names_of(const Json& list) {
  std::vector<std::string> out;
  for (const auto& item : list["items"]) out.push_back(key_of(item).str());
  return out;
}

InformerCacheOptions fast_cache() {
  InformerCacheOptions o;
  o.informer = fast_options();
  return o;
}

}  // namespace

TEST_CASE("informer cache: one informer per kind, started with the cache or at once when added later") {
  auto cluster = make_cluster();
  auto client = std::make_shared<CountingClient>(std::make_shared<ClusterClient>(cluster));
  cluster->create(widget_kind(), object(widget_kind(), "default", "w"));
  cluster->create(gadget_kind(), object(gadget_kind(), "default", "g"));
  auto cache = std::make_shared<InformerCache>(client, fast_cache());
  CHECK_FALSE(cache->needs_leader_election());

  auto widgets = cache->get_or_create(widget_kind());
  CHECK(cache->get_or_create(widget_kind()) == widgets);
  CHECK(cache->find(widget_kind().gvk) == widgets);
  CHECK(cache->find(gadget_kind().gvk) == nullptr);
  CHECK_FALSE(cache->ready());
  CHECK_FALSE(cache->wait_for_sync({}, 20ms));  // not started
  CHECK_THROWS_AS(cache->get(widget_kind(), {"default", "w"}), CacheNotStartedError);

  std::jthread running([&](std::stop_token stop) { cache->start(stop); });
  REQUIRE(cache->wait_for_sync(running.get_stop_token(), 5s));
  CHECK(cache->ready());
  CHECK(widgets->has_synced());

  // Added while running: starts at once.
  REQUIRE(cache->wait_for_sync(gadget_kind(), running.get_stop_token(), 5s));
  CHECK(cache->informers().size() == 2);
  CHECK(cache->get(gadget_kind(), {"default", "g"})["metadata"]["name"] == "g");
  CHECK(client->streams == 2);  // one initial stream per informer

  running.request_stop();
  running.join();
  CHECK_FALSE(cache->started());
  CHECK_FALSE(cache->ready());
}

TEST_CASE("informer cache: get and list read the store, with namespace, label and field selectors") {
  auto cluster = make_cluster();
  auto client = std::make_shared<CountingClient>(std::make_shared<ClusterClient>(cluster));
  cluster->create(widget_kind(), object(widget_kind(), "a", "one", {{"app", "web"}}));
  cluster->create(widget_kind(), object(widget_kind(), "a", "two", {{"app", "db"}}, "blue"));
  cluster->create(widget_kind(), object(widget_kind(), "b", "three", {{"app", "web"}}));
  auto cache = std::make_shared<InformerCache>(client, fast_cache());
  std::jthread running([&](std::stop_token stop) { cache->start(stop); });
  REQUIRE(eventually([&] { return cache->started(); }));

  // The first read creates the informer and blocks until it has synced.
  Json all = cache->list(widget_kind(), {});
  CHECK(cached_names_of(all) == std::vector<std::string>{"a/one", "a/two", "b/three"});
  CHECK(all["kind"] == "WidgetList");
  CHECK(all["apiVersion"] == "example.dev/v1");
  CHECK(all["metadata"]["resourceVersion"] == cluster->resource_version());

  ListOptions in_a;
  in_a.namespace_ = "a";
  CHECK(cached_names_of(cache->list(widget_kind(), in_a)) == std::vector<std::string>{"a/one", "a/two"});
  ListOptions web;
  web.label_selector = "app in (web)";
  CHECK(cached_names_of(cache->list(widget_kind(), web)) == std::vector<std::string>{"a/one", "b/three"});
  ListOptions blue;
  blue.field_selector = "spec.color=blue";
  CHECK(cached_names_of(cache->list(widget_kind(), blue)) == std::vector<std::string>{"a/two"});
  ListOptions not_one;
  not_one.namespace_ = "a";
  not_one.field_selector = "metadata.name!=one";
  CHECK(cached_names_of(cache->list(widget_kind(), not_one)) == std::vector<std::string>{"a/two"});
  ListOptions limited;
  limited.limit = 2;
  CHECK(cache->list(widget_kind(), limited)["items"].size() == 2);

  ListOptions bad;
  bad.label_selector = "app in (";
  try {
    cache->list(widget_kind(), bad);
    FAIL("expected a BadRequest");
  } catch (const ApiError& e) {
    CHECK(e.code() == 400);
  }

  CHECK(cache->get(widget_kind(), {"b", "three"})["metadata"]["namespace"] == "b");
  try {
    cache->get(widget_kind(), {"b", "nope"});
    FAIL("expected NotFound");
  } catch (const ApiError& e) {
    CHECK(is_not_found(e.status()));
    CHECK(e.status().message == "widgets.example.dev \"nope\" not found");
  }
  CHECK(client->gets == 0);
  CHECK(client->streams == 1);
  CHECK(client->lists == 0);
}
