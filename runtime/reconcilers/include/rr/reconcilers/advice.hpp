// Advice<T>: advises the call of one nested reconciler, aspect style.
//
//   before(ctx, r)                 → Outcome; an error returns at once (with its result). It may
//                                    prepare the request through ctx (the stash) for the rest.
//   around(ctx, r, reconciler)     → Outcome; default: reconciler.reconcile(ctx, r) once. It may
//                                    skip the call, call it several times, or change the outcome.
//   after(ctx, r, result, error)   → Outcome; default: (result, error) unchanged. `result` is
//                                    before's result aggregated with around's.
//
// Decision Q2 (docs/reconcilers-flow.md): setup always sets up the nested reconciler, whether or
// not on_setup is given (reconciler.io skips it when Setup is nil).
#pragma once
#include <functional>
#include <string>
#include <utility>

#include "rr/reconcilers/sub_reconciler.hpp"

namespace rr {

template <class T>
struct Advice {
  std::string name{};
  std::function<void(Setup&)> on_setup{};
  SubReconciler<T> reconciler{};
  std::function<Outcome(Context&, T&)> before{};
  std::function<Outcome(Context&, T&, const SubReconciler<T>&)> around{};
  std::function<Outcome(Context&, T&, Result, Error)> after{};

  std::string display_name() const { return name.empty() ? "Advice" : name; }

  Outcome reconcile(Context& ctx, T& resource) const {
    auto named = ctx.with_log(ctx.log().named(display_name()));
    Result result;
    if (before) {
      Outcome b;
      Error thrown = call_hook([&] {
        b = before(ctx, resource);
        return Error{};
      });
      if (thrown) return {b.result, std::move(thrown)};
      if (b.error) return b;
      result = b.result;
    }

    Outcome a;
    if (around) {
      Error thrown = call_hook([&] {
        a = around(ctx, resource, reconciler);
        return Error{};
      });
      if (thrown) a = Outcome{a.result, std::move(thrown)};
    } else {
      a = reconciler.reconcile(ctx, resource);
    }
    result = aggregate_results(result, a.result);

    if (!after) return {result, std::move(a.error)};
    Outcome out{result, Error{}};
    Error thrown = call_hook([&] {
      out = after(ctx, resource, result, a.error);
      return Error{};
    });
    if (thrown) return {result, std::move(thrown)};
    return out;
  }

  void validate(Validation& v) const {
    if (!reconciler) v.fail("Advice must implement reconciler");
    if (!before && !around && !after) v.fail("Advice must implement at least one of before, around or after");
    if (v.recursive()) reconciler.validate(v);
  }

  void setup(Setup& s) const {
    if (on_setup) on_setup(s);
    reconciler.setup(s);
  }
};

}  // namespace rr
