// Config: what a reconciler talks to. client (cached reads in a controller), api_reader
// (uncached reads), tracker and event recorder.
#pragma once
#include <chrono>
#include <memory>

#include "rr/client/client.hpp"
#include "rr/reconcilers/events.hpp"
#include "rr/reconcilers/tracker.hpp"

namespace rr {

struct Config {
  std::shared_ptr<Client> client{};
  std::shared_ptr<Client> api_reader{};   // defaults to client when empty
  std::shared_ptr<Tracker> tracker{};
  std::shared_ptr<EventRecorder> recorder{};
  std::chrono::nanoseconds sync_period = std::chrono::hours(10);

  Client& api() const;       // *client; throws std::logic_error when unset
  Client& reader() const;    // *api_reader, else *client
};

// A Config over one client with a fresh tracker (lease 2×sync_period, 20 h when that is 0) and
// an event recorder writing core/v1 Events through the client.
Config make_config(std::shared_ptr<Client> client, std::chrono::nanoseconds sync_period = std::chrono::hours(10));

class Context;

// Defined in config_track.hpp, which context.hpp includes (they need the complete Context).
// TrackAndGet: tracks `key` of kind T for the request being reconciled *before* the Get, so a
// track exists even when the Get answers NotFound (then ApiError is thrown).
template <Object T>
T track_and_get(Context& ctx, const ObjectKey& key);
// As track_and_get, nullopt on NotFound.
template <Object T>
std::optional<T> track_and_try_get(Context& ctx, const ObjectKey& key);
// TrackAndList: tracks {group, kind, namespace, selector} (no selector = everything), then lists.
template <Object T>
std::vector<T> track_and_list(Context& ctx, const ListOptions& opts);

}  // namespace rr
