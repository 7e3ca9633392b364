// rr::Informer against the in-process cluster: list, watch, handlers, resume, relist, resync, indexes.
#include <doctest/doctest.h>

#include "informer_test_support.hpp"
#include "rr/controller/fake_clock.hpp"

using namespace rr;
using namespace rr::test;
using namespace std::chrono_literals;
using Lines = std::vector<std::string>;

namespace {

struct InformerFixture {
  std::shared_ptr<Cluster> cluster;
  std::shared_ptr<CountingClient> client;
  std::shared_ptr<Informer> informer;
  Recorder recorder;
  std::jthread thread;

  explicit InformerFixture(InformerOptions options = fast_options(), ClusterOptions cluster_options = {})
      : cluster(make_cluster(std::move(cluster_options))),
        client(std::make_shared<CountingClient>(std::make_shared<ClusterClient>(cluster))),
        informer(std::make_shared<Informer>(client, widget_kind(), std::move(options))) {
    informer->add_handlers(recorder.handlers());
    // A cluster without any write lists at resourceVersion "0", and a watch from "0" starts with
    // the current state instead of the events since: one write makes the event order exact.
    cluster->create(gadget_kind(), object(gadget_kind(), "default", "first-write"));
  }
  void start() {
    thread = std::jthread([i = informer](std::stop_token stop) { i->run(stop); });
    REQUIRE(informer->wait_for_sync(thread.get_stop_token(), 5s));
  }
  Json create(const std::string& name, std::map<std::string, std::string> labels = {}, const std::string& ns = "default") {
    return cluster->create(widget_kind(), object(widget_kind(), ns, name, std::move(labels)));
  }
  Json recolor(const std::string& name, const std::string& color) {
    return cluster->patch(widget_kind(), {"default", name}, PatchType::Merge,
                          Json{{"spec", {{"color", color}}}}.dump());
  }
  void remove(const std::string& name) { cluster->remove(widget_kind(), {"default", name}); }
};

}  // namespace

TEST_CASE("informer: the initial list fills the store, is delivered as adds, and marks it synced") {
  InformerFixture f;
  f.create("a");
  f.create("b", {}, "other");
  CHECK_FALSE(f.informer->has_synced());
  CHECK_FALSE(f.informer->wait_for_sync({}, 20ms));  // not running: never syncs
  f.start();
  CHECK(f.informer->has_synced());
  CHECK(f.recorder.lines() == Lines{"add default/a", "add other/b"});
  CHECK(f.informer->list().size() == 2);
  REQUIRE(f.informer->get({"default", "a"}));
  CHECK((*f.informer->get({"default", "a"}))["spec"]["color"] == "red");
  CHECK_FALSE(f.informer->get({"default", "missing"}));
  CHECK(f.informer->last_resource_version() == f.cluster->resource_version());
  // Streamed (the default): one watch with the initial events, no list.
  CHECK(f.client->streams == 1);
  CHECK(f.client->lists == 0);
}

TEST_CASE("informer: add, update and delete reach the handlers in order") {
  InformerFixture f;
  f.start();
  f.create("a");
  f.recolor("a", "blue");
  f.create("b");
  f.remove("a");
  REQUIRE(f.recorder.wait_for(4));
  CHECK(f.recorder.lines() == Lines{"add default/a", "update default/a", "add default/b", "delete default/a blue"});
  CHECK_FALSE(f.informer->get({"default", "a"}));
  CHECK(f.informer->list().size() == 1);
  // The version advances once the delete's handlers have run (the reflector records it after
  // delivering), so it is awaited, not read at once.
  CHECK(eventually([&] { return f.informer->last_resource_version() == f.cluster->resource_version(); }));
}

TEST_CASE("informer: handlers added after sync first get the stored objects, removed handlers get nothing") {
  InformerFixture f;
  f.create("a");
  f.create("b");
  f.start();
  Recorder late;
  auto id = f.informer->add_handlers(late.handlers());
  CHECK(late.lines() == Lines{"add default/a", "add default/b"});
  f.create("c");
  REQUIRE(late.wait_for(3));
  f.informer->remove_handlers(id);
  f.create("d");
  REQUIRE(f.recorder.wait_for(4));
  CHECK(late.lines() == Lines{"add default/a", "add default/b", "add default/c"});
}

TEST_CASE("informer: a dropped watch resumes from the last resourceVersion without relisting or duplicates") {
  InformerFixture f;
  f.create("a");
  f.start();
  f.create("b");
  REQUIRE(f.recorder.wait_for(2));
  f.client->drop_watches();
  f.recolor("a", "green");  // while no watch is open, or on the resumed one: either way once
  f.create("c");
  REQUIRE(f.recorder.wait_for(4));
  REQUIRE(eventually([&] { return f.client->watches >= 2; }));
  f.create("d");
  REQUIRE(f.recorder.wait_for(5));
  std::this_thread::sleep_for(30ms);  // room for a wrongly repeated event
  CHECK(f.recorder.lines() == Lines{"add default/a", "add default/b", "update default/a", "add default/c", "add default/d"});
  CHECK(f.client->streams == 1);  // the one initial stream: no relist
  CHECK(f.client->lists == 0);
}

TEST_CASE("informer: a 410 on resume relists, and the difference becomes events (the missed delete too)") {
  ClusterOptions small_history;
  small_history.watch_history = 2;
  InformerFixture f(fast_options(), small_history);
  f.create("a");
  f.create("b");
  f.create("keep");
  f.start();
  const auto before = f.recorder.size();
  REQUIRE(eventually([&] { return f.client->watches == 1; }));  // the initial stream goes on as the watch

  f.client->hold_watches();
  f.client->drop_watches();
  REQUIRE(eventually([&] { return f.client->watch_calls_waiting() == 1; }));
  f.recolor("b", "yellow");  // the informer never sees this state of b
  f.remove("b");
  f.recolor("a", "blue");
  f.recolor("a", "black");
  f.create("c");
  f.create("d");
  f.client->release_watches();  // the watch from the old version gets 410 Expired

  REQUIRE(eventually([&] { return f.client->streams == 2; }));  // the relist streams too
  REQUIRE(f.recorder.wait_for(before + 4));
  std::this_thread::sleep_for(30ms);
  // The relist: a changed (once, to its latest state), c and d added, b deleted as last known (red).
  CHECK(f.recorder.since(before) == Lines{"update default/a", "add default/c", "add default/d", "delete default/b red"});
  CHECK((*f.informer->get({"default", "a"}))["spec"]["color"] == "black");
  CHECK(f.informer->list().size() == 4);
  // And it watches again from the relist's version.
  f.create("e");
  REQUIRE(f.recorder.wait_for(before + 5));
  CHECK(f.recorder.lines().back() == "add default/e");
}

TEST_CASE("informer: resync re-delivers every object as an update with old == new") {
  FakeClock clock;
  InformerOptions options = fast_options();
  options.clock = &clock;
  options.resync_period = 10min;
  InformerFixture f(options);
  f.create("a");
  f.create("b");
  f.start();
  REQUIRE(f.recorder.size() == 2);
  clock.advance(5min);
  std::this_thread::sleep_for(50ms);
  CHECK(f.recorder.size() == 2);  // not yet
  clock.advance(5min);
  REQUIRE(f.recorder.wait_for(4));
  CHECK(f.recorder.since(2) == Lines{"resync default/a", "resync default/b"});
  clock.advance(10min);
  REQUIRE(f.recorder.wait_for(6));
  CHECK(f.client->streams == 1);  // a resync is not a relist
  CHECK(f.client->lists == 0);
}

TEST_CASE("informer: indexes follow adds, updates and deletes, the namespace index is built in") {
  InformerFixture f;
  f.informer->add_index("app", [](const Json& o) {
    std::vector<std::string> values;
    const auto labels = o["metadata"].value("labels", Json::object());
    if (labels.contains("app")) values.push_back(labels["app"].get<std::string>());
    return values;
  });
  f.create("a", {{"app", "web"}});
  f.create("b", {{"app", "db"}});
  f.create("c", {{"app", "web"}}, "other");
  f.start();
  auto names = [](const std::vector<Json>& objects) {
    std::vector<std::string> out;
    for (const auto& o : objects) out.push_back(key_of(o).str());
    return out;
  };
  CHECK(names(f.informer->by_index("app", "web")) == Lines{"default/a", "other/c"});
  CHECK(names(f.informer->by_index(namespace_index, "other")) == Lines{"other/c"});
  CHECK(f.informer->store().index_values("app") == Lines{"db", "web"});

  // An index added after sync covers the stored objects.
  f.informer->add_index("color", [](const Json& o) { return std::vector<std::string>{o["spec"].value("color", "")}; });
  CHECK(names(f.informer->by_index("color", "red")).size() == 3);
  CHECK_THROWS_AS(f.informer->add_index("color", [](const Json&) { return std::vector<std::string>{}; }),
                  std::invalid_argument);
  CHECK_THROWS_AS(f.informer->by_index("nope", "x"), std::invalid_argument);

  f.cluster->patch(widget_kind(), {"default", "b"}, PatchType::Merge, R"({"metadata":{"labels":{"app":"web"}}})");
  f.remove("a");
  REQUIRE(f.recorder.wait_for(5));
  CHECK(names(f.informer->by_index("app", "web")) == Lines{"default/b", "other/c"});
  CHECK(f.informer->by_index("app", "db").empty());
  CHECK(f.informer->store().index_values("app") == Lines{"web"});
}

TEST_CASE("informer: a failing list is retried with backoff until it succeeds") {
  auto cluster = std::make_shared<Cluster>();  // the kind is not registered yet: lists fail
  auto client = std::make_shared<CountingClient>(std::make_shared<ClusterClient>(cluster));
  std::vector<std::string> errors;
  std::mutex errors_mutex;
  InformerOptions options = fast_options();
  options.on_error = [&](std::string_view message) {
    std::lock_guard lock(errors_mutex);
    errors.emplace_back(message);
  };
  Informer informer(client, widget_kind(), options);
  std::jthread thread([&](std::stop_token stop) { informer.run(stop); });
  REQUIRE(eventually([&] { return client->lists >= 3; }));
  CHECK_FALSE(informer.has_synced());
  cluster->register_kind(widget_kind());
  REQUIRE(informer.wait_for_sync(thread.get_stop_token(), 5s));
  std::lock_guard lock(errors_mutex);
  REQUIRE(errors.size() >= 2);
  // The stream is refused (404: a refusal, not a retriable error), the paged list then fails.
  CHECK(errors[0].find("Widget informer: streaming list refused") == 0);
  CHECK(errors[1].find("Widget informer: list failed") == 0);
}

TEST_CASE("informer: stop ends run promptly and run cannot be called twice") {
  InformerOptions options = fast_options();
  options.poll_interval = std::chrono::milliseconds(10000);  // stop must not wait for a poll
  InformerFixture f(options);
  f.start();
  const auto t0 = std::chrono::steady_clock::now();
  f.thread.request_stop();
  f.thread.join();
  CHECK(std::chrono::steady_clock::now() - t0 < 2s);
  CHECK_THROWS_AS(f.informer->run({}), std::logic_error);
}
