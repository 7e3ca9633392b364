// Watch streams over HTTP: resuming from a resourceVersion (no duplicates, no gaps), bookmarks and
// the streaming-list bookmark, 410 Expired on a resourceVersion older than the server's history
// followed by a relist, and timeoutSeconds.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "live_cluster.hpp"

using namespace rr;
using namespace rr::integration;
using namespace std::chrono_literals;

namespace {

std::string watched_rv_of(const Json& object) { return object["metadata"]["resourceVersion"].get<std::string>(); }

// Reads `count` events (each within 5 s); fails the test when the stream runs dry first.
std::vector<WatchEvent> take(Watch& watch, std::size_t count) {
  std::vector<WatchEvent> events;
  while (events.size() < count) {
    auto e = watch.next(5s);
    REQUIRE_MESSAGE(e.has_value(), "the watch delivered " << events.size() << " of " << count << " events");
    events.push_back(std::move(*e));
  }
  return events;
}

// A write and the resourceVersion it produced, for comparison with watch events.
struct Write {
  WatchEventType type;
  std::string name;
  std::string resource_version;
};

}  // namespace

TEST_CASE("a watch resumed from the last resourceVersion seen misses nothing and repeats nothing") {
  LiveCluster live;
  auto client = live.client();
  auto writer = live.client();
  const KindInfo cm = client->kind_info(config_map_gvk());
  for (int i = 0; i < 3; ++i) writer->create(cm, config_map("default", "pre-" + std::to_string(i)));
  const std::string listed = client->list(cm, {.namespace_ = "default"})["metadata"]["resourceVersion"];

  std::vector<Write> writes;
  auto write_batch = [&](int from, int to) {
    for (int i = from; i < to; ++i) {
      const std::string name = "cm-" + std::to_string(i);
      writes.push_back({WatchEventType::Added, name, watched_rv_of(writer->create(cm, config_map("default", name)))});
      Json changed = writer->patch(cm, {"default", name}, PatchType::Merge, R"({"data":{"k":"v"}})");
      writes.push_back({WatchEventType::Modified, name, watched_rv_of(changed)});
      if (i % 2 == 0) {
        // The DELETED event's resourceVersion is the deletion's own; only its order is checked.
        writes.push_back({WatchEventType::Deleted, name, ""});
        writer->remove(cm, {"default", name});
      }
    }
  };

  auto first = client->watch(cm, {.namespace_ = "default", .resource_version = listed});
  write_batch(0, 4);
  std::vector<WatchEvent> seen = take(*first, writes.size());
  first->stop();
  const std::string resume_from = watched_rv_of(seen.back().object);

  write_batch(4, 9);  // nobody watches while these happen
  auto second = client->watch(cm, {.namespace_ = "default", .resource_version = resume_from});
  const std::size_t still_due = writes.size() - seen.size();
  for (WatchEvent& e : take(*second, still_due)) seen.push_back(std::move(e));
  CHECK_FALSE(second->next(300ms).has_value());  // nothing more: no duplicates at the end
  second->stop();

  REQUIRE(seen.size() == writes.size());
  for (std::size_t i = 0; i < writes.size(); ++i) {
    CAPTURE(i);
    CHECK(seen[i].type == writes[i].type);
    CHECK(seen[i].object["metadata"]["name"] == writes[i].name);
    if (!writes[i].resource_version.empty()) CHECK(watched_rv_of(seen[i].object) == writes[i].resource_version);
    if (i > 0) CHECK(std::stoll(watched_rv_of(seen[i].object)) > std::stoll(watched_rv_of(seen[i - 1].object)));
  }
}

TEST_CASE("bookmarks: after the initial objects, and the streaming list's initial-events-end") {
  LiveCluster live;
  auto client = live.client();
  const KindInfo cm = client->kind_info(config_map_gvk());
  client->create(cm, config_map("default", "a"));
  client->create(cm, config_map("default", "b"));
  const std::string current = live.cluster().resource_version();

  SUBCASE("allowWatchBookmarks from the current state") {
    auto watch = client->watch(cm, {.namespace_ = "default", .allow_watch_bookmarks = true});
    const auto events = take(*watch, 3);
    CHECK(events[0].type == WatchEventType::Added);
    CHECK(events[1].type == WatchEventType::Added);
    CHECK(events[2].type == WatchEventType::Bookmark);
    CHECK(watched_rv_of(events[2].object) == current);
    CHECK(events[2].object["kind"] == "ConfigMap");
    // A client resumes from the bookmark's resourceVersion: the next change, nothing before it.
    watch->stop();
    auto resumed = client->watch(cm, {.namespace_ = "default", .resource_version = watched_rv_of(events[2].object)});
    client->create(cm, config_map("default", "c"));
    const auto next = take(*resumed, 1);
    CHECK(next[0].object["metadata"]["name"] == "c");
  }
  SUBCASE("without allowWatchBookmarks there is none") {
    auto watch = client->watch(cm, {.namespace_ = "default"});
    take(*watch, 2);
    CHECK_FALSE(watch->next(300ms).has_value());
  }
  SUBCASE("sendInitialEvents: the state, then the bookmark annotated k8s.io/initial-events-end") {
    auto watch = client->watch(cm, {.namespace_ = "default",
                                    .allow_watch_bookmarks = true,
                                    .resource_version_match = "NotOlderThan",
                                    .send_initial_events = true});
    const auto events = take(*watch, 3);
    CHECK(events[2].type == WatchEventType::Bookmark);
    CHECK(events[2].object["metadata"]["annotations"]["k8s.io/initial-events-end"] == "true");
    CHECK(watched_rv_of(events[2].object) == current);
    // Without bookmarks the server refuses the streaming list (422).
    CHECK(is_invalid(status_of([&] {
      client->watch(cm, {.namespace_ = "default", .resource_version_match = "NotOlderThan", .send_initial_events = true});
    })));
  }
}

TEST_CASE("a resourceVersion older than the server's history: 410 Expired, then a relist and a new watch") {
  ClusterOptions small_history;
  small_history.watch_history = 3;
  LiveCluster live({}, small_history);
  auto client = live.client();
  const KindInfo cm = client->kind_info(config_map_gvk());
  const std::string old = watched_rv_of(client->create(cm, config_map("default", "first")));
  for (int i = 0; i < 6; ++i) client->create(cm, config_map("default", "cm-" + std::to_string(i)));

  // The watch is answered 200; the stream's only event is the ERROR, then it ends.
  auto watch = client->watch(cm, {.namespace_ = "default", .resource_version = old});
  const auto events = take(*watch, 1);
  REQUIRE(events[0].type == WatchEventType::Error);
  const Status expired = Status::from_json(events[0].object);
  CHECK(is_gone(expired));
  CHECK(expired.code == 410);
  CHECK(expired.reason == "Expired");
  CHECK_FALSE(watch->next(2s).has_value());
  CHECK(watch->stopped());

  // A list pinned to that version (Exact) is refused the same way.
  CHECK(is_gone(status_of([&] {
    client->list(cm, {.namespace_ = "default", .resource_version = old, .resource_version_match = "Exact"});
  })));

  // Relist: the whole state and a fresh resourceVersion to watch from.
  const Json relisted = client->list(cm, {.namespace_ = "default"});
  CHECK(relisted["items"].size() == 7);
  auto rewatch = client->watch(cm, {.namespace_ = "default", .resource_version = watched_rv_of(relisted)});
  client->create(cm, config_map("default", "after"));
  const auto fresh = take(*rewatch, 1);
  CHECK(fresh[0].type == WatchEventType::Added);
  CHECK(fresh[0].object["metadata"]["name"] == "after");
}

TEST_CASE("injected expiry: lists naming a resourceVersion get an HTTP 410, watches an ERROR event") {
  LiveCluster live;
  auto client = live.client();
  const KindInfo cm = client->kind_info(config_map_gvk());
  const std::string rv = watched_rv_of(client->create(cm, config_map("default", "a")));
  FaultOptions faults;
  faults.expire_rate = 1;
  live.server().set_faults(faults);
  CHECK(is_gone(status_of([&] { client->list(cm, {.namespace_ = "default", .resource_version = rv}); })));
  auto watch = client->watch(cm, {.namespace_ = "default", .resource_version = rv});
  const auto events = take(*watch, 1);
  CHECK(events[0].type == WatchEventType::Error);
  CHECK(is_gone(Status::from_json(events[0].object)));
  // "" and "0" never expire: that is how a client recovers.
  CHECK(client->list(cm, {.namespace_ = "default"})["items"].size() == 1);
  CHECK(live.server().fault_counters().expired == 2);
}

TEST_CASE("slow: timeoutSeconds ends the stream cleanly and the watch reports stopped") {
  LiveCluster live;
  auto client = live.client();
  const KindInfo cm = client->kind_info(config_map_gvk());
  const auto started = std::chrono::steady_clock::now();
  auto watch = client->watch(cm, {.namespace_ = "default", .timeout_seconds = 1});
  CHECK_FALSE(watch->next(3s).has_value());
  CHECK(watch->stopped());
  const auto took = std::chrono::steady_clock::now() - started;
  CHECK(took >= 900ms);
  CHECK(took < 2500ms);
}
