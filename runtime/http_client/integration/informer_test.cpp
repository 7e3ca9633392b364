// rr::Informer over rr::HttpClient: what the informer holds must end equal to what the server
// lists, even when the server cuts watch streams and answers 410 Expired along the way.
#include <doctest/doctest.h>

#include <atomic>
#include <map>
#include <mutex>
#include <random>
#include <stop_token>
#include <string>
#include <thread>

#include "live_cluster.hpp"
#include "rr/controller/informer.hpp"

using namespace rr;
using namespace rr::integration;
using namespace std::chrono_literals;

namespace {

// name → resourceVersion, of a list answer, of the informer's store, or of what its handlers saw.
using Versions = std::map<std::string, std::string>;

Versions versions_of(const std::vector<Json>& objects) {
  Versions out;
  for (const Json& o : objects) out[o["metadata"]["name"]] = o["metadata"]["resourceVersion"];
  return out;
}

Versions listed(HttpClient& client, const KindInfo& kind) {
  const Json list = client.list(kind, {.namespace_ = "default"});
  return versions_of(list["items"].get<std::vector<Json>>());
}

// The informer's view as its handlers built it (not its store): both must converge.
struct HandlerView {
  std::mutex mutex;
  Versions versions;
  std::atomic<int> adds{0}, updates{0}, deletes{0};
  InformerHandlers handlers() {
    return {
        .on_add = [this](const Json& o) { set(o, adds); },
        .on_update = [this](const Json&, const Json& o) { set(o, updates); },
        .on_delete =
            [this](const Json& o) {
              std::lock_guard lock(mutex);
              versions.erase(o["metadata"]["name"].get<std::string>());
              ++deletes;
            },
    };
  }
  void set(const Json& o, std::atomic<int>& counter) {
    std::lock_guard lock(mutex);
    versions[o["metadata"]["name"]] = o["metadata"]["resourceVersion"];
    ++counter;
  }
  Versions snapshot() {
    std::lock_guard lock(mutex);
    return versions;
  }
};

InformerOptions quick_informer() {
  InformerOptions options;
  options.namespace_ = "default";
  options.initial_backoff = 20ms;
  options.max_backoff = 200ms;
  options.poll_interval = 100ms;
  return options;
}

// Creates, updates and deletes ConfigMaps cm-0..cm-(n-1) in a seeded random order.
void churn(HttpClient& writer, const KindInfo& cm, int writes, int names, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  for (int i = 0; i < writes; ++i) {
    const std::string name = "cm-" + std::to_string(random() % static_cast<std::uint64_t>(names));
    const int op = static_cast<int>(random() % 3);
    try {
      if (op == 0) {
        writer.create(cm, config_map("default", name, {{"i", std::to_string(i)}}));
      } else if (op == 1) {
        writer.patch(cm, {"default", name}, PatchType::Merge, Json{{"data", {{"i", std::to_string(i)}}}}.dump());
      } else {
        writer.remove(cm, {"default", name});
      }
    } catch (const ApiError& e) {
      // The random order creates what exists and changes what does not: those answers are expected.
      if (!is_already_exists(e.status()) && !is_not_found(e.status())) throw;
    }
  }
}

}  // namespace

TEST_CASE("an informer over HTTP syncs, then follows creates, updates and deletes") {
  LiveCluster live;
  auto client = live.client();
  auto writer = live.client();
  const KindInfo cm = client->kind_info(config_map_gvk());
  writer->create(cm, config_map("default", "before"));

  Informer informer(client, cm, quick_informer());
  HandlerView view;
  informer.add_handlers(view.handlers());
  std::jthread thread([&](std::stop_token stop) { informer.run(stop); });
  REQUIRE(informer.wait_for_sync(thread.get_stop_token(), 5s));
  CHECK(informer.get({"default", "before"}).has_value());

  writer->create(cm, config_map("default", "new"));
  writer->patch(cm, {"default", "before"}, PatchType::Merge, R"({"data":{"k":"v"}})");
  writer->remove(cm, {"default", "new"});
  REQUIRE(wait_until([&] { return versions_of(informer.list()) == listed(*writer, cm); }));
  CHECK(wait_until([&] { return view.snapshot() == listed(*writer, cm); }));
  CHECK(informer.get({"default", "before"}).value()["data"]["k"] == "v");
  CHECK(view.adds == 2);
  CHECK(view.updates == 1);
  CHECK(view.deletes == 1);
  CHECK(informer.last_resource_version() == live.cluster().resource_version());
}

TEST_CASE("slow: an informer survives watch streams cut every 3 events and 410 Expired answers") {
  ClusterOptions cluster_options;
  cluster_options.watch_history = 20;  // a resumed watch that fell behind gets 410 for real
  LiveCluster live({}, cluster_options);
  auto client = live.client();
  auto writer = live.client();
  const KindInfo cm = client->kind_info(config_map_gvk());
  churn(*writer, cm, 30, 10, 1);

  FaultOptions faults;
  faults.drop_watch_after_events = 3;
  faults.expire_rate = 0.3;
  faults.seed = 42;
  live.server().set_faults(faults);

  std::atomic<int> errors{0};
  InformerOptions options = quick_informer();
  options.on_error = [&](std::string_view) { ++errors; };
  Informer informer(client, cm, options);
  HandlerView view;
  informer.add_handlers(view.handlers());
  std::jthread thread([&](std::stop_token stop) { informer.run(stop); });
  REQUIRE(informer.wait_for_sync(thread.get_stop_token(), 10s));

  // Bursts faster than the informer re-watches, with pauses so that it catches up in between.
  for (int burst = 0; burst < 6; ++burst) {
    churn(*writer, cm, 25, 12, 100 + static_cast<std::uint64_t>(burst));
    std::this_thread::sleep_for(100ms);
  }
  const Versions expected = listed(*writer, cm);
  const bool converged = wait_until([&] { return versions_of(informer.list()) == expected; }, 20s);
  const FaultCounters injected = live.server().fault_counters();
  MESSAGE("watches dropped: " << injected.watches_dropped << ", 410s injected: " << injected.expired
                              << ", objects: " << expected.size() << ", handler calls: " << view.adds << " add / "
                              << view.updates << " update / " << view.deletes << " delete, informer errors: "
                              << errors.load());
  CHECK(converged);
  CHECK(wait_until([&] { return view.snapshot() == expected; }));
  CHECK(injected.watches_dropped > 5);
  CHECK(injected.expired > 0);
  CHECK(errors.load() >= 1);  // each 410 is a failure the informer reports, then relists
}
