// rr::CachedClient: reads from the cache (counted at the API), writes and watches through, copies,
// uncached kinds.
#include <doctest/doctest.h>

#include "informer_test_support.hpp"
#include "rr/controller/cached_client.hpp"

using namespace rr;
using namespace rr::test;
using namespace std::chrono_literals;

namespace {

struct CachedClientFixture {
  std::shared_ptr<Cluster> cluster = make_cluster();
  std::shared_ptr<CountingClient> api = std::make_shared<CountingClient>(std::make_shared<ClusterClient>(cluster));
  std::shared_ptr<InformerCache> cache;
  std::jthread running;
  std::shared_ptr<CachedClient> client;

  explicit CachedClientFixture(CachedClientOptions options = {}) {
    InformerCacheOptions cache_options;
    cache_options.informer = fast_options();
    cache = std::make_shared<InformerCache>(api, cache_options);
    running = std::jthread([c = cache](std::stop_token stop) { c->start(stop); });
    client = std::make_shared<CachedClient>(api, cache, std::move(options));
    REQUIRE(eventually([&] { return cache->started(); }));
  }
};

}  // namespace

TEST_CASE("cached client: reads are served by the cache after one list and one watch") {
  CachedClientFixture f;
  f.cluster->create(widget_kind(), object(widget_kind(), "default", "a", {{"app", "web"}}));
  f.cluster->create(widget_kind(), object(widget_kind(), "default", "b"));

  Json a = f.client->get(widget_kind(), {"default", "a"});
  CHECK(a["metadata"]["name"] == "a");
  for (int i = 0; i < 10; ++i) {
    f.client->get(widget_kind(), {"default", "b"});
    f.client->list(widget_kind(), ListOptions{});
  }
  ListOptions web;
  web.label_selector = "app=web";
  CHECK(f.client->list(widget_kind(), web)["items"].size() == 1);
  CHECK(f.api->gets == 0);
  CHECK(f.api->streams == 1);  // the informer's initial stream, which goes on as its watch
  CHECK(f.api->lists == 0);
  CHECK(eventually([&] { return f.api->watches == 1; }));
  CHECK(f.cache->find(widget_kind().gvk) != nullptr);
}

TEST_CASE("cached client: writes go to the API and the cache catches up through the watch") {
  CachedClientFixture f;
  CHECK(f.client->list(widget_kind(), ListOptions{})["items"].empty());
  Json created = f.client->create(widget_kind(), object(widget_kind(), "default", "new"), {});
  CHECK(f.api->writes == 1);
  CHECK(created["metadata"].contains("uid"));
  REQUIRE(eventually([&] { return f.client->list(widget_kind(), ListOptions{})["items"].size() == 1; }));

  f.client->patch(widget_kind(), {"default", "new"}, PatchType::Merge, R"({"spec":{"color":"blue"}})", {}, {});
  REQUIRE(eventually([&] { return f.client->get(widget_kind(), {"default", "new"})["spec"]["color"] == "blue"; }));
  f.client->remove(widget_kind(), {"default", "new"}, {});
  REQUIRE(eventually([&] {
    try {
      f.client->get(widget_kind(), {"default", "new"});
      return false;
    } catch (const ApiError& e) {
      return is_not_found(e.status());
    }
  }));
  CHECK(f.api->writes == 3);
  CHECK(f.api->gets == 0);

  auto watch = f.client->watch(widget_kind(), ListOptions{});
  CHECK(f.api->watches == 2);  // the informer's and this one
}

TEST_CASE("cached client: returned objects are copies") {
  CachedClientFixture f;
  f.cluster->create(widget_kind(), object(widget_kind(), "default", "a"));
  Json a = f.client->get(widget_kind(), {"default", "a"});
  a["spec"]["color"] = "mutated";
  Json list = f.client->list(widget_kind(), ListOptions{});
  list["items"][0]["spec"]["color"] = "mutated";
  CHECK(f.client->get(widget_kind(), {"default", "a"})["spec"]["color"] == "red");
  CHECK(f.cache->find(widget_kind().gvk)->get({"default", "a"}).value()["spec"]["color"] == "red");
}

TEST_CASE("cached client: kinds listed as uncached are read from the API") {
  CachedClientOptions options;
  options.uncached = {gadget_kind().gvk};
  CachedClientFixture f(options);
  f.cluster->create(gadget_kind(), object(gadget_kind(), "default", "g"));
  CHECK_FALSE(f.client->is_cached(gadget_kind().gvk));
  CHECK(f.client->is_cached(widget_kind().gvk));
  CHECK(f.client->get(gadget_kind(), {"default", "g"})["metadata"]["name"] == "g");
  CHECK(f.client->list(gadget_kind(), ListOptions{})["items"].size() == 1);
  CHECK(f.api->gets == 1);
  CHECK(f.api->lists == 1);
  CHECK(f.api->watches == 0);
  CHECK(f.cache->find(gadget_kind().gvk) == nullptr);
  CHECK(f.client->kind_info(gadget_kind().gvk) == gadget_kind());
}

TEST_CASE("cached client: a read before the cache runs fails with CacheNotStartedError") {
  auto cluster = make_cluster();
  auto api = std::make_shared<ClusterClient>(cluster);
  CachedClient client(api, std::make_shared<InformerCache>(api));
  CHECK_THROWS_AS(client.get(widget_kind(), {"default", "a"}), CacheNotStartedError);
}
