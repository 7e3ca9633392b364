// Helpers of the controller tests: an in-process cluster with a parent kind, a child kind and
// ConfigMaps; a hand-written root reconciler whose behaviour each test sets; a running cache and
// controller.
#pragma once
#include <atomic>
#include <chrono>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "rr/cluster/cluster.hpp"
#include "rr/controller/controller.hpp"
#include "rr/controller/informer_cache.hpp"
#include "rr/controller/metrics.hpp"
#include "test_util.hpp"

namespace rr::test {

inline KindInfo parent_kind() {
  return KindInfo{{"example.dev", "v1", "Parent"}, "parents", "ParentList", Scope::Namespaced, true};
}
inline KindInfo child_kind() {
  return KindInfo{{"example.dev", "v1", "Child"}, "children", "ChildList", Scope::Namespaced, false};
}
inline KindInfo configmap_kind() {
  return KindInfo{{"", "v1", "ConfigMap"}, "configmaps", "ConfigMapList", Scope::Namespaced, false};
}

inline Json make(const KindInfo& kind, const std::string& name, const std::string& ns = "default") {
  return Json{{"apiVersion", kind.gvk.api_version()}, {"kind", kind.gvk.kind}, {"metadata", {{"namespace", ns}, {"name", name}}}};
}

// What the test reconciler does and saw. `behaviour` runs for every request (default: success).
struct Probe {
  std::function<Outcome(const Request&, const RequestOptions&, const Config&)> behaviour;
  std::mutex mutex;
  std::vector<std::string> calls;  // keys, in the order reconciles started
  std::set<std::string> in_flight;
  int max_in_flight = 0;
  bool overlap = false;  // one key reconciled by two workers at once

  std::vector<std::string> seen() {
    std::lock_guard lock(mutex);
    return calls;
  }
  std::size_t count() {
    std::lock_guard lock(mutex);
    return calls.size();
  }
  std::size_t count_of(const std::string& key) {
    std::lock_guard lock(mutex);
    return static_cast<std::size_t>(std::count(calls.begin(), calls.end(), key));
  }
};

// A root reconciler (RootReconcilerType) for parents that owns children and tracks ConfigMaps.
struct ProbeReconciler {
  std::shared_ptr<Probe> probe;
  Config config;

  Outcome reconcile(const Request& request, const RequestOptions& options) const {
    const std::string key = request.str();
    {
      std::lock_guard lock(probe->mutex);
      probe->calls.push_back(key);
      if (!probe->in_flight.insert(key).second) probe->overlap = true;
      probe->max_in_flight = std::max(probe->max_in_flight, static_cast<int>(probe->in_flight.size()));
    }
    struct Leave {
      Probe& p;
      std::string k;
      ~Leave() {
        std::lock_guard lock(p.mutex);
        p.in_flight.erase(k);
      }
    } leave{*probe, key};
    return probe->behaviour ? probe->behaviour(request, options, config) : Outcome{};
  }
  void validate(Validation& v) const {
    if (!probe) v.fail("ProbeReconciler needs a probe");
  }
  void setup(Setup& s) const {
    s.for_kind(parent_kind());
    s.owns(child_kind());
    s.watches_tracked(configmap_kind());
  }
  std::string display_name() const { return "ProbeReconciler"; }
};

// A cluster, a running informer cache and a controller over them (started by run()).
struct Harness {
  std::shared_ptr<Cluster> cluster = std::make_shared<Cluster>();
  std::shared_ptr<ClusterClient> api = std::make_shared<ClusterClient>(cluster);
  std::shared_ptr<InformerCache> cache;
  std::shared_ptr<Probe> probe = std::make_shared<Probe>();
  metrics::Registry registry;
  std::shared_ptr<Controller> controller;
  std::jthread cache_thread;
  std::jthread controller_thread;
  std::future<void> controller_done;

  explicit Harness(ControllerOptions options = {}) {
    for (const auto& kind : {parent_kind(), child_kind(), configmap_kind()}) cluster->register_kind(kind);
    InformerCacheOptions cache_options;
    cache_options.informer.poll_interval = std::chrono::milliseconds(20);
    cache = std::make_shared<InformerCache>(api, cache_options);
    if (options.name.empty()) options.name = "parent";
    auto p = probe;
    controller = std::make_shared<Controller>(
        std::move(options), [p](const Config& config) -> Reconciler { return ProbeReconciler{p, config}; }, api, cache,
        &registry);
  }
  ~Harness() { stop(); }

  void run() {
    cache_thread = std::jthread([c = cache](std::stop_token stop) { c->start(stop); });
    std::promise<void> done;
    controller_done = done.get_future();
    controller_thread = std::jthread([c = controller, d = std::move(done)](std::stop_token stop) mutable {
      try {
        c->start(stop);
        d.set_value();
      } catch (...) {
        d.set_exception(std::current_exception());
      }
    });
  }
  void stop() {
    if (controller_thread.joinable()) {
      controller_thread.request_stop();
      controller_thread.join();
    }
    if (cache_thread.joinable()) {
      cache_thread.request_stop();
      cache_thread.join();
    }
  }
  // The value of one exposed sample line, e.g. `controller_runtime_reconcile_total{controller="parent",result="success"}`.
  double sample(const std::string& series) const {
    const std::string text = registry.expose();
    const auto at = text.find("\n" + series + " ");
    if (at == std::string::npos) return -1;
    return std::stod(text.substr(at + series.size() + 2));
  }
  double reconciles(const std::string& result) const {
    return sample("controller_runtime_reconcile_total{controller=\"parent\",result=\"" + result + "\"}");
  }
};

}  // namespace rr::test
