// NamespaceDefaults: one watch thread per kind it reads (each names the namespaces an event
// concerns) and one worker that settles those namespaces; a failed settle is retried after a
// second, and everything is looked at again when a watch restarts.
#include "rr/kube_controllers/namespace_defaults.hpp"

#include <atomic>
#include <condition_variable>
#include <iostream>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#include "namespace_objects.hpp"
#include "rr/cluster/cluster.hpp"

namespace rr::kube_controllers {

using namespace std::chrono_literals;
using detail::Kinds;

namespace {

constexpr auto retry_delay = 1s;

}  // namespace

struct NamespaceDefaults::State {
  std::shared_ptr<Cluster> cluster;
  NamespaceDefaultsOptions options;
  Kinds kinds;
  mutable std::mutex mutex;
  mutable std::condition_variable wake;
  std::set<std::string> dirty;
  bool all_dirty = true;  // the first pass looks at every namespace
  bool busy = false;      // a pass is running
  std::atomic<bool> stopping{false};
  std::vector<std::unique_ptr<Watch>> watches;
  std::vector<std::thread> threads;

  void log(const std::string& line) const {
    if (options.log) options.log(line);
    else std::cerr << line << "\n";
  }

  void mark(const std::string& ns) {
    {
      std::lock_guard lock(mutex);
      if (ns.empty()) all_dirty = true;
      else dirty.insert(ns);
    }
    wake.notify_all();
  }

  // Which namespace an event concerns; "" for all, nullopt for none of ours.
  std::optional<std::string> concerned(const KindInfo& kind, const WatchEvent& event) const {
    if (event.type == WatchEventType::Bookmark) return std::nullopt;
    const std::string name = event.object.value("/metadata/name"_json_pointer, std::string());
    if (kind.gvk.kind == "Namespace") {
      if (event.type == WatchEventType::Deleted) return std::nullopt;
      return name;
    }
    const std::string ns = event.object.value("/metadata/namespace"_json_pointer, std::string());
    if (kind.gvk.kind == "ServiceAccount") {
      if (name != detail::default_service_account || event.type != WatchEventType::Deleted) return std::nullopt;
      return ns;
    }
    if (name != detail::root_ca_config_map || event.type == WatchEventType::Added) return std::nullopt;
    return ns;
  }

  void watch_kind(const KindInfo& kind, Watch* watch) {
    while (!stopping && !watch->stopped()) {
      auto event = watch->next(200ms);
      if (!event) continue;
      if (auto ns = concerned(kind, *event)) mark(*ns);
    }
  }

  // Settles the namespaces named (or all); those that failed come back.
  std::set<std::string> pass(std::set<std::string> names, bool all) {
    std::set<std::string> failed;
    if (all) {
      for (const Json& item : cluster->list(kinds.namespace_, {}).value("items", Json::array())) {
        names.insert(item.value("/metadata/name"_json_pointer, std::string()));
      }
    }
    for (const std::string& ns : names) {
      if (ns.empty() || stopping) continue;
      try {
        const Json object = cluster->get(kinds.namespace_, {"", ns});
        if (!detail::active(object)) continue;
        detail::settle_namespace(*cluster, kinds, ns, options.root_ca_pem);
      } catch (const ApiError& e) {
        if (is_not_found(e.status())) continue;  // the namespace went
        log("namespace defaults: " + ns + ": " + e.what());
        failed.insert(ns);
      } catch (const std::exception& e) {
        log("namespace defaults: " + ns + ": " + e.what());
        failed.insert(ns);
      }
    }
    return failed;
  }

  void run() {
    std::set<std::string> retry;
    while (true) {
      std::set<std::string> names;
      bool all = false;
      {
        std::unique_lock lock(mutex);
        const auto has_work = [this] { return stopping || all_dirty || !dirty.empty(); };
        if (retry.empty()) wake.wait(lock, has_work);
        else wake.wait_for(lock, retry_delay, has_work);
        if (stopping) return;
        names.swap(dirty);
        names.insert(retry.begin(), retry.end());
        all = all_dirty;
        all_dirty = false;
        busy = true;
      }
      try {
        retry = pass(std::move(names), all);
      } catch (const std::exception& e) {
        log(std::string("namespace defaults: ") + e.what());
        std::lock_guard lock(mutex);
        all_dirty = true;
      }
      {
        std::lock_guard lock(mutex);
        busy = false;
      }
      wake.notify_all();
    }
  }
};

NamespaceDefaults::NamespaceDefaults(std::shared_ptr<Cluster> cluster, NamespaceDefaultsOptions options)
    : state_(std::make_shared<State>()) {
  auto kinds = detail::find_kinds(*cluster);
  if (!kinds) throw std::invalid_argument("NamespaceDefaults needs v1 Namespace, ServiceAccount and ConfigMap");
  state_->cluster = std::move(cluster);
  state_->options = std::move(options);
  state_->kinds = *kinds;
  State& state = *state_;
  for (const KindInfo* kind : {&state.kinds.namespace_, &state.kinds.service_account, &state.kinds.config_map}) {
    state.watches.push_back(state.cluster->watch(*kind, ListOptions{}));
  }
  for (std::size_t i = 0; i < state.watches.size(); ++i) {
    const KindInfo* kind = i == 0   ? &state.kinds.namespace_
                           : i == 1 ? &state.kinds.service_account
                                    : &state.kinds.config_map;
    state.threads.emplace_back([&state, kind, watch = state.watches[i].get()] { state.watch_kind(*kind, watch); });
  }
  state.threads.emplace_back([&state] { state.run(); });
}

NamespaceDefaults::~NamespaceDefaults() { stop(); }

void NamespaceDefaults::stop() {
  State& state = *state_;
  if (state.stopping.exchange(true)) return;
  state.wake.notify_all();
  for (auto& watch : state.watches) watch->stop();
  for (auto& thread : state.threads) {
    if (thread.joinable()) thread.join();
  }
}

bool NamespaceDefaults::wait_settled(std::chrono::milliseconds timeout) const {
  const State& state = *state_;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    bool idle = false;
    {
      std::lock_guard lock(state.mutex);
      idle = !state.busy && !state.all_dirty && state.dirty.empty();
    }
    if (idle) {
      bool settled = true;
      for (const Json& item : state.cluster->list(state.kinds.namespace_, {}).value("items", Json::array())) {
        if (!detail::active(item)) continue;
        const std::string ns = item.value("/metadata/name"_json_pointer, std::string());
        settled = settled && detail::namespace_settled(*state.cluster, state.kinds, ns, state.options.root_ca_pem);
      }
      if (settled) return true;
    }
    std::this_thread::sleep_for(10ms);
  }
  return false;
}

}  // namespace rr::kube_controllers
