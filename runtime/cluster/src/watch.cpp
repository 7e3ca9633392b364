// WATCH: the start point (current state, or the history after a resourceVersion), then live
// events through the channel.
#include "errors.hpp"
#include "rr/client/resource_version.hpp"
#include "store.hpp"
#include "watch_channel.hpp"

namespace rr::cluster_detail {

namespace {

// A BOOKMARK carries only the type and the resourceVersion the stream has reached.
Json bookmark(const KindInfo& kind, const std::string& resource_version) {
  return Json{{"apiVersion", kind.gvk.api_version()},
              {"kind", kind.gvk.kind},
              {"metadata",
               {{"resourceVersion", resource_version}, {"annotations", {{"k8s.io/initial-events-end", "true"}}}}}};
}

}  // namespace

std::shared_ptr<WatchChannel> Store::watch(const KindInfo& kind, const ListOptions& opts) {
  const KindEntry& entry = served(kind);
  const ObjectFilter filter = ObjectFilter::from(entry, opts);
  std::optional<WatchChannel::steady::time_point> deadline;
  if (opts.timeout_seconds > 0) deadline = WatchChannel::steady::now() + std::chrono::seconds(opts.timeout_seconds);
  auto channel = std::make_shared<WatchChannel>(entry.info.gvk, filter, deadline);

  const std::string& start = opts.resource_version;
  if (start.empty() || start == "0") {
    // The current state as synthetic ADDED events, then (when asked) the initial-events-end bookmark.
    for (const auto& [key, object] : entry.objects) {
      if (filter.matches(object)) channel->push({WatchEventType::Added, object});
    }
    if (opts.allow_watch_bookmarks) channel->push({WatchEventType::Bookmark, bookmark(entry.info, resource_version())});
  } else {
    const ParsedResourceVersion parsed = parse_resource_version(start);
    if (!parsed.error.empty()) fail(api_errors::malformed_query_resource_version(start, parsed));
    const std::uint64_t from = parsed.value;
    if (from < history_floor_) {
      // The events after `from` are no longer kept: the client must list again.
      const Status expired = api_errors::gone("too old resource version: " + start + " (" +
                                              std::to_string(history_floor_) + ")");
      channel->push({WatchEventType::Error, expired.to_json()});
      channel->end_after_queued();
      return channel;
    }
    for (const Event& event : history_) {
      if (event.resource_version > from) channel->offer(event);
    }
  }
  watchers_.push_back(channel);
  return channel;
}

}  // namespace rr::cluster_detail
