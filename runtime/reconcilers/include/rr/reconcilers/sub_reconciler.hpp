// SubReconciler<T>: a type-erased handle to any reconciler of T. Every reconciler in the
// vocabulary is a plain aggregate (designated initialisers, hooks as lambdas) with three
// members, found by the ReconcilerOf concept:
//
//   Outcome reconcile(Context& ctx, T& resource) const;   // the resource is mutable
//   void validate(Validation& v) const;                   // misuse found at set-up
//   void setup(Setup& s) const;                           // watches the controller needs
//   std::string display_name() const;                     // `name`, or the type's default
//
// A handle copies cheaply (shared, immutable); reconcilers that keep state across requests keep
// it behind a shared_ptr.
#pragma once
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "rr/client/kind.hpp"
#include "rr/reconcilers/context.hpp"
#include "rr/reconcilers/result.hpp"

namespace rr {

// Thrown by validate_reconciler(): every finding, one per line, each naming the reconciler path
// and the hook, e.g. `WidgetReconciler.ChildImage: ChildReconciler must implement desired_child`.
class ValidationError : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

// Collects validation findings while walking a reconciler tree.
class Validation {
 public:
  explicit Validation(bool recursive = true) : recursive_(recursive) {}
  bool recursive() const noexcept { return recursive_; }
  // Records `message` for the reconciler at the current path.
  void fail(std::string message);
  void warn(std::string message);
  // Enters a nested reconciler (path element = its display name).
  class Scope {
   public:
    ~Scope() { v_.path_.pop_back(); }
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    friend class Validation;
    Scope(Validation& v, std::string name) : v_(v) { v_.path_.push_back(std::move(name)); }
    Validation& v_;
  };
  [[nodiscard]] Scope enter(std::string name) { return Scope(*this, std::move(name)); }
  std::string path() const;
  const std::vector<std::string>& errors() const noexcept { return errors_; }
  const std::vector<std::string>& warnings() const noexcept { return warnings_; }
  // Throws ValidationError when there are errors.
  void throw_if_failed() const;

 private:
  bool recursive_;
  std::vector<std::string> path_;
  std::vector<std::string> errors_;
  std::vector<std::string> warnings_;
};

// What a reconciler tree asks of its controller: the kind it reconciles, the kinds it owns
// (enqueue the controller owner) and the kinds whose changes go through the tracker.
struct WatchRequest {
  enum class Mode { For, Owns, Tracked };
  KindInfo kind;
  Mode mode = Mode::Tracked;
  bool operator==(const WatchRequest&) const = default;
};

class Setup {
 public:
  explicit Setup(Config config = {}) : config_(std::move(config)) {}
  const Config& config() const noexcept { return config_; }
  void for_kind(KindInfo kind) { add({std::move(kind), WatchRequest::Mode::For}); }
  void owns(KindInfo kind) { add({std::move(kind), WatchRequest::Mode::Owns}); }
  void watches_tracked(KindInfo kind) { add({std::move(kind), WatchRequest::Mode::Tracked}); }
  const std::vector<WatchRequest>& watches() const noexcept { return watches_; }
  // Validation warnings of the tree being set up; the controller logs them at start.
  void warn(std::string message) { warnings_.push_back(std::move(message)); }
  const std::vector<std::string>& warnings() const noexcept { return warnings_; }

 private:
  void add(WatchRequest w);
  Config config_;
  std::vector<WatchRequest> watches_;
  std::vector<std::string> warnings_;
};

template <class R, class T>
concept ReconcilerOf = requires(const R& r, Context& ctx, T& t, Validation& v, Setup& s) {
  { r.reconcile(ctx, t) } -> std::same_as<Outcome>;
  r.validate(v);
  r.setup(s);
  { r.display_name() } -> std::convertible_to<std::string>;
};

template <class T>
class SubReconciler {
 public:
  SubReconciler() = default;  // empty: reconcile() does nothing
  template <class R>
    requires(!std::same_as<std::remove_cvref_t<R>, SubReconciler> && ReconcilerOf<std::remove_cvref_t<R>, T>)
  SubReconciler(R&& r)  // NOLINT(google-explicit-constructor): handles stand in for reconcilers
      : impl_(std::make_shared<Model<std::remove_cvref_t<R>>>(std::forward<R>(r))) {}

  explicit operator bool() const noexcept { return impl_ != nullptr; }
  Outcome reconcile(Context& ctx, T& resource) const {
    return impl_ ? impl_->reconcile(ctx, resource) : Outcome{};
  }
  void validate(Validation& v) const {
    if (!impl_) return;
    auto scope = v.enter(impl_->display_name());
    impl_->validate(v);
  }
  void setup(Setup& s) const {
    if (impl_) impl_->setup(s);
  }
  std::string display_name() const { return impl_ ? impl_->display_name() : std::string(); }

 private:
  struct Concept {
    virtual ~Concept() = default;
    virtual Outcome reconcile(Context& ctx, T& resource) const = 0;
    virtual void validate(Validation& v) const = 0;
    virtual void setup(Setup& s) const = 0;
    virtual std::string display_name() const = 0;
  };
  template <class R>
  struct Model final : Concept {
    explicit Model(R r) : r_(std::move(r)) {}
    Outcome reconcile(Context& ctx, T& resource) const override { return r_.reconcile(ctx, resource); }
    void validate(Validation& v) const override { r_.validate(v); }
    void setup(Setup& s) const override { r_.setup(s); }
    std::string display_name() const override { return r_.display_name(); }
    R r_;
  };
  std::shared_ptr<const Concept> impl_;
};

// Validates a tree (recursive) and throws ValidationError listing every finding; returns the
// warnings (pitfalls that do not block, e.g. a status without conditions) for the caller to report.
template <class R>
std::vector<std::string> validate_reconciler(const R& r) {
  Validation v(true);
  {
    auto scope = v.enter(r.display_name());
    r.validate(v);
  }
  v.throw_if_failed();
  return v.warnings();
}

// Calls a user hook, turning a thrown exception into an rr::Error (ApiError keeps its Status).
template <class F>
Error call_hook(F&& f) noexcept {
  try {
    return std::forward<F>(f)();
  } catch (...) {
    return Error::from_current_exception();
  }
}

}  // namespace rr
