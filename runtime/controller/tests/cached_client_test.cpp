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

namespace {

// The API client seen by a lagging informer: once `lag` is set, each watch event other than a
// bookmark reaches the informer that long after it was read (a busy or distant API server).
class LaggingClient final : public ForwardingClient {
 public:
  using ForwardingClient::ForwardingClient;
  std::atomic<int> lag_ms{0};

 protected:
  std::unique_ptr<Watch> do_watch(const KindInfo& k, const ListOptions& o) override {
    return std::make_unique<Lagging>(ForwardingClient::do_watch(k, o), lag_ms);
  }

 private:
  struct Lagging final : Watch {
    Lagging(std::unique_ptr<Watch> w, std::atomic<int>& lag) : w_(std::move(w)), lag_(lag) {}
    std::optional<WatchEvent> next(std::chrono::milliseconds t) override {
      auto event = w_->next(t);
      if (event && event->type != WatchEventType::Bookmark && lag_ > 0) {
        std::this_thread::sleep_for(std::chrono::milliseconds(lag_.load()));
      }
      return event;
    }
    void stop() override { w_->stop(); }
    bool stopped() const override { return w_->stopped(); }
    std::unique_ptr<Watch> w_;
    std::atomic<int>& lag_;
  };
};

struct LaggingFixture {
  std::shared_ptr<Cluster> cluster = make_cluster();
  std::shared_ptr<ClusterClient> api = std::make_shared<ClusterClient>(cluster);
  std::shared_ptr<LaggingClient> informer_api = std::make_shared<LaggingClient>(api);
  std::shared_ptr<InformerCache> cache;
  std::jthread running;
  std::atomic<int> stale{0};

  LaggingFixture() {
    InformerCacheOptions cache_options;
    cache_options.informer = fast_options();
    cache = std::make_shared<InformerCache>(informer_api, cache_options);
    running = std::jthread([c = cache](std::stop_token stop) { c->start(stop); });
    REQUIRE(eventually([&] { return cache->started(); }));
    cluster->create(widget_kind(), object(widget_kind(), "default", "w"));
    REQUIRE(cache->wait_for_sync(widget_kind(), running.get_stop_token(), 5s));
    REQUIRE(eventually([&] { return cache->list(widget_kind(), {})["items"].size() == 1; }));
  }

  std::shared_ptr<CachedClient> client(std::chrono::milliseconds wait) {
    CachedClientOptions options;
    options.read_your_writes_wait = wait;
    options.on_stale = [this](const KindInfo&, const ObjectKey&) { ++stale; };
    return std::make_shared<CachedClient>(api, cache, std::move(options));
  }

  // Updates w's color through `client`, then reads it back at once.
  std::string write_then_read(CachedClient& c, const std::string& color) {
    Json w = c.get(widget_kind(), {"default", "w"});
    w["spec"]["color"] = color;
    c.update(widget_kind(), w, {});
    return c.get(widget_kind(), {"default", "w"})["spec"]["color"].get<std::string>();
  }
};

}  // namespace

TEST_CASE("cached client: a get after the client's own write waits for the cache to reach it") {
  LaggingFixture f;
  f.informer_api->lag_ms = 300;
  auto reads_own_writes = f.client(2s);
  CHECK(f.write_then_read(*reads_own_writes, "blue") == "blue");
  CHECK(f.stale == 1);
  // Once the cache has it, the next read neither waits nor counts.
  CHECK(reads_own_writes->get(widget_kind(), {"default", "w"})["spec"]["color"] == "blue");
  CHECK(f.stale == 1);
  // Another client's write is not awaited (only this client's own writes are remembered).
  auto other = f.client(2s);
  CHECK(other->get(widget_kind(), {"default", "w"})["spec"]["color"] == "blue");
  CHECK(f.stale == 1);
}

TEST_CASE("cached client: without read-your-writes the same read returns the object from before the write") {
  LaggingFixture f;
  f.informer_api->lag_ms = 300;
  auto plain = f.client(0ms);
  CHECK(f.write_then_read(*plain, "blue") == "red");
  CHECK(f.stale == 0);
}

TEST_CASE("cached client: a cache that stays older than the write fails the read with StaleCacheError") {
  LaggingFixture f;
  f.informer_api->lag_ms = 1500;
  auto impatient = f.client(50ms);
  Json w = impatient->get(widget_kind(), {"default", "w"});
  w["spec"]["color"] = "green";
  const Json written = impatient->update(widget_kind(), w, {});
  CHECK_THROWS_AS(impatient->get(widget_kind(), {"default", "w"}), StaleCacheError);
  CHECK(f.stale == 1);
  f.informer_api->lag_ms = 0;
  REQUIRE(eventually([&] {
    try {
      return impatient->get(widget_kind(), {"default", "w"})["spec"]["color"] == "green";
    } catch (const StaleCacheError&) {
      return false;
    }
  }));
  CHECK(written["metadata"]["resourceVersion"] ==
        impatient->get(widget_kind(), {"default", "w"})["metadata"]["resourceVersion"]);

  // A dry run changes nothing: it is not awaited.
  const int stale_before = f.stale;
  f.informer_api->lag_ms = 1500;
  Json again = impatient->get(widget_kind(), {"default", "w"});
  again["spec"]["color"] = "purple";
  WriteOptions dry;
  dry.dry_run = true;
  impatient->update(widget_kind(), again, dry);
  CHECK(impatient->get(widget_kind(), {"default", "w"})["spec"]["color"] == "green");
  CHECK(f.stale == stale_before);
}
