// rr::Controller: set-up (config, reconciler, validation, watches) and the run loop.
#include <algorithm>
#include <condition_variable>
#include <stdexcept>
#include <thread>

#include "controller_handlers.hpp"
#include "controller_impl.hpp"
#include "rr/controller/cached_client.hpp"
#include "rr/controller/event_recorder_v1.hpp"

namespace rr {

namespace {

// How long a stopping controller keeps writing the events still queued.
constexpr std::chrono::seconds event_write_grace{2};

std::string gvk_text(const GroupVersionKind& gvk) { return gvk.kind + "." + gvk.version + "." + gvk.group; }

const char* mode_name(WatchRequest::Mode mode) {
  switch (mode) {
    case WatchRequest::Mode::For:
      return "For";
    case WatchRequest::Mode::Owns:
      return "Owns";
    case WatchRequest::Mode::Tracked:
      return "Tracked";
  }
  return "";
}

bool same_group_kind(const GroupVersionKind& a, const GroupVersionKind& b) {
  return a.group == b.group && a.kind == b.kind;
}

// The predicates of ControllerOptions::predicates that apply to one watch of the setup.
std::vector<Predicate> predicates_of(const ControllerOptions& options, const WatchRequest& w) {
  std::vector<Predicate> out;
  for (const auto& entry : options.predicates) {
    if (entry.mode != w.mode) continue;
    if (w.mode != WatchRequest::Mode::For && !same_group_kind(entry.kind, w.kind.gvk)) continue;
    out.insert(out.end(), entry.predicates.begin(), entry.predicates.end());
  }
  return out;
}

// Predicates for a watch the setup does not have, mapped watches without a kind or a map, and
// empty channels are mistakes of the caller.
void check_watch_options(const ControllerOptions& options, const std::vector<WatchRequest>& watches) {
  for (const auto& entry : options.predicates) {
    if (entry.mode == WatchRequest::Mode::For) continue;
    const bool watched = std::any_of(watches.begin(), watches.end(), [&](const WatchRequest& w) {
      return w.mode == entry.mode && same_group_kind(w.kind.gvk, entry.kind);
    });
    if (!watched) {
      throw std::invalid_argument("controller " + options.name + ": predicates for " + mode_name(entry.mode) + " " +
                                  gvk_text(entry.kind) + ", which the reconciler does not watch");
    }
  }
  for (const auto& w : options.watches) {
    if (w.kind.gvk.kind.empty() || w.kind.plural.empty() || !w.map) {
      throw std::invalid_argument("controller " + options.name +
                                  ": a mapped watch needs a kind (with its plural) and a map function");
    }
  }
  for (const auto& channel : options.channels) {
    if (!channel) throw std::invalid_argument("controller " + options.name + ": a channel source is null");
  }
}

// The informer a mapped watch reads: the kind's, or its metadata-only one.
std::shared_ptr<Informer> informer_of(InformerCache& cache, const MappedWatch& watch) {
  return watch.metadata_only ? cache.metadata_informer(watch.kind) : cache.get_or_create(watch.kind);
}

// Closes the channel sources when start() leaves, however it leaves.
struct CloseChannels {
  const std::vector<std::shared_ptr<ChannelSource>>& channels;
  ~CloseChannels() {
    for (const auto& channel : channels) channel->close();
  }
};

// Removes the event handlers when start() leaves, however it leaves.
struct Registrations {
  Controller::Impl& impl;
  ~Registrations() {
    for (auto& [informer, id] : impl.registrations) informer->remove_handlers(id);
    impl.registrations.clear();
  }
};

}  // namespace

namespace {

// events.k8s.io/v1 (series on the controller's clock), or core/v1 for older clusters.
std::shared_ptr<EventRecorder> make_recorder(const ControllerOptions& options, const std::shared_ptr<Client>& api) {
  if (options.events_api == EventsApi::core_v1) return make_client_event_recorder(api, options.name, options.log);
  EventRecorderV1Options v1;
  v1.reporting_controller = options.name;
  v1.clock = options.clock;
  v1.log = options.log;
  return make_event_recorder_v1(api, std::move(v1));
}

}  // namespace

Controller::Controller(ControllerOptions options, ReconcilerFactory factory, std::shared_ptr<Client> api,
                       std::shared_ptr<InformerCache> cache, metrics::Registry* registry)
    : impl_(std::make_unique<Impl>()) {
  Impl& s = *impl_;
  if (options.name.empty()) throw std::invalid_argument("rr::Controller needs a name");
  if (options.max_concurrent_reconciles < 1) throw std::invalid_argument("max_concurrent_reconciles must be at least 1");
  if (!factory || !api || !cache) throw std::invalid_argument("rr::Controller needs a reconciler factory, a client and a cache");
  s.options = std::move(options);
  s.options.log = s.options.log.with("controller", s.options.name);
  s.api = std::move(api);
  s.cache = std::move(cache);

  CachedClientOptions client_options{s.options.uncached};
  if (registry) {
    // Read your own writes: a get that found the cache older than this controller's own write.
    auto& stale = registry
                      ->counter("controller_runtime_reconcile_stale_cache_total",
                                "Reads of an object the controller wrote that found the cache older than the write "
                                "(each waited for the cache)",
                                {"controller"})
                      .with({s.options.name});
    client_options.on_stale = [&stale](const KindInfo&, const ObjectKey&) { stale.inc(); };
  }
  s.config.client = std::make_shared<CachedClient>(s.api, s.cache, std::move(client_options));
  s.config.api_reader = s.api;
  s.config.tracker = make_tracker(2 * s.options.sync_period);
  // Events are written by their own thread (async_event_recorder.hpp), never by a worker.
  s.events = std::make_shared<controller_detail::AsyncEventRecorder>(make_recorder(s.options, s.api), s.options.log);
  s.config.recorder = s.events;
  s.config.sync_period = s.options.sync_period;

  s.reconciler = factory(s.config);
  if (!s.reconciler) throw std::invalid_argument("the reconciler factory of " + s.options.name + " returned nothing");
  Validation validation(false);  // as SetupWithManager: the root only
  s.reconciler.validate(validation);
  validation.throw_if_failed();
  Setup setup(s.config);
  s.reconciler.setup(setup);
  s.watches = setup.watches();
  for (const auto& warning : validation.warnings()) s.options.log.info("validation warning: " + warning);
  for (const auto& warning : setup.warnings()) s.options.log.info("setup warning: " + warning);

  const auto fors = std::count_if(s.watches.begin(), s.watches.end(),
                                  [](const WatchRequest& w) { return w.mode == WatchRequest::Mode::For; });
  if (fors != 1) {
    throw std::invalid_argument("controller " + s.options.name + ": the reconciler must watch exactly one For kind, not " +
                                std::to_string(fors));
  }
  for (const auto& w : s.watches) {
    if (w.mode == WatchRequest::Mode::For) s.for_kind = w.kind;
    s.cache->get_or_create(w.kind);  // the cache starts syncing it before this controller runs
  }
  check_watch_options(s.options, s.watches);
  for (const auto& w : s.options.watches) informer_of(*s.cache, w);

  WorkQueueOptions queue_options;
  queue_options.clock = s.options.clock;
  queue_options.rate_limiter = std::move(s.options.rate_limiter);  // nullptr: the default, on the queue's clock
  if (!queue_options.rate_limiter && s.options.use_priority_queue) {
    // controller-runtime's default with its priority queue: per-key backoff, no token bucket.
    queue_options.rate_limiter = make_item_exponential_failure_rate_limiter(std::chrono::milliseconds(5),
                                                                            std::chrono::seconds(1000));
  }
  queue_options.priorities = s.options.use_priority_queue;
  if (registry) {
    s.metrics.emplace(*registry, s.options.name, s.options.max_concurrent_reconciles);
    queue_options.metrics = std::make_shared<metrics::PrometheusWorkQueueMetrics>(*registry, s.options.name,
                                                                                  s.options.use_priority_queue);
  }
  s.queue = std::make_unique<WorkQueue>(std::move(queue_options));
  if (s.options.reconcile_timeout.count() < 0) {
    throw std::invalid_argument("controller " + s.options.name + ": reconcile_timeout must not be negative");
  }
  if (s.options.reconcile_timeout.count() > 0) {
    s.deadlines = std::make_unique<controller_detail::DeadlineTimer>(s.options.clock ? *s.options.clock
                                                                                     : Clock::real());
  }
}

Controller::~Controller() = default;

std::string Controller::name() const { return impl_->options.name; }
bool Controller::ready() const { return impl_->ready; }
const Config& Controller::config() const noexcept { return impl_->config; }
const std::vector<WatchRequest>& Controller::watches() const noexcept { return impl_->watches; }
const KindInfo& Controller::for_kind() const noexcept { return impl_->for_kind; }
void Controller::enqueue(const ObjectKey& key, int priority) { impl_->queue->add(key, priority); }

void Controller::start(std::stop_token stop) {
  Impl& s = *impl_;
  if (s.started.exchange(true)) throw std::logic_error("controller " + s.options.name + " was started more than once");
  const Logger& log = s.options.log;
  // Stops on the caller's request or on a worker's unrecovered failure.
  std::stop_callback forward(stop, [&s] { s.failed.request_stop(); });
  const std::stop_token running = s.failed.get_token();

  Registrations registered{s};
  auto enqueue = [queue = s.queue.get()](const ObjectKey& key, int priority) { queue->add(key, priority); };
  for (const auto& w : s.watches) {
    log.info("Starting EventSource (" + std::string(mode_name(w.mode)) + " " + gvk_text(w.kind.gvk) + ")");
    InformerHandlers handlers;
    switch (w.mode) {
      case WatchRequest::Mode::For:
        handlers = controller_detail::enqueue_object(enqueue);
        break;
      case WatchRequest::Mode::Owns:
        handlers = controller_detail::enqueue_owner(s.for_kind, enqueue);
        break;
      case WatchRequest::Mode::Tracked:
        handlers = controller_detail::enqueue_tracked(s.config.tracker, enqueue);
        break;
    }
    handlers = controller_detail::filtered(std::move(handlers), predicates_of(s.options, w));
    auto informer = s.cache->get_or_create(w.kind);
    s.registrations.emplace_back(informer, informer->add_handlers(std::move(handlers)));
  }
  for (const auto& w : s.options.watches) {
    log.info("Starting EventSource (Watches " + gvk_text(w.kind.gvk) + ")");
    auto informer = informer_of(*s.cache, w);
    auto handlers = controller_detail::filtered(controller_detail::enqueue_mapped(w.map, enqueue), w.predicates);
    s.registrations.emplace_back(informer, informer->add_handlers(std::move(handlers)));
  }
  // Generic events: a real change, at the normal priority.
  const CloseChannels close_channels{s.options.channels};
  for (const auto& channel : s.options.channels) {
    log.info("Starting EventSource (Channel)");
    channel->bind([queue = s.queue.get()](const ObjectKey& key) { queue->add(key, 0); });
  }

  log.info("Starting Controller");
  std::vector<std::shared_ptr<Informer>> synced;
  for (const auto& w : s.watches) synced.push_back(s.cache->get_or_create(w.kind));
  for (const auto& w : s.options.watches) synced.push_back(informer_of(*s.cache, w));
  for (const auto& informer : synced) {
    if (s.cache->wait_for_sync(informer, running, s.options.cache_sync_timeout)) continue;
    s.queue->shut_down();
    if (running.stop_requested()) return;
    throw std::runtime_error("controller " + s.options.name + ": timed out waiting for cache to be synced for Kind " +
                             gvk_text(informer->kind().gvk));
  }

  log.info("Starting workers (" + std::to_string(s.options.max_concurrent_reconciles) + ")");
  s.ready = true;
  {
    std::vector<std::jthread> workers;
    for (int i = 0; i < s.options.max_concurrent_reconciles; ++i) workers.emplace_back([&s] { s.work(); });
    // client-go refreshes the unfinished-work gauges every 500 ms.
    std::jthread unfinished_work([&s](std::stop_token done) {
      std::mutex m;
      std::condition_variable_any cv;
      std::unique_lock lock(m);
      while (!cv.wait_for(lock, done, std::chrono::milliseconds(500), [] { return false; })) {
        if (done.stop_requested()) break;
        s.queue->update_unfinished_work();
      }
    });

    std::mutex m;
    std::condition_variable_any cv;
    std::unique_lock lock(m);
    cv.wait(lock, running, [] { return false; });  // until stop
    lock.unlock();

    log.info("Shutdown signal received, waiting for all workers to finish");
    s.cancelled->store(true);  // before the shutdown wakes the workers: they take no new key
    s.stopping.request_stop();
    s.queue->shut_down_with_drain();
  }  // joins the workers and the refresher
  s.ready = false;
  if (const std::size_t dropped = s.queue->len() + s.dropped.load(); dropped > 0) {
    log.with("keys", std::to_string(dropped)).info("Dropped the keys still queued");
  }
  log.info("All workers finished");
  s.events->close(event_write_grace);  // the events the last reconciles recorded

  std::lock_guard guard(s.failure_mutex);
  if (s.failure) std::rethrow_exception(s.failure);
}

}  // namespace rr
