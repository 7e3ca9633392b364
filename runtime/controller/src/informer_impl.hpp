// The state of an rr::Informer, shared by its public face (informer.cpp) and its list/watch loop
// (informer_reflector.cpp).
#pragma once
#include <atomic>
#include <condition_variable>
#include <map>
#include <mutex>

#include "rr/client/client.hpp"
#include "rr/controller/informer.hpp"

namespace rr {

struct Informer::Impl {
  Impl(std::shared_ptr<Client> c, KindInfo k, InformerOptions o)
      : client(std::move(c)),
        kind(std::move(k)),
        options(std::move(o)),
        clock(options.clock ? *options.clock : Clock::real()),
        store(options.decoded_cache_bytes) {}

  std::shared_ptr<Client> client;
  const KindInfo kind;
  const InformerOptions options;
  Clock& clock;
  ObjectStore store;

  // Held while the store changes and its handlers run, so that events are delivered in order
  // and a handler registered late sees the store exactly as the events before it left it.
  std::mutex dispatch_mutex;
  std::map<HandlerId, InformerHandlers> handlers;
  HandlerId next_handler = 1;

  // Loop state (state_mutex): the resourceVersion reached, the watch in progress, sync.
  mutable std::mutex state_mutex;
  std::condition_variable sleep_cv;            // backoff sleeps: woken by stop and by the clock
  mutable std::condition_variable_any sync_cv;  // wait_for_sync
  std::string last_resource_version;
  std::shared_ptr<Watch> current_watch;
  bool synced = false;
  std::atomic<bool> running{false};

  // Dispatch (dispatch_mutex held).
  void deliver_add(const Json& object);
  void deliver_update(const Json& old_object, const Json& new_object);
  void deliver_delete(const Json& object);
  void report(std::string_view message) const;

  // The loop (informer_reflector.cpp).
  void run(std::stop_token stop);
};

}  // namespace rr
