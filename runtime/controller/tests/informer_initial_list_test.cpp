// The informer's initial state over the in-process cluster: streamed (sendInitialEvents, the
// default), listed in pages, or in one list; the fallback from streaming to pages; the pager's
// full list after a 410 on a continuation page. Each asserts the requests made and that the
// store ends up exactly the cluster's objects.
#include <doctest/doctest.h>

#include <optional>
#include <set>

#include "informer_test_support.hpp"

using namespace rr;
using namespace rr::test;
using namespace std::chrono_literals;

namespace {

// Three pages of kPage (the HTTP integration tests use the default 500 with 1,500 objects; here
// the pages are smaller so that the test stays quick).
constexpr int kObjects = 250;
constexpr std::int64_t kPage = 100;

// A client whose streaming watches end after `events` events, before the initial-events-end
// bookmark: at once (0), as a proxy or server that drops the request might, or part way, as one
// that cuts long streams.
class ShortStreamClient final : public ForwardingClient {
 public:
  ShortStreamClient(std::shared_ptr<Client> inner, std::size_t events)
      : ForwardingClient(std::move(inner)), events_(events) {}

 protected:
  std::unique_ptr<Watch> do_watch(const KindInfo& kind, const ListOptions& opts) override {
    if (!opts.send_initial_events) return ForwardingClient::do_watch(kind, opts);
    struct Cut final : Watch {
      Cut(std::unique_ptr<Watch> w, std::size_t n) : inner(std::move(w)), left(n) {}
      std::optional<WatchEvent> next(std::chrono::milliseconds timeout) override {
        if (left == 0) return std::nullopt;
        auto event = inner->next(timeout);
        if (event) --left;
        return event;
      }
      void stop() override { inner->stop(); }
      bool stopped() const override { return left == 0 || inner->stopped(); }
      std::unique_ptr<Watch> inner;
      std::size_t left;
    };
    return std::make_unique<Cut>(ForwardingClient::do_watch(kind, opts), events_);
  }

 private:
  std::size_t events_;
};

struct StartFixture {
  std::shared_ptr<Cluster> cluster;
  std::shared_ptr<CountingClient> client;
  std::shared_ptr<Informer> informer;
  Recorder recorder;
  std::vector<std::string> errors;
  std::mutex errors_mutex;
  std::jthread thread;

  // cut_streams_after: the streaming watches end after that many events (ShortStreamClient).
  explicit StartFixture(InformerOptions options = fast_options(), ClusterOptions cluster_options = {},
                        std::optional<std::size_t> cut_streams_after = std::nullopt)
      : cluster(make_cluster(std::move(cluster_options))) {
    for (int i = 0; i < kObjects; ++i) create("w-" + std::to_string(i));
    std::shared_ptr<Client> base = std::make_shared<ClusterClient>(cluster);
    if (cut_streams_after) base = std::make_shared<ShortStreamClient>(base, *cut_streams_after);
    client = std::make_shared<CountingClient>(base);
    options.page_size = kPage;
    options.on_error = [this](std::string_view message) {
      std::lock_guard lock(errors_mutex);
      errors.emplace_back(message);
    };
    informer = std::make_shared<Informer>(client, widget_kind(), std::move(options));
    informer->add_handlers(recorder.handlers());
  }
  void create(const std::string& name) { cluster->create(widget_kind(), object(widget_kind(), "default", name)); }
  void start() {
    thread = std::jthread([i = informer](std::stop_token stop) { i->run(stop); });
    REQUIRE(informer->wait_for_sync(thread.get_stop_token(), 10s));
  }
  // Keys and resourceVersions: of the store, and of the cluster.
  std::set<std::string> stored() const {
    std::set<std::string> out;
    for (const Json& o : informer->list())
      out.insert(key_of(o).str() + "@" + o["metadata"]["resourceVersion"].get<std::string>());
    return out;
  }
  std::set<std::string> in_cluster() const {
    std::set<std::string> out;
    const Json list = cluster->list(widget_kind(), {});
    for (const Json& o : list["items"]) {
      out.insert(key_of(o).str() + "@" + o["metadata"]["resourceVersion"].get<std::string>());
    }
    return out;
  }
  std::vector<std::string> reported() {
    std::lock_guard lock(errors_mutex);
    return errors;
  }
  // A write after the sync reaches the store.
  void check_watching() {
    create("after");
    CHECK(eventually([&] { return informer->get({"default", "after"}).has_value(); }));
    CHECK(stored() == in_cluster());
  }
};

// The limit and whether a continue token was sent, of each list call: "100", "100+continue", "0".
std::vector<std::string> pages(CountingClient& client) {
  std::vector<std::string> out;
  for (const ListOptions& o : client.list_calls()) {
    out.push_back(std::to_string(o.limit) + (o.continue_.empty() ? "" : "+continue"));
  }
  return out;
}

InformerOptions with(InitialList mode) {
  InformerOptions o = fast_options();
  o.initial_list = mode;
  return o;
}

}  // namespace

TEST_CASE("initial list: streaming by default, no list request, the same stream goes on as the watch") {
  StartFixture f;
  f.start();
  CHECK(f.client->streams == 1);
  CHECK(f.client->lists == 0);
  CHECK(f.stored() == f.in_cluster());
  CHECK(f.stored().size() == kObjects);
  CHECK(f.recorder.size() == kObjects);  // one add each, delivered at the replace
  CHECK(f.informer->last_resource_version() == f.cluster->resource_version());
  f.check_watching();
  CHECK(f.client->watches == 1);  // no second watch: the initial stream carried the new object
}

TEST_CASE("initial list: paged lists a page at a time with continue tokens, then watches from the list") {
  CHECK(InformerOptions{}.page_size == 500);  // client-go's pager's default
  CHECK(InformerOptions{}.initial_list == InitialList::streaming);
  StartFixture f(with(InitialList::paged));
  f.start();
  CHECK(f.client->streams == 0);
  CHECK(pages(*f.client) == std::vector<std::string>{"100", "100+continue", "100+continue"});
  const auto calls = f.client->list_calls();
  CHECK(calls[1].continue_ != calls[2].continue_);
  CHECK(f.stored() == f.in_cluster());
  f.check_watching();
}

TEST_CASE("initial list: a server that refuses streaming (422) gets a paged list instead") {
  StartFixture f;
  f.client->refuse_streaming = true;
  f.start();
  CHECK(f.client->streams == 1);
  CHECK(pages(*f.client) == std::vector<std::string>{"100", "100+continue", "100+continue"});
  CHECK(f.stored() == f.in_cluster());
  const auto errors = f.reported();
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].find("Widget informer: streaming list refused: ListOptions.meta.k8s.io \"\" is invalid: "
                       "sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch") == 0);
  f.check_watching();
}

TEST_CASE("initial list: a stream that ends at once without any event falls back to pages") {
  StartFixture f(fast_options(), {}, /*cut_streams_after=*/0);
  f.start();
  CHECK(f.client->streams == 1);
  CHECK(pages(*f.client) == std::vector<std::string>{"100", "100+continue", "100+continue"});
  CHECK(f.stored() == f.in_cluster());
  f.check_watching();
}

TEST_CASE("initial list: streams cut before the bookmark are opened again, three in all, then pages") {
  StartFixture f(fast_options(), {}, /*cut_streams_after=*/10);
  f.start();
  CHECK(f.client->streams == 3);
  CHECK(pages(*f.client) == std::vector<std::string>{"100", "100+continue", "100+continue"});
  CHECK(f.stored() == f.in_cluster());
  CHECK(f.recorder.size() == kObjects);  // the cut streams' events were never delivered
  const auto errors = f.reported();
  REQUIRE(errors.size() == 1);
  CHECK(errors[0] == "Widget informer: streaming list cut 3 times before its end; listing instead");
  f.check_watching();
}

TEST_CASE("initial list: a 410 on a continuation page lists again in one request (the pager's full list)") {
  StartFixture f(with(InitialList::paged));
  f.client->expire_continue = true;
  f.start();
  CHECK(pages(*f.client) == std::vector<std::string>{"100", "100+continue", "0"});
  CHECK(f.stored() == f.in_cluster());
  CHECK(f.stored().size() == kObjects);
  const auto errors = f.reported();
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].find("Widget informer: paged list expired") == 0);
  f.check_watching();
}

TEST_CASE("initial list: unpaged is one list request") {
  StartFixture f(with(InitialList::unpaged));
  f.start();
  CHECK(f.client->streams == 0);
  CHECK(pages(*f.client) == std::vector<std::string>{"0"});
  CHECK(f.stored() == f.in_cluster());
  f.check_watching();
}

TEST_CASE("initial list: writes while the informer streams its initial events are not lost") {
  for (const InitialList mode : {InitialList::streaming, InitialList::paged}) {
    CAPTURE(static_cast<int>(mode));
    StartFixture f(with(mode));
    std::jthread writer([&](std::stop_token stop) {
      for (int i = 0; i < 100 && !stop.stop_requested(); ++i) {
        f.create("during-" + std::to_string(i));
        f.cluster->patch(widget_kind(), {"default", "w-" + std::to_string(i)}, PatchType::Merge,
                         R"({"spec":{"color":"blue"}})");
      }
    });
    f.start();
    writer.join();
    CHECK(eventually([&] { return f.stored() == f.in_cluster(); }));
    CHECK(f.stored().size() == kObjects + 100);
  }
}

TEST_CASE("initial list: a relist after 410 streams again and the difference becomes events") {
  ClusterOptions small_history;
  small_history.watch_history = 2;
  StartFixture f(fast_options(), small_history);
  f.start();
  const auto before = f.recorder.size();
  f.client->hold_watches();
  f.client->drop_watches();
  REQUIRE(eventually([&] { return f.client->watch_calls_waiting() == 1; }));
  f.cluster->remove(widget_kind(), {"default", "w-0"});
  for (const char* name : {"w-1", "w-2", "w-3"}) {
    f.cluster->patch(widget_kind(), {"default", name}, PatchType::Merge, R"({"spec":{"color":"blue"}})");
  }
  f.client->release_watches();  // the resumed watch is 410 Expired (4 events, 2 kept): relist
  REQUIRE(eventually([&] { return f.client->streams == 2; }));
  REQUIRE(f.recorder.wait_for(before + 4));
  CHECK(f.recorder.since(before) == std::vector<std::string>{"update default/w-1", "update default/w-2",
                                                             "update default/w-3", "delete default/w-0 red"});
  CHECK(f.stored() == f.in_cluster());
  CHECK(f.client->lists == 0);
}

TEST_CASE("initial list: a handler added while the informer syncs gets every object once") {
  for (int round = 0; round < 5; ++round) {
    StartFixture f;
    std::atomic<int> adds{0};
    f.thread = std::jthread([i = f.informer](std::stop_token stop) { i->run(stop); });
    std::this_thread::sleep_for(std::chrono::milliseconds(round * 3));  // before, during or after the replace
    // From the replace's events or from the replay of the store once synced: never neither, never both.
    InformerHandlers counting;
    counting.on_add = [&](const Json&) { ++adds; };
    f.informer->add_handlers(std::move(counting));
    REQUIRE(f.informer->wait_for_sync(f.thread.get_stop_token(), 10s));
    CHECK(eventually([&] { return adds == kObjects; }));
    std::this_thread::sleep_for(20ms);
    CHECK(adds == kObjects);
  }
}
