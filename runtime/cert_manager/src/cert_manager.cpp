// CertManager: installs the CRDs, one watch thread per kind it reads (each only marks the state
// dirty) and one worker that runs a sync pass when something changed or a renewal is due.
#include "rr/cert_manager/cert_manager.hpp"

#include <atomic>
#include <condition_variable>
#include <iostream>
#include <mutex>
#include <thread>
#include <vector>

#include "crds.hpp"
#include "rr/client/api_error.hpp"
#include "rr/cluster/cluster.hpp"
#include "sync.hpp"

namespace rr::cert_manager {
namespace {

using namespace std::chrono_literals;

const GroupVersionKind crd_gvk{"apiextensions.k8s.io", "v1", "CustomResourceDefinition"};

// A pass at least this often even without events: a safety net, not the mechanism.
constexpr auto resync_period = 5min;
constexpr auto retry_delay = 1s;

std::vector<GroupVersionKind> watched_kinds() {
  return {certificate_kind().gvk,
          issuer_kind().gvk,
          cluster_issuer_kind().gvk,
          {"", "v1", "Secret"},
          {"admissionregistration.k8s.io", "v1", "MutatingWebhookConfiguration"},
          {"admissionregistration.k8s.io", "v1", "ValidatingWebhookConfiguration"},
          crd_gvk};
}

}  // namespace

struct CertManager::State {
  std::shared_ptr<Cluster> cluster;
  CertManagerOptions options;
  std::mutex mutex;
  std::condition_variable wake;
  bool dirty = true;
  std::atomic<bool> stopping{false};
  std::vector<std::thread> threads;

  void log(const std::string& line) const {
    if (options.log) {
      options.log(line);
    } else {
      std::cerr << line << "\n";
    }
  }

  void mark_dirty() {
    {
      std::lock_guard lock(mutex);
      dirty = true;
    }
    wake.notify_all();
  }

  // Sleeps up to `duration`, returning early when stopping.
  void pause(std::chrono::milliseconds duration) {
    std::unique_lock lock(mutex);
    wake.wait_for(lock, duration, [this] { return stopping.load(); });
  }

  void install() {
    if (auto namespaces = cluster->find_kind({"", "v1", "Namespace"})) {
      try {
        cluster->create(*namespaces, Json{{"apiVersion", "v1"},
                                          {"kind", "Namespace"},
                                          {"metadata", {{"name", options.cluster_resource_namespace}}}});
      } catch (const ApiError& e) {
        if (!is_already_exists(e.status())) throw;
      }
    }
    if (auto crds = cluster->find_kind(crd_gvk)) {
      for (const Json& crd : cert_manager_crds()) {
        try {
          cluster->create(*crds, crd);
        } catch (const ApiError& e) {
          if (!is_already_exists(e.status())) throw;
        }
      }
      return;
    }
    // A bare rr::Cluster: nothing would serve the CRDs' kinds, so they are registered as they are.
    for (const KindInfo& kind : {certificate_kind(), issuer_kind(), cluster_issuer_kind()}) {
      if (!cluster->find_kind(kind.gvk)) cluster->register_kind(kind);
    }
  }

  // Follows one kind: waits for it to be served (a CRD's kind comes a moment after the CRD), then
  // marks the state dirty on each event and when the watch restarts.
  void watch_kind(const GroupVersionKind& gvk) {
    while (!stopping) {
      auto kind = cluster->find_kind(gvk);
      if (!kind) {
        pause(100ms);
        continue;
      }
      std::unique_ptr<Watch> watch;
      try {
        watch = cluster->watch(*kind, ListOptions{});
      } catch (const ApiError&) {
        pause(retry_delay);
        continue;
      }
      mark_dirty();
      while (!stopping && !watch->stopped()) {
        auto event = watch->next(200ms);
        if (event && event->type != WatchEventType::Bookmark) mark_dirty();
      }
      watch->stop();
    }
  }

  void run() {
    auto deadline = std::chrono::steady_clock::now();
    while (true) {
      {
        std::unique_lock lock(mutex);
        wake.wait_until(lock, deadline, [this] { return dirty || stopping.load(); });
        if (stopping) return;
        dirty = false;
      }
      const Log logger = [this](const std::string& line) { log(line); };
      SyncResult result;
      bool retry = false;
      try {
        result = sync_certificates(*cluster, options, logger);
        retry = sync_ca_injection(*cluster, logger) || result.retry;
      } catch (const std::exception& e) {
        log(std::string("cert-manager: ") + e.what());
        retry = true;
      }
      const auto now = std::chrono::steady_clock::now();
      deadline = now + (retry ? std::chrono::steady_clock::duration(retry_delay) : resync_period);
      if (result.next_renewal) {
        // The renewal timer: the cluster's clock says how far away it is.
        // A time already past waits like a retry: never a busy loop, whatever the clocks do.
        const auto until = *result.next_renewal - cluster->now();
        const auto at = until > std::chrono::system_clock::duration::zero()
                            ? now + std::chrono::duration_cast<std::chrono::steady_clock::duration>(until) + 10ms
                            : now + std::chrono::steady_clock::duration(retry_delay);
        if (at < deadline) deadline = at;
      }
    }
  }
};

CertManager::CertManager(std::shared_ptr<Cluster> cluster, CertManagerOptions options)
    : state_(std::make_shared<State>()) {
  state_->cluster = std::move(cluster);
  state_->options = std::move(options);
  state_->install();
  for (const auto& gvk : watched_kinds()) {
    state_->threads.emplace_back([state = state_.get(), gvk] { state->watch_kind(gvk); });
  }
  state_->threads.emplace_back([state = state_.get()] { state->run(); });
}

CertManager::~CertManager() { stop(); }

void CertManager::stop() {
  {
    std::lock_guard lock(state_->mutex);
    state_->stopping = true;
  }
  state_->wake.notify_all();
  for (auto& thread : state_->threads) {
    if (thread.joinable()) thread.join();
  }
  state_->threads.clear();
}

bool CertManager::wait_until_served(std::chrono::milliseconds timeout) const {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (true) {
    bool served = true;
    for (const KindInfo& kind : {certificate_kind(), issuer_kind(), cluster_issuer_kind()}) {
      served = served && state_->cluster->find_kind(kind.gvk).has_value();
    }
    if (served) return true;
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(10ms);
  }
}

void CertManager::resync() { state_->mark_dirty(); }

}  // namespace rr::cert_manager
