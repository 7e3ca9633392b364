// The informer's initial state: streamed (WatchList) or listed in pages. Both collect the objects
// as text and leave replacing the store to the reflector.
#include "informer_initial_list.hpp"

#include <algorithm>
#include <chrono>
#include <utility>

#include "rr/client/api_error.hpp"

namespace rr::informer_detail {

namespace {

const Json* member(const Json& object, const char* name) {
  if (!object.is_object()) return nullptr;
  auto it = object.find(name);
  return it == object.end() ? nullptr : &*it;
}

std::string string_at(const Json& object, const char* outer, const char* inner) {
  const Json* o = member(object, outer);
  const Json* v = o ? member(*o, inner) : nullptr;
  return v && v->is_string() ? v->get<std::string>() : std::string();
}

bool initial_events_end(const Json& bookmark) {
  const Json* meta = member(bookmark, "metadata");
  const Json* annotations = meta ? member(*meta, "annotations") : nullptr;
  const Json* end = annotations ? member(*annotations, "k8s.io/initial-events-end") : nullptr;
  return end && *end == "true";
}

// The answers client-go's watchList retries (isWatchErrorRetriable, isExpiredError,
// isTooLargeResourceVersionError) instead of falling back to a list: no answer (connection
// refused), 429, 410 Expired, a resourceVersion the server has not reached.
bool retry_streaming(const Status& s) {
  if (s.code == 0 || s.code == 429 || is_gone(s)) return true;
  return std::any_of(s.causes.begin(), s.causes.end(),
                     [](const StatusCause& c) { return c.type == "ResourceVersionTooLarge"; });
}

void collect(const InitialListContext& context, Collected& out, Json object) {
  context.prepare(object);
  ObjectKey key = key_of(object);
  out.objects.insert_or_assign(std::move(key), object.dump());
}

// Makes `watch` the informer's open watch (stop ends it) for as long as this lives.
class OpenWatch {
 public:
  OpenWatch(const InitialListContext& context, std::shared_ptr<Watch> watch)
      : impl_(context.impl), stream_(context.stream), watch_(std::move(watch)) {
    std::lock_guard state(impl_.state_mutex);
    stream_.current_watch = watch_;
  }
  ~OpenWatch() {
    std::lock_guard state(impl_.state_mutex);
    if (stream_.current_watch == watch_) stream_.current_watch.reset();
  }
  OpenWatch(const OpenWatch&) = delete;
  OpenWatch& operator=(const OpenWatch&) = delete;

 private:
  Informer::Impl& impl_;
  Informer::Impl::Stream& stream_;
  std::shared_ptr<Watch> watch_;
};

enum class StreamEnd { complete, reopen, unsupported, stopped };

// Reads one streaming watch up to the initial-events-end bookmark.
StreamEnd read_initial_events(const InitialListContext& context, Watch& watch, Collected& out) {
  const auto opened = std::chrono::steady_clock::now();
  std::size_t events = 0;
  while (true) {
    if (context.stop.stop_requested()) return StreamEnd::stopped;
    std::optional<WatchEvent> event = watch.next(context.impl.options.poll_interval);
    if (!event) {
      if (!watch.stopped()) continue;
      if (context.stop.stop_requested()) return StreamEnd::stopped;
      // client-go: "very short watch ... no items received" is an error, and any error but the
      // retriable ones falls back to a list; a longer stream without the bookmark is opened again.
      const bool brief = std::chrono::steady_clock::now() - opened < std::chrono::seconds(1);
      if (events == 0 && brief) {
        context.impl.report("streaming list ended at once without any event; listing instead");
        return StreamEnd::unsupported;
      }
      return StreamEnd::reopen;
    }
    ++events;
    switch (event->type) {
      case WatchEventType::Added:
      case WatchEventType::Modified: collect(context, out, std::move(event->object)); break;
      case WatchEventType::Deleted: {
        Json object = std::move(event->object);
        context.prepare(object);
        out.objects.erase(key_of(object));
        break;
      }
      case WatchEventType::Bookmark:
        if (initial_events_end(event->object)) {
          out.resource_version = string_at(event->object, "metadata", "resourceVersion");
          return StreamEnd::complete;
        }
        break;
      case WatchEventType::Error: {
        const Status status = Status::from_json(event->object);
        if (retry_streaming(status)) throw ApiError(status);
        context.impl.report("streaming list refused: " + std::to_string(status.code) + " " + status.reason + ": " +
                            status.message + "; listing instead");
        return StreamEnd::unsupported;
      }
    }
  }
}

}  // namespace

std::optional<Collected> stream_initial_events(const InitialListContext& context) {
  ListOptions o = context.selection;
  o.resource_version.clear();  // the most recent state, consistent (client-go's case 1)
  o.resource_version_match = "NotOlderThan";
  o.send_initial_events = true;
  o.allow_watch_bookmarks = true;
  o.timeout_seconds = context.timeout_seconds;
  // client-go opens a cut stream again for ever; after this many cuts in a row (a proxy or server
  // that ends long streams) the informer lists instead, which makes progress.
  constexpr int max_cut_streams = 3;
  for (int cut = 0; !context.stop.stop_requested(); ++cut) {
    if (cut == max_cut_streams) {
      context.impl.report("streaming list cut " + std::to_string(cut) + " times before its end; listing instead");
      return std::nullopt;
    }
    std::shared_ptr<Watch> watch;
    try {
      watch = context.impl.client->watch(context.impl.kind, o);
    } catch (const ApiError& e) {
      if (retry_streaming(e.status())) throw;
      context.impl.report(std::string("streaming list refused: ") + e.what() + "; listing instead");
      return std::nullopt;
    }
    Collected out;
    const OpenWatch open(context, watch);
    switch (read_initial_events(context, *watch, out)) {
      case StreamEnd::complete: out.stream = std::move(watch); return out;
      case StreamEnd::reopen: break;
      case StreamEnd::unsupported: return std::nullopt;
      case StreamEnd::stopped: return std::nullopt;
    }
  }
  return std::nullopt;
}

Collected list_in_pages(const InitialListContext& context, std::int64_t page_size) {
  ListOptions o = context.selection;
  o.limit = std::max<std::int64_t>(page_size, 0);
  Collected out;
  while (true) {
    Json page;
    try {
      page = context.impl.client->list(context.impl.kind, o);
    } catch (const ApiError& e) {
      if (o.continue_.empty() || !is_gone(e.status())) throw;
      // The first page's snapshot is gone: the whole list again, in one request (the pager's
      // FullListIfExpired); the pages read so far are dropped.
      context.impl.report(std::string("paged list expired: ") + e.what() + "; listing in one request");
      o.limit = 0;
      o.continue_.clear();
      out.objects.clear();
      page = context.impl.client->list(context.impl.kind, o);
    }
    if (auto items = page.find("items"); items != page.end() && items->is_array()) {
      // Each item's DOM is freed once its text is kept: a page's DOM is the most held at once.
      for (auto& item : *items) collect(context, out, std::exchange(item, Json()));
    }
    // The first page's version, as the pager keeps it: every later page is at least as new, so a
    // watch from it misses nothing (it may repeat a change a later page already showed).
    if (o.continue_.empty()) out.resource_version = string_at(page, "metadata", "resourceVersion");
    std::string next = string_at(page, "metadata", "continue");
    if (next.empty() || o.limit == 0) return out;
    o.continue_ = std::move(next);
  }
}

}  // namespace rr::informer_detail
