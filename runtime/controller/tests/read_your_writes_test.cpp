// rr::CachedClient's read-your-own-writes (docs/runtime/41-read-your-own-writes.md): a get and a
// list after this client's own create, update or delete wait for a lagging cache to reach the
// write, fail with StaleCacheError when it does not, and end by the reconcile's deadline.
#include <doctest/doctest.h>

#include <atomic>

#include "informer_test_support.hpp"
#include "rr/client/api_error.hpp"
#include "rr/client/call_deadline.hpp"
#include "rr/controller/cached_client.hpp"

using namespace rr;
using namespace rr::test;
using namespace std::chrono_literals;

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

TEST_CASE("cached client: a list after the client's own create waits for the cache to hold the new object") {
  LaggingFixture f;
  f.informer_api->lag_ms = 300;
  auto c = f.client(2s);
  c->create(widget_kind(), object(widget_kind(), "default", "new"), {});
  const Json items = c->list(widget_kind(), ListOptions{.namespace_ = "default"})["items"];
  CHECK(items.size() == 2);
  CHECK(f.stale == 1);
  // A list of another namespace has nothing of this client's to wait for.
  c->create(widget_kind(), object(widget_kind(), "default", "newer"), {});
  CHECK(c->list(widget_kind(), ListOptions{.namespace_ = "other"})["items"].empty());
  CHECK(f.stale == 1);
  // A list of every namespace does.
  CHECK(c->list(widget_kind(), {})["items"].size() == 3);
  CHECK(f.stale == 2);
}

TEST_CASE("cached client: without read-your-writes a list right after a create misses the new object") {
  LaggingFixture f;
  f.informer_api->lag_ms = 300;
  auto plain = f.client(0ms);
  plain->create(widget_kind(), object(widget_kind(), "default", "new"), {});
  CHECK(plain->list(widget_kind(), ListOptions{.namespace_ = "default"})["items"].size() == 1);
}

TEST_CASE("cached client: a get and a list after the client's own delete no longer see the object") {
  LaggingFixture f;
  f.informer_api->lag_ms = 300;
  auto c = f.client(2s);
  c->remove(widget_kind(), {"default", "w"}, {});
  CHECK_THROWS_AS(c->get(widget_kind(), {"default", "w"}), ApiError);
  CHECK(f.stale == 1);
  CHECK(c->list(widget_kind(), {})["items"].empty());
  CHECK(f.stale == 1);  // the get's wait already saw it go

  // Created again by someone else: the newer object is the answer, not a wait for it to go.
  f.informer_api->lag_ms = 0;
  f.cluster->create(widget_kind(), object(widget_kind(), "default", "w"));
  REQUIRE(eventually([&] { return f.cache->list(widget_kind(), {})["items"].size() == 1; }));
  c->remove(widget_kind(), {"default", "w"}, {});
  f.cluster->create(widget_kind(), object(widget_kind(), "default", "w"));
  REQUIRE(eventually([&] {
    try {
      return c->get(widget_kind(), {"default", "w"})["metadata"].contains("uid");
    } catch (const ApiError&) {
      return false;
    }
  }));
}

TEST_CASE("cached client: a reconcile's deadline ends the wait for the cache before read_your_writes_wait") {
  LaggingFixture f;
  f.informer_api->lag_ms = 1500;
  auto c = f.client(5s);
  Json w = c->get(widget_kind(), {"default", "w"});
  w["spec"]["color"] = "green";
  c->update(widget_kind(), w, {});
  const auto started = std::chrono::steady_clock::now();
  {
    CallDeadline deadline(started + 100ms);
    try {
      c->get(widget_kind(), {"default", "w"});
      FAIL("the read should have ended at the deadline");
    } catch (const StaleCacheError&) {
      FAIL("the deadline, not read_your_writes_wait, should have ended the read");
    } catch (const ApiError& e) {
      CHECK(e.reason() == "Timeout");
      CHECK(std::string(e.what()).find("context deadline exceeded") != std::string::npos);
    }
  }
  CHECK(std::chrono::steady_clock::now() - started < 1s);
}
