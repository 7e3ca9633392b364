// SyncReconciler<T>: the minimal sub-reconciler — custom work on the resource, typically looking
// up data and writing it to status.
//
//   rr::SyncReconciler<Widget>{
//       .name = "TargetImage",
//       .sync = [](rr::Context& ctx, Widget& w) -> rr::Error { ...; return {}; },
//   }
//
// `sync` / `sync_with_result` (exactly one) runs while the resource is not terminating, and also
// while it is when `sync_during_finalization` is set. `finalize` / `finalize_with_result` (at
// most one) runs while it is terminating, after sync; results are aggregated. It never adds or
// removes finalizers itself (see WithFinalizer and the finalizer helpers).
#pragma once
#include <functional>
#include <string>
#include <utility>

#include "rr/reconcilers/object.hpp"
#include "rr/reconcilers/sub_reconciler.hpp"

namespace rr {

template <HasObjectMeta T>
struct SyncReconciler {
  std::string name{};  // default "SyncReconciler"
  std::function<void(Setup&)> on_setup{};
  bool sync_during_finalization = false;
  std::function<Error(Context&, T&)> sync{};
  std::function<Outcome(Context&, T&)> sync_with_result{};
  std::function<Error(Context&, T&)> finalize{};
  std::function<Outcome(Context&, T&)> finalize_with_result{};

  std::string display_name() const { return name.empty() ? "SyncReconciler" : name; }

  Outcome reconcile(Context& ctx, T& resource) const {
    auto named = ctx.with_log(ctx.log().named(display_name()));
    Result result;
    if (!is_terminating(resource) || sync_during_finalization) {
      Outcome synced = run(ctx, resource, sync, sync_with_result);
      result = aggregate_results(result, synced.result);
      if (synced.error) {
        if (!synced.error.is(err_quiet())) ctx.log().error(synced.error, "unable to sync");
        return {result, std::move(synced.error)};
      }
    }
    if (is_terminating(resource)) {
      Outcome finalized = run(ctx, resource, finalize, finalize_with_result);
      result = aggregate_results(result, finalized.result);
      if (finalized.error) {
        if (!finalized.error.is(err_quiet())) ctx.log().error(finalized.error, "unable to finalize");
        return {result, std::move(finalized.error)};
      }
    }
    return result;
  }

  void validate(Validation& v) const {
    const std::string self = "SyncReconciler " + go_quote(display_name());
    if (!sync && !sync_with_result) v.fail(self + " must implement sync or sync_with_result");
    if (sync && sync_with_result) v.fail(self + " may not implement both sync and sync_with_result");
    if (finalize && finalize_with_result) v.fail(self + " may not implement both finalize and finalize_with_result");
  }

  void setup(Setup& s) const {
    if (on_setup) on_setup(s);
  }

 private:
  // Whichever of the two hooks is set; neither: nothing to do.
  static Outcome run(Context& ctx, T& resource, const std::function<Error(Context&, T&)>& plain,
                     const std::function<Outcome(Context&, T&)>& with_result) {
    Outcome out;
    Error thrown = call_hook([&] {
      if (with_result) {
        out = with_result(ctx, resource);
      } else if (plain) {
        out = plain(ctx, resource);
      }
      return Error{};
    });
    if (thrown) out.error = std::move(thrown);
    return out;
  }
};

}  // namespace rr
