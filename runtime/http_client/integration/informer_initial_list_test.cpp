// An informer's initial state over HTTP against the local cluster: streamed by default (one watch
// with sendInitialEvents, no LIST), and listed in pages of 500 when the server refuses streaming
// (FaultOptions::refuse_watch_list answers 422 as a server without WatchList). The store must end
// up exactly what the server lists, and a write after the sync must reach it.
#include <doctest/doctest.h>

#include <chrono>
#include <mutex>
#include <set>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

#include "live_cluster.hpp"
#include "rr/client/forwarding_client.hpp"
#include "rr/controller/informer.hpp"

using namespace rr;
using namespace rr::integration;
using namespace std::chrono_literals;

namespace {

// The list and watch calls the informer made, as "list 500", "list 500 continue", "watch",
// "watch initial-events"; forwarded unchanged.
class RecordingClient final : public ForwardingClient {
 public:
  using ForwardingClient::ForwardingClient;
  std::vector<std::string> calls() {
    std::lock_guard lock(mutex_);
    return calls_;
  }

 protected:
  Json do_list(const KindInfo& kind, const ListOptions& opts) override {
    note("list " + std::to_string(opts.limit) + (opts.continue_.empty() ? "" : " continue"));
    return ForwardingClient::do_list(kind, opts);
  }
  std::unique_ptr<Watch> do_watch(const KindInfo& kind, const ListOptions& opts) override {
    note(opts.send_initial_events ? "watch initial-events" : "watch");
    return ForwardingClient::do_watch(kind, opts);
  }

 private:
  void note(std::string call) {
    std::lock_guard lock(mutex_);
    calls_.push_back(std::move(call));
  }
  std::mutex mutex_;
  std::vector<std::string> calls_;
};

// name@resourceVersion of each object.
std::set<std::string> name_versions(const std::vector<Json>& objects) {
  std::set<std::string> out;
  for (const Json& o : objects) {
    out.insert(o["metadata"]["name"].get<std::string>() + "@" + o["metadata"]["resourceVersion"].get<std::string>());
  }
  return out;
}

std::set<std::string> server_versions(HttpClient& client, const KindInfo& kind) {
  const Json list = client.list(kind, {.namespace_ = "default"});
  return name_versions(list["items"].get<std::vector<Json>>());
}

// `n` ConfigMaps in "default", written straight into the cluster (faster than HTTP).
void seed(Cluster& cluster, const KindInfo& cm, int n) {
  for (int i = 0; i < n; ++i)
    cluster.create(cm, config_map("default", "cm-" + std::to_string(i), {{"i", std::to_string(i)}}));
}

struct Started {
  std::shared_ptr<RecordingClient> client;
  std::unique_ptr<Informer> informer;
  std::jthread thread;
};

void start(Started& s, std::shared_ptr<HttpClient> http, const KindInfo& cm, InitialList mode) {
  s.client = std::make_shared<RecordingClient>(std::move(http));
  InformerOptions options;
  options.namespace_ = "default";
  options.initial_list = mode;
  options.initial_backoff = 20ms;
  options.poll_interval = 100ms;
  s.informer = std::make_unique<Informer>(s.client, cm, options);
  s.thread = std::jthread([i = s.informer.get()](std::stop_token stop) { i->run(stop); });
  REQUIRE(s.informer->wait_for_sync(s.thread.get_stop_token(), 120s));
}

// After the sync: the store is the server's list, and a new object arrives through the watch.
void check_store_and_watch(Started& s, LiveCluster& live, const KindInfo& cm) {
  auto reader = live.client();
  CHECK(name_versions(s.informer->list()) == server_versions(*reader, cm));
  reader->create(cm, config_map("default", "after-sync"));
  CHECK(wait_until([&] { return s.informer->get({"default", "after-sync"}).has_value(); }));
  CHECK(name_versions(s.informer->list()) == server_versions(*reader, cm));
}

// `n` ConfigMaps, then an informer started in `mode` and synced: it must hold them all.
KindInfo seed_and_start(Started& s, LiveCluster& live, int n, InitialList mode) {
  auto http = live.client();
  const KindInfo cm = http->kind_info(config_map_gvk());
  seed(live.cluster(), cm, n);
  start(s, http, cm, mode);
  CHECK(s.informer->list().size() == static_cast<std::size_t>(n));
  return cm;
}

// The server answers streaming watches 422, as one without the WatchList feature.
void refuse_streaming(LiveCluster& live) {
  FaultOptions faults;
  faults.refuse_watch_list = true;
  live.server().set_faults(faults);
}

}  // namespace

TEST_CASE("slow: informer start over HTTP: streams 1,500 objects in one watch, no LIST, and watches on") {
  LiveCluster live;
  Started s;
  const KindInfo cm = seed_and_start(s, live, 1500, InitialList::streaming);
  check_store_and_watch(s, live, cm);
  // The one streaming watch carried the initial events and the later create.
  CHECK(s.client->calls() == std::vector<std::string>{"watch initial-events"});
  CHECK(s.informer->last_resource_version() == live.cluster().resource_version());
}

TEST_CASE("slow: informer start over HTTP: a server that refuses streaming gets LIST pages of 500 with continue") {
  LiveCluster live;
  refuse_streaming(live);
  Started s;
  const KindInfo cm = seed_and_start(s, live, 1500, InitialList::streaming);
  check_store_and_watch(s, live, cm);
  CHECK(s.client->calls() == std::vector<std::string>{"watch initial-events", "list 500", "list 500 continue",
                                                      "list 500 continue", "watch"});
}

TEST_CASE("informer start over HTTP: the refusal is the API server's 422 on ListOptions") {
  LiveCluster live;
  refuse_streaming(live);
  auto http = live.client();
  const KindInfo cm = http->kind_info(config_map_gvk());
  const Status refused = status_of([&] {
    http->watch(cm, {.namespace_ = "default",
                     .allow_watch_bookmarks = true,
                     .resource_version_match = "NotOlderThan",
                     .send_initial_events = true});
  });
  CHECK(refused.code == 422);
  CHECK(refused.message ==
        "ListOptions.meta.k8s.io \"\" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for "
        "watch unless the WatchList feature gate is enabled");
}

// 5,000 (ten pages): in the Debug build on a loaded machine 10,000 took a minute, 20,000 two and
// 100,000 did not sync in one; bench_informer_start measures 100,000.
TEST_CASE("slow: informer start over HTTP at 5,000 objects, streamed and paged, each store exact") {
  constexpr std::size_t n = 5000;
  LiveCluster live;
  auto http = live.client();
  const KindInfo cm = http->kind_info(config_map_gvk());
  seed(live.cluster(), cm, static_cast<int>(n));
  for (const InitialList mode : {InitialList::streaming, InitialList::paged}) {
    CAPTURE(static_cast<int>(mode));
    Started s;
    start(s, live.client(), cm, mode);
    CHECK(s.informer->list().size() == n);
    CHECK(name_versions(s.informer->list()) == server_versions(*http, cm));
    const auto calls = s.client->calls();
    if (mode == InitialList::streaming) {
      CHECK(calls == std::vector<std::string>{"watch initial-events"});
    } else {
      CHECK(calls.size() == n / 500 + 1);  // the pages, then the watch
      CHECK(calls.back() == "watch");
    }
  }
}
