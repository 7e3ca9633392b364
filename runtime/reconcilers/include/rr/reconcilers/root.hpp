// Root reconcilers (ResourceReconciler, AggregateReconciler) as the controller and the test
// harness see them: reconcile one request.
#pragma once
#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "rr/reconcilers/context.hpp"
#include "rr/reconcilers/result.hpp"
#include "rr/reconcilers/sub_reconciler.hpp"

namespace rr {

// Per-request inputs the caller controls (the manager: logger and cancellation; tests: a pinned
// now and additional configs).
struct RequestOptions {
  std::optional<std::chrono::system_clock::time_point> now{};
  Logger log{};
  std::shared_ptr<const std::atomic<bool>> cancelled{};
  std::map<std::string, Config> additional_configs{};
  // The Context's stop token and deadline (the controller's stop and reconcile_timeout).
  std::shared_ptr<const ReconcileStop> stop{};
  std::optional<std::chrono::steady_clock::time_point> deadline{};
  // Runs after the stash and config are set up, before the reconciler (tests seed the stash).
  std::function<void(Context&)> prepare{};
};

template <class R>
concept RootReconcilerType = requires(const R& r, const Request& req, const RequestOptions& o, Validation& v, Setup& s) {
  { r.reconcile(req, o) } -> std::same_as<Outcome>;
  r.validate(v);
  r.setup(s);
  { r.display_name() } -> std::convertible_to<std::string>;
};

// Type-erased root reconciler.
class Reconciler {
 public:
  Reconciler() = default;
  template <class R>
    requires(!std::same_as<std::remove_cvref_t<R>, Reconciler> && RootReconcilerType<std::remove_cvref_t<R>>)
  Reconciler(R&& r)  // NOLINT(google-explicit-constructor)
      : impl_(std::make_shared<Model<std::remove_cvref_t<R>>>(std::forward<R>(r))) {}
  explicit operator bool() const noexcept { return impl_ != nullptr; }
  Outcome reconcile(const Request& req, const RequestOptions& opts = {}) const { return impl_->reconcile(req, opts); }
  void validate(Validation& v) const {
    auto scope = v.enter(impl_->display_name());
    impl_->validate(v);
  }
  void setup(Setup& s) const { impl_->setup(s); }
  std::string display_name() const { return impl_->display_name(); }

 private:
  struct Concept {
    virtual ~Concept() = default;
    virtual Outcome reconcile(const Request& req, const RequestOptions& opts) const = 0;
    virtual void validate(Validation& v) const = 0;
    virtual void setup(Setup& s) const = 0;
    virtual std::string display_name() const = 0;
  };
  template <class R>
  struct Model final : Concept {
    explicit Model(R r) : r_(std::move(r)) {}
    Outcome reconcile(const Request& req, const RequestOptions& opts) const override { return r_.reconcile(req, opts); }
    void validate(Validation& v) const override { r_.validate(v); }
    void setup(Setup& s) const override { r_.setup(s); }
    std::string display_name() const override { return r_.display_name(); }
    R r_;
  };
  std::shared_ptr<const Concept> impl_;
};

}  // namespace rr
