// Always<T>: every sub-reconciler is called, whatever the others return. Results are aggregated
// and errors joined; when any error is not quiet only the non-quiet ones are returned, so the
// outcome matches err_quiet() only when every error was quiet.
//
//   rr::Always<Widget>{RecordMetrics(), ReleaseLocks()}
#pragma once
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "rr/reconcilers/sub_reconciler.hpp"

namespace rr {

template <class T>
struct Always {
  std::string name;  // optional; adds a log name level when set
  std::vector<SubReconciler<T>> reconcilers;

  Always() = default;
  Always(std::initializer_list<SubReconciler<T>> steps) : reconcilers(steps) {}
  Always(std::string always_name, std::initializer_list<SubReconciler<T>> steps)
      : name(std::move(always_name)), reconcilers(steps) {}
  Always(std::string always_name, std::vector<SubReconciler<T>> steps)
      : name(std::move(always_name)), reconcilers(std::move(steps)) {}

  std::string display_name() const { return name.empty() ? "Always" : name; }

  Outcome reconcile(Context& ctx, T& resource) const {
    auto named = ctx.with_log(name.empty() ? ctx.log() : ctx.log().named(name));
    Result aggregate;
    std::vector<Error> all;
    std::vector<Error> loud;
    for (std::size_t i = 0; i < reconcilers.size(); ++i) {
      auto step_log = ctx.with_log(ctx.log().named(std::to_string(i)));
      Outcome step = reconcilers[i].reconcile(ctx, resource);
      aggregate = aggregate_results(aggregate, step.result);
      if (!step.error) continue;
      if (!step.error.is(err_quiet())) loud.push_back(step.error);
      all.push_back(std::move(step.error));
    }
    return {aggregate, Error::join(loud.empty() ? std::move(all) : std::move(loud))};
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
