// WithFinalizer<T>: keeps a finalizer on the resource around a nested reconciler that allocates
// external state, so that state can be cleaned up before the resource goes away.
//
// Not terminating: the finalizer is added first (a merge patch with the original config's
// client, see finalizers.hpp); if that fails the request fails and the nested reconciler does
// not run. Terminating: the nested reconciler runs (it cleans up), and the finalizer is cleared
// only when it succeeded and ready_to_clear_finalizer(ctx, r) holds (default: true).
//
// The finalizer name must be unique to this reconciler and stable across releases: a shared or
// renamed finalizer leaks external state or blocks deletion forever.
#pragma once
#include <functional>
#include <string>

#include "rr/reconcilers/finalizers.hpp"
#include "rr/reconcilers/sub_reconciler.hpp"

namespace rr {

template <AnyObject T>
struct WithFinalizer {
  std::string name{};
  std::string finalizer{};
  SubReconciler<T> reconciler{};
  std::function<bool(Context&, T&)> ready_to_clear_finalizer{};

  std::string display_name() const { return name.empty() ? "WithFinalizer" : name; }

  Outcome reconcile(Context& ctx, T& resource) const {
    auto named = ctx.with_log(ctx.log().named(display_name()));
    if (!terminating(resource)) {
      if (Error e = call_hook([&] { return add_finalizer(ctx, resource, finalizer); })) return e;
    }
    Outcome out = reconciler.reconcile(ctx, resource);
    if (out.error || !terminating(resource)) return out;

    bool ready = true;
    if (ready_to_clear_finalizer) {
      Error e = call_hook([&] {
        ready = ready_to_clear_finalizer(ctx, resource);
        return Error{};
      });
      if (e) return {out.result, std::move(e)};
    }
    if (!ready) return out;
    // As reconciler.io: a failed clear drops the nested result; the error requeues anyway.
    if (Error e = call_hook([&] { return clear_finalizer(ctx, resource, finalizer); })) return e;
    return out;
  }

  void validate(Validation& v) const {
    if (finalizer.empty()) v.fail("WithFinalizer must define finalizer");
    if (!reconciler) v.fail("WithFinalizer must implement reconciler");
    if (v.recursive()) reconciler.validate(v);
  }

  void setup(Setup& s) const { reconciler.setup(s); }

 private:
  static bool terminating(const T& resource) { return resource.metadata.deletion_timestamp.has_value(); }
};

}  // namespace rr
