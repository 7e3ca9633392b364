// Sequence<T>: sub-reconcilers called in order, results aggregated; the first error stops it.
//
//   rr::Sequence<Widget>{ReconcileImage(), ReconcileService()}
//   rr::Sequence<Widget>{"Children", {ReconcileImage(), ReconcileService()}}
//
// A braced list holding one Sequence copies it rather than nesting it (C++ list-initialisation
// rules); the behaviour is the same, only the name is not nested.
//
// Decision Q1 (docs/reconcilers-flow.md): on error the result is the aggregate of every step run
// so far, the failing one included (reconciler.io returns only the failing step's own result).
#pragma once
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "rr/reconcilers/sub_reconciler.hpp"

namespace rr {

template <class T>
struct Sequence {
  std::string name;  // optional; adds a log name level when set
  std::vector<SubReconciler<T>> reconcilers;

  Sequence() = default;
  Sequence(std::initializer_list<SubReconciler<T>> steps) : reconcilers(steps) {}
  Sequence(std::string sequence_name, std::initializer_list<SubReconciler<T>> steps)
      : name(std::move(sequence_name)), reconcilers(steps) {}
  Sequence(std::string sequence_name, std::vector<SubReconciler<T>> steps)
      : name(std::move(sequence_name)), reconcilers(std::move(steps)) {}

  std::string display_name() const { return name.empty() ? "Sequence" : name; }

  Outcome reconcile(Context& ctx, T& resource) const {
    auto named = ctx.with_log(name.empty() ? ctx.log() : ctx.log().named(name));
    Result aggregate;
    for (std::size_t i = 0; i < reconcilers.size(); ++i) {
      auto step_log = ctx.with_log(ctx.log().named(std::to_string(i)));
      Outcome step = reconcilers[i].reconcile(ctx, resource);
      aggregate = aggregate_results(aggregate, step.result);
      if (step.error) return {aggregate, std::move(step.error)};
    }
    return aggregate;
  }

  void validate(Validation& v) const {
    if (!v.recursive()) return;
    for (const auto& r : reconcilers) r.validate(v);
  }

  void setup(Setup& s) const {
    for (const auto& r : reconcilers) r.setup(s);
  }
};

}  // namespace rr
