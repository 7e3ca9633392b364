// A controller (controller-runtime's Controller, as reconciler.io's builder sets it up): informers
// feed a work queue, N workers take keys from it and call the root reconciler. It is an
// rr::Runnable the manager starts once this process leads. See docs/runtime/21-informers-and-controllers.md.
//
//   rr::ControllerOptions options;
//   options.name = "widget";
//   auto controller = std::make_shared<rr::Controller>(
//       std::move(options),
//       [](const rr::Config& config) -> rr::Reconciler { return make_widget_reconciler(config); },
//       api, cache, &manager.metrics());
//   manager.add(controller);
#pragma once
#include <chrono>
#include <functional>
#include <memory>
#include <stop_token>
#include <string>
#include <vector>

#include "rr/client/client.hpp"
#include "rr/controller/clock.hpp"
#include "rr/controller/rate_limiter.hpp"
#include "rr/controller/runnable.hpp"
#include "rr/controller/sources.hpp"
#include "rr/reconcilers/config.hpp"
#include "rr/reconcilers/logger.hpp"
#include "rr/reconcilers/root.hpp"

namespace rr {

class InformerCache;
namespace metrics {
class Registry;
}

// Which Event API the controller's recorder writes.
enum class EventsApi {
  events_v1,  // events.k8s.io/v1 with series (controller-runtime's since v0.23): rr/controller/event_recorder_v1.hpp
  core_v1,    // core/v1 with count (older clusters): make_client_event_recorder
};

struct ControllerOptions {
  // Required: the metrics' `controller` label, the event source, the logs' `controller` value.
  std::string name;
  int max_concurrent_reconciles = 1;
  // nullptr: controller-runtime's default: per-item exponential 5 ms..1000 s, and with
  // use_priority_queue off MaxOf(that, bucket 10 qps/100).
  std::unique_ptr<RateLimiter> rate_limiter{};
  // Exceptions escaping reconcile are caught, counted (controller_runtime_reconcile_panics_total),
  // and the key is requeued with backoff. false: the first one stops the controller and start()
  // rethrows it (which ends the manager).
  bool recover_panic = true;
  Logger log{};
  // The work queue's clock (and the default rate limiter's); nullptr: real time. Must outlive
  // the controller.
  Clock* clock = nullptr;
  // The cache's resync period; tracks made by the reconcilers last twice as long.
  std::chrono::nanoseconds sync_period = std::chrono::hours(10);
  // How long start() waits for the informers to sync before it fails (controller-runtime: 2 min).
  std::chrono::steady_clock::duration cache_sync_timeout = std::chrono::minutes(2);
  // Kinds the reconcilers' client reads from the API rather than the cache.
  std::vector<GroupVersionKind> uncached{};
  // controller-runtime's priority queue (its default since v0.23): the initial list's adds and
  // resyncs wait at rr::kLowPriority behind real changes; Result::priority sets a requeue's.
  // false: one FIFO, as client-go's queue. See docs/runtime/15-work-queue.md.
  bool use_priority_queue = true;
  // How long one reconcile may run (controller-runtime's ReconciliationTimeout); 0: no limit.
  // At the deadline the reconcile's stop token fires and the HTTP client's calls on its thread
  // fail with "context deadline exceeded"; a reconcile that overran is counted in
  // controller_runtime_reconcile_timeouts_total and requeued with backoff.
  std::chrono::nanoseconds reconcile_timeout{0};
  // The Event API the reconcilers' recorder writes (docs/runtime/11-events.md).
  EventsApi events_api = EventsApi::events_v1;
  // Predicates on the For, Owns and Tracked watches of the reconciler's setup (an entry for an
  // Owns or Tracked kind the setup does not watch: std::invalid_argument), further watches mapped
  // to requests, and channels the operator feeds (bound at start, closed when the controller
  // stops). See rr/controller/sources.hpp and docs/runtime/39-predicates-and-watches.md.
  std::vector<WatchPredicates> predicates{};
  std::vector<MappedWatch> watches{};
  std::vector<std::shared_ptr<ChannelSource>> channels{};
};

class Controller final : public Runnable {
 public:
  using ReconcilerFactory = std::function<Reconciler(const Config& config)>;

  // Builds the Config (client: a CachedClient over `api` and `cache`; api_reader: `api`; a fresh
  // tracker with a lease of 2 × sync_period; an event recorder writing through `api`), calls
  // `factory` with it, validates the reconciler (ValidationError) and runs its setup to learn what
  // to watch: exactly one For kind (std::invalid_argument otherwise), Owns and Tracked kinds.
  // The informers of those kinds are created in `cache` at once. With a registry, the reconcile
  // and work-queue metrics are registered under the controller's name.
  Controller(ControllerOptions options, ReconcilerFactory factory, std::shared_ptr<Client> api,
             std::shared_ptr<InformerCache> cache, metrics::Registry* registry = nullptr);
  ~Controller() override;
  Controller(const Controller&) = delete;
  Controller& operator=(const Controller&) = delete;

  // Registers the event handlers, waits for the caches to sync (std::runtime_error after
  // cache_sync_timeout), runs the workers until `stop`, then shuts the queue down: reconciles in
  // progress finish (their RequestOptions::cancelled is set), keys still queued are dropped
  // without a reconcile (as controller-runtime; a new leader or process lists them again), and
  // start() returns once every worker has returned. Call once (std::logic_error otherwise).
  void start(std::stop_token stop) override;
  std::string name() const override;
  // True once the caches have synced and while the workers run.
  bool ready() const override;

  const Config& config() const noexcept;
  const std::vector<WatchRequest>& watches() const noexcept;
  const KindInfo& for_kind() const noexcept;
  // Queues a request as an event handler does (for other event sources), at a priority.
  void enqueue(const ObjectKey& key, int priority = 0);

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace rr
