// The state of an rr::Controller, shared by its set-up and run loop (controller.cpp) and its
// workers (controller_worker.cpp).
#pragma once
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <optional>
#include <stop_token>
#include <utility>
#include <vector>

#include "async_event_recorder.hpp"
#include "deadline_timer.hpp"
#include "rr/controller/controller.hpp"
#include "rr/controller/controller_metrics.hpp"
#include "rr/controller/informer_cache.hpp"
#include "rr/controller/work_queue.hpp"

namespace rr {

struct Controller::Impl {
  ControllerOptions options;
  std::shared_ptr<Client> api;
  std::shared_ptr<InformerCache> cache;
  Config config;
  std::shared_ptr<controller_detail::AsyncEventRecorder> events;  // config.recorder, closed at stop
  Reconciler reconciler;
  std::vector<WatchRequest> watches;
  KindInfo for_kind;
  std::optional<metrics::ReconcileMetrics> metrics;
  std::unique_ptr<WorkQueue> queue;
  // Set when the controller stops: reconciles in progress may wind down early, and workers take
  // no new key.
  std::shared_ptr<std::atomic<bool>> cancelled = std::make_shared<std::atomic<bool>>(false);
  std::stop_source stopping;  // requested with `cancelled`: fires every reconcile's stop token
  // Fires the reconciles' stop tokens at their deadline; only with a reconcile_timeout.
  std::unique_ptr<controller_detail::DeadlineTimer> deadlines;
  std::atomic<std::size_t> dropped{0};  // keys a worker took after the stop and did not reconcile
  std::atomic<bool> started{false};
  std::atomic<bool> ready{false};
  std::vector<std::pair<std::shared_ptr<Informer>, Informer::HandlerId>> registrations;

  // An exception escaping a reconcile when recover_panic is off: it stops the controller and
  // start() rethrows it.
  std::stop_source failed;
  std::mutex failure_mutex;
  std::exception_ptr failure;

  // Workers (controller_worker.cpp).
  void work();
  void reconcile_one(const ObjectKey& key, int priority);
};

}  // namespace rr
