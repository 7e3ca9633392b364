// WATCH semantics: start points, resume, expiry, bookmarks, selector filtering, timeouts, threads.
#include <atomic>
#include <thread>

#include "test_support.hpp"

using namespace cluster_test;
using std::chrono::milliseconds;

namespace {

constexpr milliseconds no_wait{0};

std::vector<std::pair<rr::WatchEventType, std::string>> drain(rr::Watch& watch) {
  std::vector<std::pair<rr::WatchEventType, std::string>> out;
  while (auto event = watch.next(no_wait)) {
    out.emplace_back(event->type, event->object["metadata"].value("name", ""));
  }
  return out;
}

using E = rr::WatchEventType;

}  // namespace

TEST_CASE("watch from \"\" or \"0\": the current state as ADDED, then live events") {
  auto cluster = make_cluster();
  cluster->create(config_map_kind(), config_map("default", "b"));
  cluster->create(config_map_kind(), config_map("default", "a"));
  cluster->create(thing_kind(), thing("default", "other-kind"));
  for (const char* start : {"", "0"}) {
    auto watch = cluster->watch(config_map_kind(), since(start));
    CHECK(drain(*watch) == std::vector<std::pair<E, std::string>>{{E::Added, "a"}, {E::Added, "b"}});
  }
  auto watch = cluster->watch(config_map_kind(), {});
  drain(*watch);
  Json a = cluster->get(config_map_kind(), {"default", "a"});
  a["data"] = {{"k", "v"}};
  cluster->update(config_map_kind(), a);
  cluster->remove(config_map_kind(), {"default", "b"});
  CHECK(drain(*watch) == std::vector<std::pair<E, std::string>>{{E::Modified, "a"}, {E::Deleted, "b"}});
}

TEST_CASE("watch from a resourceVersion resumes with the events after it") {
  auto cluster = make_cluster();
  cluster->create(config_map_kind(), config_map("default", "a"));
  const std::string mark = cluster->resource_version();
  cluster->create(config_map_kind(), config_map("default", "b"));
  cluster->remove(config_map_kind(), {"default", "a"});
  auto watch = cluster->watch(config_map_kind(), since(mark));
  const auto events = drain(*watch);
  CHECK(events == std::vector<std::pair<E, std::string>>{{E::Added, "b"}, {E::Deleted, "a"}});
  CHECK_FALSE(watch->stopped());
}

TEST_CASE("watch from a resourceVersion older than the history: ERROR 410 Expired, then the end") {
  rr::ClusterOptions options;
  options.watch_history = 2;
  auto cluster = make_cluster(options);
  for (const char* name : {"a", "b", "c", "d"}) cluster->create(config_map_kind(), config_map("default", name));
  CHECK_NOTHROW(drain(*cluster->watch(config_map_kind(), since("2"))));
  auto watch = cluster->watch(config_map_kind(), since("1"));
  auto event = watch->next(no_wait);
  REQUIRE(event);
  CHECK(event->type == E::Error);
  const rr::Status status = rr::Status::from_json(event->object);
  CHECK(status.code == 410);
  CHECK(status.reason == "Expired");
  CHECK(status.message == "too old resource version: 1 (2)");
  CHECK_FALSE(watch->next(no_wait));
  CHECK(watch->stopped());
}

TEST_CASE("watch: a resourceVersion that is not a number is the watch cache's reasonless 500") {
  auto cluster = make_cluster();
  CHECK(failure_of([&] { cluster->watch(config_map_kind(), since("abc")); }).code == 500);
}

TEST_CASE("watch bookmarks: one after the initial events, with the initial-events-end annotation") {
  auto cluster = make_cluster();
  cluster->create(config_map_kind(), config_map("default", "a"));
  rr::ListOptions options;
  options.allow_watch_bookmarks = true;
  auto watch = cluster->watch(config_map_kind(), options);
  auto added = watch->next(no_wait);
  REQUIRE(added);
  CHECK(added->type == E::Added);
  auto bookmark = watch->next(no_wait);
  REQUIRE(bookmark);
  CHECK(bookmark->type == E::Bookmark);
  CHECK(bookmark->object == Json{{"apiVersion", "v1"},
                                 {"kind", "ConfigMap"},
                                 {"metadata",
                                  {{"resourceVersion", "1"},
                                   {"annotations", {{"k8s.io/initial-events-end", "true"}}}}}});
  // Without allowWatchBookmarks there is none.
  auto plain = cluster->watch(config_map_kind(), {});
  CHECK(drain(*plain) == std::vector<std::pair<E, std::string>>{{E::Added, "a"}});
}

TEST_CASE("watch with a label selector: leaving it is DELETED, entering it is ADDED") {
  auto cluster = make_cluster();
  Json object = config_map("default", "a");
  object["metadata"]["labels"] = {{"app", "web"}};
  object = cluster->create(config_map_kind(), object);
  cluster->create(config_map_kind(), config_map("default", "unlabelled"));
  rr::ListOptions options;
  options.label_selector = "app=web";
  auto watch = cluster->watch(config_map_kind(), options);
  CHECK(drain(*watch) == std::vector<std::pair<E, std::string>>{{E::Added, "a"}});

  object["metadata"]["labels"]["app"] = "db";
  object = cluster->update(config_map_kind(), object);
  auto left = watch->next(no_wait);
  REQUIRE(left);
  CHECK(left->type == E::Deleted);
  CHECK(left->object["metadata"]["labels"]["app"] == "web");            // the content it matched with
  CHECK(rv_of(left->object) == rv_of(object));                          // at the new version

  object["metadata"]["labels"]["app"] = "web";
  cluster->update(config_map_kind(), object);
  CHECK(drain(*watch) == std::vector<std::pair<E, std::string>>{{E::Added, "a"}});
}

TEST_CASE("watch with a field selector on the name (kubectl's watch of one object)") {
  auto cluster = make_cluster();
  rr::ListOptions options;
  options.field_selector = "metadata.name=b";
  auto watch = cluster->watch(config_map_kind(), options);
  cluster->create(config_map_kind(), config_map("default", "a"));
  cluster->create(config_map_kind(), config_map("default", "b"));
  CHECK(drain(*watch) == std::vector<std::pair<E, std::string>>{{E::Added, "b"}});
}

TEST_CASE("watch within a namespace") {
  auto cluster = make_cluster();
  rr::ListOptions options;
  options.namespace_ = "team";
  auto watch = cluster->watch(config_map_kind(), options);
  cluster->create(config_map_kind(), config_map("default", "a"));
  cluster->create(config_map_kind(), config_map("team", "b"));
  CHECK(drain(*watch) == std::vector<std::pair<E, std::string>>{{E::Added, "b"}});
}

TEST_CASE("watch timeout_seconds closes the stream") {
  auto cluster = make_cluster();
  rr::ListOptions options;
  options.timeout_seconds = 1;
  auto watch = cluster->watch(config_map_kind(), options);
  const auto start = std::chrono::steady_clock::now();
  CHECK_FALSE(watch->next(milliseconds(5000)));
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(4));
  CHECK(watch->stopped());
}

TEST_CASE("watch: stop() from another thread unblocks next()") {
  auto cluster = make_cluster();
  auto watch = cluster->watch(config_map_kind(), {});
  std::thread stopper([&] {
    std::this_thread::sleep_for(milliseconds(50));
    watch->stop();
  });
  const auto start = std::chrono::steady_clock::now();
  CHECK_FALSE(watch->next(milliseconds(10000)));
  stopper.join();
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
  CHECK(watch->stopped());
  // A stopped watch no longer receives events.
  cluster->create(config_map_kind(), config_map("default", "late"));
  CHECK_FALSE(watch->next(no_wait));
}

TEST_CASE("watch in another thread sees every write, in order, while the writer runs") {
  auto cluster = make_cluster();
  auto watch = cluster->watch(config_map_kind(), since("0"));
  constexpr int writes = 200;
  std::vector<std::string> seen;
  std::thread reader([&] {
    while (static_cast<int>(seen.size()) < writes) {
      auto event = watch->next(milliseconds(5000));
      if (!event) break;
      seen.push_back(rv_of(event->object));
    }
  });
  for (int i = 0; i < writes; ++i) {
    cluster->create(config_map_kind(), config_map("default", "cm-" + std::to_string(i)));
  }
  reader.join();
  REQUIRE(seen.size() == static_cast<std::size_t>(writes));
  for (int i = 0; i < writes; ++i) CHECK(seen[static_cast<std::size_t>(i)] == std::to_string(i + 1));
}
