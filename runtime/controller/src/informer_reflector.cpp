// The informer's list/watch loop (client-go's reflector + the shared informer's processing):
// the initial state (streamed or listed: informer_initial_list.cpp) replaces the store (the
// difference becomes events), then watch on (the same stream, or from the list's
// resourceVersion), resume ended watches, relist after failures with backoff, resync.
#include <algorithm>
#include <random>
#include <set>
#include <thread>
#include <vector>

#include <utility>

#include "informer_impl.hpp"
#include "informer_initial_list.hpp"
#include "rr/client/watch.hpp"

namespace rr {

namespace {

std::string resource_version_of(const Json& object) {
  if (!object.is_object()) return {};
  auto meta = object.find("metadata");
  if (meta == object.end() || !meta->is_object()) return {};
  auto rv = meta->find("resourceVersion");
  return rv != meta->end() && rv->is_string() ? rv->get<std::string>() : std::string();
}

// How a watch stream ended.
enum class WatchEnd {
  resumable,  // closed by the server or the network after a while: watch again from the last version
  early,      // closed at once without any event: watch again, after a backoff
  failed,     // an ERROR event (410 Gone among them): relist, after a backoff
  stopped,    // the informer is stopping
};

// client-go's backoff manager: doubles per failure, back to the initial delay after a quiet spell.
class Backoff {
 public:
  Backoff(const InformerOptions& o, const Clock& clock) : options_(o), clock_(clock) {}
  Clock::duration next() {
    const auto now = clock_.now();
    if (!last_failure_ || now - *last_failure_ > options_.backoff_reset) {
      delay_ = options_.initial_backoff;
    } else {
      delay_ = std::min(delay_ * 2, options_.max_backoff);
    }
    last_failure_ = now;
    return delay_;
  }

 private:
  const InformerOptions& options_;
  const Clock& clock_;
  std::optional<Clock::time_point> last_failure_;
  Clock::duration delay_{0};
};

class Reflector {
 public:
  Reflector(Informer::Impl& impl, Informer::Impl::Stream& stream, std::stop_token stop)
      : impl_(impl),
        stream_(stream),
        stop_(std::move(stop)),
        backoff_(impl.options, impl.clock),
        random_(std::random_device{}()) {
    next_resync_ = impl_.clock.now() + impl_.options.resync_period;
  }

  void run() {
    bool relist = true;
    while (!stop_.stop_requested()) {
      try {
        std::shared_ptr<Watch> stream;
        if (relist) {
          stream = initial_sync();
          if (stop_.stop_requested()) return;
          relist = false;
        }
        switch (watch_once(std::move(stream))) {
          case WatchEnd::resumable:
            break;
          case WatchEnd::early:
            sleep(backoff_.next());
            break;
          case WatchEnd::failed:
            relist = true;
            sleep(backoff_.next());
            break;
          case WatchEnd::stopped:
            return;
        }
      } catch (const ApiError& e) {
        if (e.code() == 403) {
          forbidden(std::string(relist ? "list" : "watch") + " failed: " + e.what());
        } else {
          impl_.report(std::string(relist ? "list" : "watch") + " failed: " + e.what());
        }
        relist = true;
        sleep(backoff_.next());
      } catch (const std::exception& e) {
        impl_.report(std::string(relist ? "list" : "watch") + " failed: " + e.what());
        relist = true;
        sleep(backoff_.next());
      }
    }
  }

 private:
  // A 403 (no RoleBinding in the namespace yet): the stream no longer holds back a dynamic
  // informer's sync; it is retried with backoff as any failure, and served once allowed.
  void forbidden(std::string_view message) {
    {
      std::lock_guard state(impl_.state_mutex);
      stream_.forbidden = true;
    }
    impl_.sync_cv.notify_all();
    if (impl_.options.on_forbidden) impl_.options.on_forbidden(stream_.namespace_);
    const std::string where = stream_.namespace_.empty() ? "the cluster scope" : "namespace " + stream_.namespace_;
    impl_.report("forbidden in " + where +
                 " (no RoleBinding granting the operator's role there?); retrying: " + std::string(message));
  }

  ListOptions selection() const {
    ListOptions o;
    o.namespace_ = stream_.namespace_;
    o.label_selector = impl_.options.label_selector;
    o.field_selector = impl_.options.field_selector;
    o.metadata_only = impl_.options.metadata_only;
    return o;
  }

  // The initial state (streamed, or listed in pages or at once: InformerOptions::initial_list)
  // replaces the store; a stream goes on as the watch. Returns the open stream, if any.
  std::shared_ptr<Watch> initial_sync() {
    informer_detail::InitialListContext context{
        impl_, stream_, selection(), [this](Json& object) { prepare(object); }, stop_, watch_timeout_seconds()};
    std::optional<informer_detail::Collected> collected;
    switch (impl_.options.initial_list) {
      case InitialList::streaming:
        collected = informer_detail::stream_initial_events(context);
        if (collected || stop_.stop_requested()) break;
        collected = informer_detail::list_in_pages(context, impl_.options.page_size);
        break;
      case InitialList::paged: collected = informer_detail::list_in_pages(context, impl_.options.page_size); break;
      case InitialList::unpaged: collected = informer_detail::list_in_pages(context, 0); break;
    }
    if (!collected || stop_.stop_requested()) return nullptr;
    replace(*collected);
    return std::move(collected->stream);
  }

  // client-go's Replace: the store becomes the collected objects, and what differs becomes events
  // (a delete carries the last state the store had); then the stream has synced. With several
  // streams (namespaces), only this stream's namespace of the store is replaced.
  void replace(informer_detail::Collected& collected) {
    // The dispatch lock is held until synced is set: a handler added in between would otherwise
    // miss these events and the replay of the store that add_handlers gives once synced.
    std::lock_guard dispatch(impl_.dispatch_mutex);
    auto before = impl_.store.keys();
    if (impl_.per_namespace) {
      std::erase_if(before, [&](const ObjectKey& key) { return key.namespace_ != stream_.namespace_; });
    }
    const bool initial = !stream_.synced;  // written only by this thread
    for (auto& [key, text] : collected.objects) {
      Json item = Json::parse(std::exchange(text, std::string()));
      before.erase(key);
      auto stored = impl_.store.upsert(item);
      if (!stored) {
        impl_.deliver_add(item, initial);
      } else if (resource_version_of(*stored) != resource_version_of(item)) {
        impl_.deliver_update(*stored, item);
      }
    }
    for (const auto& key : before) {
      if (auto gone = impl_.store.erase(key)) impl_.deliver_delete(*gone);
    }
    collected.objects.clear();
    {
      std::lock_guard state(impl_.state_mutex);
      stream_.last_resource_version = collected.resource_version;
      stream_.synced = true;
      stream_.forbidden = false;
    }
    impl_.sync_cv.notify_all();
  }

  std::int64_t watch_timeout_seconds() {
    const auto min = impl_.options.min_watch_timeout.count();
    if (min <= 0) return 0;
    return std::uniform_int_distribution<std::int64_t>(min, 2 * min - 1)(random_);
  }

  // Watches from the last resourceVersion, or goes on with `watch` (the initial events' stream).
  WatchEnd watch_once(std::shared_ptr<Watch> watch) {
    if (!watch) {
      ListOptions o = selection();
      {
        std::lock_guard state(impl_.state_mutex);
        o.resource_version = stream_.last_resource_version;
      }
      o.allow_watch_bookmarks = true;
      o.timeout_seconds = watch_timeout_seconds();
      watch = impl_.client->watch(impl_.kind, o);
    }
    {
      std::lock_guard state(impl_.state_mutex);
      stream_.current_watch = watch;
    }
    struct Forget {
      Informer::Impl& impl;
      Informer::Impl::Stream& stream;
      ~Forget() {
        std::lock_guard state(impl.state_mutex);
        stream.current_watch.reset();
      }
    } forget{impl_, stream_};

    const auto opened = std::chrono::steady_clock::now();
    std::size_t events = 0;
    while (true) {
      if (stop_.stop_requested()) return WatchEnd::stopped;
      resync_if_due();
      std::optional<WatchEvent> event = watch->next(impl_.options.poll_interval);
      if (!event) {
        if (!watch->stopped()) continue;  // no event yet
        if (stop_.stop_requested()) return WatchEnd::stopped;
        const bool brief = std::chrono::steady_clock::now() - opened < std::chrono::seconds(1);
        return events == 0 && brief ? WatchEnd::early : WatchEnd::resumable;
      }
      ++events;
      switch (event->type) {
        case WatchEventType::Added:
        case WatchEventType::Modified:
          apply_upsert(std::move(event->object));
          break;
        case WatchEventType::Deleted: apply_delete(std::move(event->object)); break;
        case WatchEventType::Bookmark:
          advance(resource_version_of(event->object));
          break;
        case WatchEventType::Error: {
          const Status status = Status::from_json(event->object);
          impl_.report("watch error " + std::to_string(status.code) + " " + status.reason + ": " + status.message);
          return WatchEnd::failed;
        }
      }
    }
  }

  // Items of a list may leave out their kind (the API server does for built-in kinds); the
  // handlers (the tracker, typed conversions) need it. Then the transform.
  void prepare(Json& object) const {
    if (object.is_object() && !object.contains("kind")) {
      object["apiVersion"] = impl_.kind.gvk.api_version();
      object["kind"] = impl_.kind.gvk.kind;
    }
    transform(object);
  }

  // A metadata-only informer's objects become {apiVersion, kind, metadata} of the informer's kind
  // (a PartialObjectMetadata from the server, or a whole object from one that ignored the Accept
  // header); then the informer's transform.
  void transform(Json& object) const {
    if (impl_.options.metadata_only && object.is_object()) {
      keep_metadata_only(object);
      object["apiVersion"] = impl_.kind.gvk.api_version();
      object["kind"] = impl_.kind.gvk.kind;
    }
    if (impl_.options.transform) impl_.options.transform(object);
  }

  void advance(std::string version) {
    if (version.empty()) return;
    std::lock_guard state(impl_.state_mutex);
    stream_.last_resource_version = std::move(version);
  }

  void apply_upsert(Json object) {
    transform(object);
    std::string version = resource_version_of(object);
    {
      std::lock_guard dispatch(impl_.dispatch_mutex);
      auto stored = impl_.store.upsert(object);
      if (stored) {
        impl_.deliver_update(*stored, object);
      } else {
        impl_.deliver_add(object, false);
      }
    }
    advance(std::move(version));
  }

  void apply_delete(Json object) {
    transform(object);
    {
      std::lock_guard dispatch(impl_.dispatch_mutex);
      impl_.store.erase(key_of(object));
      impl_.deliver_delete(object);
    }
    advance(resource_version_of(object));
  }

  void resync_if_due() {
    if (impl_.options.resync_period <= Clock::duration::zero()) return;
    const auto now = impl_.clock.now();
    if (now < next_resync_) return;
    next_resync_ = now + impl_.options.resync_period;
    std::lock_guard dispatch(impl_.dispatch_mutex);
    // With several streams, each resyncs its own namespace.
    const bool mine_only = impl_.per_namespace;
    for (const auto& object : impl_.store.list()) {
      if (mine_only && key_of(*object).namespace_ != stream_.namespace_) continue;
      impl_.deliver_update(*object, *object);
    }
  }

  // Waits `delay` on the informer's clock; stop ends the wait.
  void sleep(Clock::duration delay) {
    const auto deadline = impl_.clock.now() + delay;
    std::unique_lock lock(impl_.state_mutex);
    while (!stop_.stop_requested() && impl_.clock.now() < deadline) {
      impl_.clock.wait_until(impl_.sleep_cv, lock, deadline);
    }
  }

  Informer::Impl& impl_;
  Informer::Impl::Stream& stream_;
  std::stop_token stop_;
  Backoff backoff_;
  std::mt19937_64 random_;
  Clock::time_point next_resync_;
};

}  // namespace

void Informer::Impl::run(std::stop_token stop) {
  // Stop ends a blocked watch at once and any backoff sleep; a jumping (fake) clock ends a sleep
  // whose deadline it passed.
  auto wake = [this] {
    std::vector<std::shared_ptr<Watch>> watches;
    {
      std::lock_guard state(state_mutex);
      for (const auto& s : streams) {
        s->stop.request_stop();
        if (s->current_watch) watches.push_back(s->current_watch);
      }
    }
    for (const auto& watch : watches) watch->stop();
    std::lock_guard state(state_mutex);
    sleep_cv.notify_all();
  };
  std::stop_callback on_stop(stop, wake);
  clock.add_waker(this, [this] {
    std::lock_guard state(state_mutex);
    sleep_cv.notify_all();
  });
  struct RemoveWaker {
    Impl& impl;
    ~RemoveWaker() { impl.clock.remove_waker(&impl); }
  } remove_waker{*this};
  if (options.dynamic_namespaces) {
    run_dynamic(stop);
    return;
  }
  if (streams.size() == 1) {
    Reflector(*this, *streams.front(), stop).run();
    return;
  }
  // One reflector per namespace, each on its own thread; they share the store and the handlers
  // (dispatch_mutex keeps the events in order per namespace, one call at a time).
  std::vector<std::jthread> threads;
  for (auto& stream : streams) {
    threads.emplace_back([this, s = stream.get(), stop] { Reflector(*this, *s, stop).run(); });
  }
}

void Informer::Impl::launch(Stream& stream) {
  stream.thread = std::jthread([this, &stream] { Reflector(*this, stream, stream.stop.get_token()).run(); });
}

// Streams come and go with set_namespaces(); this thread only waits for the stop, then ends them.
void Informer::Impl::run_dynamic(std::stop_token stop) {
  {
    std::lock_guard state(state_mutex);
    streams_running = true;
    for (auto& s : streams) {
      if (stop.stop_requested()) s->stop.request_stop();
      launch(*s);
    }
  }
  {
    std::unique_lock state(state_mutex);
    sync_cv.wait(state, stop, [] { return false; });
  }
  std::lock_guard change(namespaces_mutex);
  std::vector<std::jthread> threads;
  std::vector<std::shared_ptr<Watch>> watches;
  {
    std::lock_guard state(state_mutex);
    streams_running = false;
    for (auto& s : streams) {
      s->stop.request_stop();
      if (s->current_watch) watches.push_back(s->current_watch);
      threads.push_back(std::move(s->thread));
    }
    sleep_cv.notify_all();
  }
  for (const auto& watch : watches) watch->stop();
  // jthread's destructor joins (the stop sources are already requested).
}

void Informer::Impl::set_namespaces(std::vector<std::string> wanted) {
  std::sort(wanted.begin(), wanted.end());
  wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());
  std::lock_guard change(namespaces_mutex);
  std::vector<std::unique_ptr<Stream>> gone;
  std::vector<std::shared_ptr<Watch>> watches;
  {
    std::lock_guard state(state_mutex);
    for (auto it = streams.begin(); it != streams.end();) {
      if (std::binary_search(wanted.begin(), wanted.end(), (*it)->namespace_)) {
        ++it;
        continue;
      }
      gone.push_back(std::move(*it));
      it = streams.erase(it);
    }
    for (const auto& ns : wanted) {
      if (std::any_of(streams.begin(), streams.end(), [&](const auto& s) { return s->namespace_ == ns; })) continue;
      auto& added = *streams.emplace_back(std::make_unique<Stream>(ns));
      if (streams_running) launch(added);
    }
    namespaces_set = true;
    for (const auto& s : gone) {
      s->stop.request_stop();
      if (s->current_watch) watches.push_back(s->current_watch);
    }
    sleep_cv.notify_all();
  }
  sync_cv.notify_all();
  if (gone.empty()) return;
  for (const auto& watch : watches) watch->stop();
  for (auto& s : gone) {
    if (s->thread.joinable()) s->thread.join();
  }
  // The objects of a namespace no longer cached go, as if deleted: controllers see them go.
  std::set<std::string, std::less<>> left;
  for (const auto& s : gone) left.insert(s->namespace_);
  std::lock_guard dispatch(dispatch_mutex);
  for (const auto& key : store.keys()) {
    if (!left.contains(key.namespace_)) continue;
    if (auto object = store.erase(key)) deliver_delete(*object);
  }
}

}  // namespace rr
