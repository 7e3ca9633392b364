// How an informer reads its initial state (client-go's reflector: watchList, then list with its
// pager): a streaming watch (sendInitialEvents) or a paged list, each collected whole before the
// store is replaced. See docs/runtime/21-informers-and-controllers.md, "Initial list".
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>

#include "informer_impl.hpp"
#include "rr/client/watch.hpp"

namespace rr::informer_detail {

// The initial state, complete: every object (already transformed) as its compact JSON text, so
// that holding the whole set costs about what the store will (a DOM per object takes 5–10× that).
struct Collected {
  std::map<ObjectKey, std::string> objects;
  std::string resource_version;
  std::shared_ptr<Watch> stream;  // streaming: the watch that goes on after the initial events
};

struct InitialListContext {
  Informer::Impl& impl;
  Informer::Impl::Stream& stream;      // the stream (namespace) being listed
  ListOptions selection;               // namespace, selectors, metadata_only
  std::function<void(Json&)> prepare;  // kind for bare items, metadata-only cut, the transform
  std::stop_token stop;
  std::int64_t timeout_seconds = 0;  // the streaming watch's (a random one, as every watch's)
};

// A watch with sendInitialEvents=true, resourceVersionMatch=NotOlderThan, allowWatchBookmarks, its
// events collected until the bookmark annotated k8s.io/initial-events-end: "true". nullopt when the
// server does not stream (client-go's fallback to a list: an error answer or ERROR event other than
// 410 Expired, 429 or "resource version too large", or a stream that ends within a second without
// any event) or when stop was requested. Those three errors are thrown (the caller backs off and
// tries again); a stream that ends later without the bookmark is opened again at once, up to three
// streams in all (then nullopt too: client-go would go on).
std::optional<Collected> stream_initial_events(const InitialListContext& context);

// A consistent list in pages of `page_size` (limit/continue, client-go's pager); a 410 Expired on
// a continuation page lists again in one request, as the pager's FullListIfExpired does. Page size
// 0: one unpaged request. Errors are thrown.
Collected list_in_pages(const InitialListContext& context, std::int64_t page_size);

}  // namespace rr::informer_detail
