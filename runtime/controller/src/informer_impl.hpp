// The state of an rr::Informer, shared by its public face (informer.cpp) and its list/watch loop
// (informer_reflector.cpp).
#pragma once
#include <atomic>
#include <condition_variable>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "rr/client/client.hpp"
#include "rr/controller/informer.hpp"

namespace rr {

struct Informer::Impl {
  // One list/watch stream: the informer's namespace (or all), or one of InformerOptions::namespaces
  // (controller-runtime's multi-namespace cache: a list and a watch per namespace, one store).
  struct Stream {
    std::string namespace_;
    std::string last_resource_version;
    std::shared_ptr<Watch> current_watch;
    bool synced = false;
  };

  Impl(std::shared_ptr<Client> c, KindInfo k, InformerOptions o)
      : client(std::move(c)),
        kind(std::move(k)),
        options(std::move(o)),
        clock(options.clock ? *options.clock : Clock::real()),
        store(options.decoded_cache_bytes),
        streams(streams_of(options)) {}

  static std::vector<Stream> streams_of(const InformerOptions& o) {
    std::vector<Stream> out;
    if (o.namespaces.empty()) out.push_back(Stream{o.namespace_, {}, {}, false});
    for (const auto& ns : o.namespaces) out.push_back(Stream{ns, {}, {}, false});
    return out;
  }

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

  // Loop state (state_mutex): per stream, the resourceVersion reached, the watch in progress, sync.
  mutable std::mutex state_mutex;
  std::condition_variable sleep_cv;            // backoff sleeps: woken by stop and by the clock
  mutable std::condition_variable_any sync_cv;  // wait_for_sync
  std::vector<Stream> streams;                  // fixed at construction
  std::atomic<bool> running{false};

  // Every stream has synced (state_mutex held).
  bool all_synced() const {
    for (const auto& s : streams) {
      if (!s.synced) return false;
    }
    return true;
  }

  // Dispatch (dispatch_mutex held). `initial`: an add of the stream's initial list.
  void deliver_add(const Json& object, bool initial);
  void deliver_update(const Json& old_object, const Json& new_object);
  void deliver_delete(const Json& object);
  void report(std::string_view message) const;

  // The loop (informer_reflector.cpp).
  void run(std::stop_token stop);
};

}  // namespace rr
