// The state of an rr::Informer, shared by its public face (informer.cpp) and its list/watch loop
// (informer_reflector.cpp).
#pragma once
#include <atomic>
#include <condition_variable>
#include <map>
#include <mutex>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

#include "rr/client/client.hpp"
#include "rr/controller/informer.hpp"

namespace rr {

struct Informer::Impl {
  // One list/watch stream: the informer's namespace (or all), or one of InformerOptions::namespaces
  // (controller-runtime's multi-namespace cache: a list and a watch per namespace, one store).
  struct Stream {
    explicit Stream(std::string ns) : namespace_(std::move(ns)) {}
    std::string namespace_;
    std::string last_resource_version;
    std::shared_ptr<Watch> current_watch;
    bool synced = false;
    bool forbidden = false;  // the last list or watch was answered 403
    // dynamic_namespaces: the stream's own stop (its namespace left, or the informer stops) and thread.
    std::stop_source stop{};
    std::jthread thread{};
  };

  Impl(std::shared_ptr<Client> c, KindInfo k, InformerOptions o)
      : client(std::move(c)),
        kind(std::move(k)),
        options(std::move(o)),
        clock(options.clock ? *options.clock : Clock::real()),
        store(options.decoded_cache_bytes),
        per_namespace(options.dynamic_namespaces || !options.namespaces.empty()),
        streams(streams_of(options)) {}

  static std::vector<std::unique_ptr<Stream>> streams_of(const InformerOptions& o) {
    std::vector<std::unique_ptr<Stream>> out;
    if (o.dynamic_namespaces) return out;  // set_namespaces() adds them
    if (o.namespaces.empty()) out.push_back(std::make_unique<Stream>(o.namespace_));
    for (const auto& ns : o.namespaces) out.push_back(std::make_unique<Stream>(ns));
    return out;
  }

  std::shared_ptr<Client> client;
  const KindInfo kind;
  const InformerOptions options;
  Clock& clock;
  ObjectStore store;
  // Streams by namespace share the store: a relist or resync of one touches its namespace only.
  const bool per_namespace;

  // Held while the store changes and its handlers run, so that events are delivered in order
  // and a handler registered late sees the store exactly as the events before it left it.
  std::mutex dispatch_mutex;
  std::map<HandlerId, InformerHandlers> handlers;
  HandlerId next_handler = 1;

  // Loop state (state_mutex): per stream, the resourceVersion reached, the watch in progress, sync.
  mutable std::mutex state_mutex;
  std::condition_variable sleep_cv;            // backoff sleeps: woken by stop and by the clock
  mutable std::condition_variable_any sync_cv;  // wait_for_sync
  // Fixed at construction, but for dynamic_namespaces (set_namespaces).
  std::vector<std::unique_ptr<Stream>> streams;
  std::atomic<bool> running{false};
  // dynamic_namespaces (state_mutex): set_namespaces() was called; run() is running its streams.
  bool namespaces_set = false;
  bool streams_running = false;
  std::mutex namespaces_mutex;  // one set_namespaces() at a time, and run()'s end

  // Every stream has synced (state_mutex held). With dynamic namespaces: once they are known, a
  // refused (403) namespace does not count, and once synced the informer stays so (as client-go's
  // HasSynced): a namespace that comes later does not hold back readers of the others.
  bool all_synced() const {
    if (options.dynamic_namespaces && !namespaces_set) return false;
    if (synced_once) return true;
    for (const auto& s : streams) {
      if (!s->synced && !(options.dynamic_namespaces && s->forbidden)) return false;
    }
    synced_once = options.dynamic_namespaces;
    return true;
  }
  mutable bool synced_once = false;  // dynamic_namespaces: all_synced() was true once (state_mutex)

  // Dispatch (dispatch_mutex held). `initial`: an add of the stream's initial list.
  void deliver_add(const Json& object, bool initial);
  void deliver_update(const Json& old_object, const Json& new_object);
  void deliver_delete(const Json& object);
  void report(std::string_view message) const;

  // The loop (informer_reflector.cpp).
  void run(std::stop_token stop);
  void run_dynamic(std::stop_token stop);
  void launch(Stream& stream);  // state_mutex held
  void set_namespaces(std::vector<std::string> namespaces);
};

}  // namespace rr
