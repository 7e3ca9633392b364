// The latency of one real change while the initial list's keys wait (docs/benchmarks.md, issue
// 27): a controller with one worker starts over N existing objects; once its first reconcile
// runs, one new object is created, and the time from that create to the start of its reconcile is
// measured (and the part of it the key spent queued, from the informer's delivery), with
// controller-runtime's priority queue (initial-list keys at low priority) and
// with one FIFO queue, side by side in one run. In-process cluster, informer cache and controller;
// each reconcile sleeps --work-us to stand for its API calls.
//
// Usage: bench_priority_queue [--items N] [--work-us U]   (defaults 10000, 200)
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <future>
#include <memory>
#include <string>
#include <thread>

#include "bench_util.hpp"
#include "rr/cluster/cluster.hpp"
#include "rr/controller/controller.hpp"
#include "rr/controller/informer_cache.hpp"

namespace {

using Clock = std::chrono::steady_clock;

rr::KindInfo widget_kind() {
  return rr::KindInfo{{"bench.example.dev", "v1", "Widget"}, "widgets", "WidgetList", rr::Scope::Namespaced, false};
}

rr::Json widget(const std::string& name) {
  return rr::Json{{"apiVersion", "bench.example.dev/v1"},
                  {"kind", "Widget"},
                  {"metadata", {{"namespace", "default"}, {"name", name}}}};
}

// What the reconciler saw: how many reconciles started, and when and at which place the change's did.
struct Seen {
  std::atomic<long> started{0};
  std::atomic<long> change_position{-1};
  std::atomic<Clock::rep> change_delivered{0};  // when the informer handed the add to the handlers
  Clock::time_point change_started{};
  std::promise<void> change_done;
};

struct SleepingReconciler {
  std::shared_ptr<Seen> seen;
  std::chrono::microseconds work;

  rr::Outcome reconcile(const rr::Request& request, const rr::RequestOptions&) const {
    const long position = seen->started.fetch_add(1);
    if (request.name == "changed") {
      seen->change_started = Clock::now();
      seen->change_position = position;
      seen->change_done.set_value();
    }
    std::this_thread::sleep_for(work);
    return {};
  }
  void validate(rr::Validation&) const {}
  void setup(rr::Setup& s) const { s.for_kind(widget_kind()); }
  std::string display_name() const { return "SleepingReconciler"; }
};

struct Figures {
  double latency_ms = 0;
  double queued_ms = 0;  // from the informer's delivery (the enqueue) to the reconcile
  long position = 0;     // reconciles started between the create and the change's
  double start_s = 0;    // controller start to its first reconcile (list + sync)
};

Figures run(bool use_priority_queue, int items, std::chrono::microseconds work) {
  auto cluster = std::make_shared<rr::Cluster>();
  cluster->register_kind(widget_kind());
  for (int i = 0; i < items; ++i) cluster->create(widget_kind(), widget("w" + std::to_string(i)));
  auto api = std::make_shared<rr::ClusterClient>(cluster);
  rr::InformerCacheOptions cache_options;
  cache_options.informer.poll_interval = std::chrono::milliseconds(5);
  auto cache = std::make_shared<rr::InformerCache>(api, cache_options);
  auto seen = std::make_shared<Seen>();
  auto change_done = seen->change_done.get_future();
  rr::ControllerOptions options;
  options.name = "widget";
  options.use_priority_queue = use_priority_queue;
  auto controller = std::make_shared<rr::Controller>(
      std::move(options),
      [seen, work](const rr::Config&) -> rr::Reconciler {
        return SleepingReconciler{seen, work};
      },
      api, cache);

  // Registered before the controller's handler, so called just before it queues the change.
  rr::InformerHandlers delivered;
  delivered.on_add = [seen](const rr::Json& o) {
    if (rr::key_of(o).name == "changed") seen->change_delivered = Clock::now().time_since_epoch().count();
  };
  const auto informer = cache->get_or_create(widget_kind());
  const auto handler = informer->add_handlers(delivered);
  const auto began = Clock::now();
  std::jthread cache_thread([cache](std::stop_token stop) { cache->start(stop); });
  std::jthread controller_thread([controller](std::stop_token stop) { controller->start(stop); });
  while (seen->started.load() == 0) std::this_thread::sleep_for(std::chrono::microseconds(100));
  Figures f;
  f.start_s = std::chrono::duration<double>(Clock::now() - began).count();
  const long before_create = seen->started.load();
  const auto created = Clock::now();
  cluster->create(widget_kind(), widget("changed"));
  change_done.wait();
  f.latency_ms = std::chrono::duration<double, std::milli>(seen->change_started - created).count();
  f.position = seen->change_position.load() - before_create;
  f.queued_ms = std::chrono::duration<double, std::milli>(
                    seen->change_started - Clock::time_point(Clock::duration(seen->change_delivered.load())))
                    .count();
  informer->remove_handlers(handler);
  controller_thread.request_stop();  // the keys still queued are dropped
  controller_thread.join();
  cache_thread.request_stop();
  return f;
}

}  // namespace

int main(int argc, char** argv) {
  int items = 10000;
  long work_us = 200;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--items") == 0 && i + 1 < argc) {
      items = std::atoi(argv[++i]);
    } else if (std::strcmp(argv[i], "--work-us") == 0 && i + 1 < argc) {
      work_us = std::atol(argv[++i]);
    } else {
      std::fprintf(stderr, "usage: %s [--items N] [--work-us U]\n", argv[0]);
      return 2;
    }
  }
  if (items < 1 || work_us < 0) {
    std::fprintf(stderr, "--items must be at least 1 and --work-us not negative\n");
    return 2;
  }
  const std::chrono::microseconds work(work_us);
  std::printf("One real change while %d initial-list keys wait; 1 worker, %ld us per reconcile (%s build, %s)\n", items,
              work_us, RRGEN_BENCH_BUILD_TYPE, bench::compiler_name());
  const Figures with = run(true, items, work);
  const Figures without = run(false, items, work);
  std::printf("%-32s %14s %14s %22s %14s\n", "queue", "latency (ms)", "queued (ms)", "reconciles before it",
              "list+sync (s)");
  for (const auto& [label, f] :
       {std::pair{"priority (default)", with}, std::pair{"FIFO (use_priority_queue=false)", without}}) {
    std::printf("%-32s %14.1f %14.1f %22ld %14.2f\n", label, f.latency_ms, f.queued_ms, f.position, f.start_s);
  }
  return 0;
}
