// Helpers of the informer, cache and cached-client tests: an in-process cluster with two kinds,
// a client wrapper that counts calls and can drop or hold watches, and an event recorder.
#pragma once
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "rr/client/api_error.hpp"
#include "rr/client/forwarding_client.hpp"
#include "rr/cluster/cluster.hpp"
#include "rr/controller/informer.hpp"
#include "test_util.hpp"

namespace rr::test {

inline KindInfo widget_kind() {
  return KindInfo{{"example.dev", "v1", "Widget"}, "widgets", "WidgetList", Scope::Namespaced, false};
}
inline KindInfo gadget_kind() {
  return KindInfo{{"example.dev", "v1", "Gadget"}, "gadgets", "GadgetList", Scope::Namespaced, false};
}

inline std::shared_ptr<Cluster> make_cluster(ClusterOptions options = {}) {
  auto cluster = std::make_shared<Cluster>(std::move(options));
  cluster->register_kind(widget_kind());
  cluster->register_kind(gadget_kind());
  return cluster;
}

inline Json object(const KindInfo& kind, const std::string& ns, const std::string& name,
                   std::map<std::string, std::string> labels = {}, const std::string& color = "red") {
  Json o = {{"apiVersion", kind.gvk.api_version()},
            {"kind", kind.gvk.kind},
            {"metadata", {{"namespace", ns}, {"name", name}}},
            {"spec", {{"color", color}}}};
  if (!labels.empty()) o["metadata"]["labels"] = labels;
  return o;
}

// Forwards to another client; counts reads and watches; drop_watches() ends the open streams;
// hold_watches() makes watch() wait until release_watches(). `streams` counts the watches that
// asked for the initial events (sendInitialEvents), `watches` every watch; list_calls() are the
// options of every list. refuse_streaming answers those watches 422 as a server without WatchList
// does; expire_continue answers the next continuation page 410 Expired.
class CountingClient final : public ForwardingClient {
 public:
  using ForwardingClient::ForwardingClient;

  std::atomic<int> gets{0}, lists{0}, watches{0}, writes{0}, streams{0};
  std::atomic<bool> refuse_streaming{false}, expire_continue{false};

  std::vector<ListOptions> list_calls() {
    std::lock_guard lock(mutex_);
    return list_calls_;
  }

  void drop_watches() {
    std::lock_guard lock(mutex_);
    for (auto& w : open_) {
      if (auto watch = w.lock()) watch->stop();
    }
    open_.clear();
  }
  void hold_watches() {
    std::lock_guard lock(mutex_);
    held_ = true;
  }
  void release_watches() {
    {
      std::lock_guard lock(mutex_);
      held_ = false;
    }
    cv_.notify_all();
  }
  int watch_calls_waiting() {
    std::lock_guard lock(mutex_);
    return waiting_;
  }

 protected:
  Json do_get(const KindInfo& k, const ObjectKey& key) override {
    ++gets;
    return ForwardingClient::do_get(k, key);
  }
  Json do_list(const KindInfo& k, const ListOptions& o) override {
    {
      std::lock_guard lock(mutex_);
      list_calls_.push_back(o);
    }
    ++lists;
    if (!o.continue_.empty() && expire_continue.exchange(false)) {
      throw ApiError(api_errors::gone("The provided continue parameter is too old to display a consistent list "
                                      "result. You can start a new list without the continue parameter."));
    }
    return ForwardingClient::do_list(k, o);
  }
  Json do_create(const KindInfo& k, const Json& o, const WriteOptions& w) override {
    ++writes;
    return ForwardingClient::do_create(k, o, w);
  }
  Json do_update(const KindInfo& k, const Json& o, const WriteOptions& w) override {
    ++writes;
    return ForwardingClient::do_update(k, o, w);
  }
  Json do_update_status(const KindInfo& k, const Json& o, const WriteOptions& w) override {
    ++writes;
    return ForwardingClient::do_update_status(k, o, w);
  }
  Json do_patch(const KindInfo& k, const ObjectKey& key, PatchType t, std::string_view body, std::string_view sub,
                const WriteOptions& w) override {
    ++writes;
    return ForwardingClient::do_patch(k, key, t, body, sub, w);
  }
  Json do_remove(const KindInfo& k, const ObjectKey& key, const DeleteOptions& d) override {
    ++writes;
    return ForwardingClient::do_remove(k, key, d);
  }
  void do_remove_collection(const KindInfo& k, const ListOptions& l, const DeleteOptions& d) override {
    ++writes;
    ForwardingClient::do_remove_collection(k, l, d);
  }
  std::unique_ptr<Watch> do_watch(const KindInfo& k, const ListOptions& o) override {
    if (o.send_initial_events) {
      ++streams;
      if (refuse_streaming) {
        throw ApiError(api_errors::invalid(
            "ListOptions", "meta.k8s.io", "",
            {{"FieldValueForbidden",
              "Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled",
              "sendInitialEvents"}}));
      }
    }
    {
      std::unique_lock lock(mutex_);
      ++waiting_;
      cv_.wait(lock, [&] { return !held_; });
      --waiting_;
    }
    auto shared = std::shared_ptr<Watch>(ForwardingClient::do_watch(k, o));
    {
      std::lock_guard lock(mutex_);
      open_.push_back(shared);
    }
    ++watches;  // counted once drop_watches() can reach it
    return std::make_unique<Shared>(std::move(shared));
  }

 private:
  struct Shared final : Watch {
    explicit Shared(std::shared_ptr<Watch> w) : w_(std::move(w)) {}
    ~Shared() override { w_->stop(); }
    std::optional<WatchEvent> next(std::chrono::milliseconds t) override { return w_->next(t); }
    void stop() override { w_->stop(); }
    bool stopped() const override { return w_->stopped(); }
    std::shared_ptr<Watch> w_;
  };
  std::mutex mutex_;
  std::condition_variable cv_;
  std::vector<std::weak_ptr<Watch>> open_;
  std::vector<ListOptions> list_calls_;
  bool held_ = false;
  int waiting_ = 0;
};

// Handler calls as text lines: "add ns/name", "update ns/name", "resync ns/name" (old == new),
// "delete ns/name <spec.color>".
class Recorder {
 public:
  InformerHandlers handlers() {
    return InformerHandlers{
        [this](const Json& o) { push("add " + key_of(o).str()); },
        [this](const Json& old_object, const Json& new_object) {
          push((old_object == new_object ? "resync " : "update ") + key_of(new_object).str());
        },
        [this](const Json& o) { push("delete " + key_of(o).str() + " " + o.value("spec", Json::object()).value("color", "")); },
    };
  }
  std::vector<std::string> lines() const {
    std::lock_guard lock(mutex_);
    return lines_;
  }
  std::size_t size() const {
    std::lock_guard lock(mutex_);
    return lines_.size();
  }
  // The lines from index `from` on.
  std::vector<std::string> since(std::size_t from) const {
    std::lock_guard lock(mutex_);
    return {lines_.begin() + static_cast<std::ptrdiff_t>(std::min(from, lines_.size())), lines_.end()};
  }
  bool wait_for(std::size_t count, std::chrono::milliseconds limit = std::chrono::seconds(5)) const {
    return eventually([&] { return size() >= count; }, limit);
  }

 private:
  void push(std::string line) {
    std::lock_guard lock(mutex_);
    lines_.push_back(std::move(line));
  }
  mutable std::mutex mutex_;
  std::vector<std::string> lines_;
};

// A client holding a Role (or a RoleBinding) in some namespaces only: a list or watch of a
// namespaced kind in any other namespace, or in every namespace at once, is answered 403 as the API
// server answers it; grant() adds a namespace (an admin binding the role there). Cluster-scoped
// kinds (Namespaces) are allowed, as a bound ClusterRole grants them.
class RoleClient final : public ForwardingClient {
 public:
  RoleClient(std::shared_ptr<Client> inner, std::set<std::string> granted)
      : ForwardingClient(std::move(inner)), granted_(std::move(granted)) {}

  void grant(const std::string& ns) {
    std::lock_guard lock(mutex_);
    granted_.insert(ns);
  }
  // The namespaces asked for ("<all>": every namespace).
  std::set<std::string> asked() {
    std::lock_guard lock(mutex_);
    return asked_;
  }

 protected:
  Json do_list(const KindInfo& k, const ListOptions& o) override {
    check(k, o.namespace_);
    return ForwardingClient::do_list(k, o);
  }
  std::unique_ptr<Watch> do_watch(const KindInfo& k, const ListOptions& o) override {
    check(k, o.namespace_);
    return ForwardingClient::do_watch(k, o);
  }

 private:
  void check(const KindInfo& k, const std::string& ns) {
    if (!k.namespaced()) return;
    std::lock_guard lock(mutex_);
    asked_.insert(ns.empty() ? "<all>" : ns);
    if (!granted_.contains(ns)) {
      throw ApiError(api_errors::forbidden(k.plural, k.gvk.group, "",
                                           "the service account cannot list resource in " +
                                               (ns.empty() ? std::string("the cluster scope") : "namespace " + ns)));
    }
  }
  std::mutex mutex_;
  std::set<std::string> granted_;
  std::set<std::string> asked_;
};

// Options that make failures retry fast and stop promptly.
inline InformerOptions fast_options() {
  InformerOptions o;
  o.initial_backoff = std::chrono::milliseconds(5);
  o.max_backoff = std::chrono::milliseconds(50);
  o.poll_interval = std::chrono::milliseconds(10);
  return o;
}

}  // namespace rr::test
