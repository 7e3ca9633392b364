// AggregateReconciler<T>: the root reconciler of one named object (`request`) the controller
// both reads and writes — synthesised from other state, created when missing, updated when it
// drifts, deleted when no longer desired.
//
//   rr::AggregateReconciler<ConfigMap>{
//       .request = {"ns", "settings"},
//       .reconciler = CollectSettings(),          // stashes what desired_resource needs
//       .desired_resource = [](rr::Context& ctx, ConfigMap cm) -> rr::Desired<ConfigMap> { ...; return cm; },
//       .aggregate_object_manager = rr::UpdatingObjectManager<ConfigMap>{.merge_before_update = ...},
//       .config = config,
//   }
//
// Per request (reconciler.io aggregate.go):
//  1. Requests for another object → Result{}.
//  2. A fresh Context as for ResourceReconciler; RequestOptions::prepare; before_reconcile (an
//     error ends the request; a quiet one becomes a requeue).
//  3. Get: NotFound is no error — an empty T with the requested namespace and name stands in, so
//     it can be created. Other errors are returned. A terminating object is left alone (Result{}).
//  4. The reconciler tree; an error other than err_halt_sub_reconcilers ends the request with it.
//  5. desired_resource(ctx, copy of the resource) — default: the resource as it is; nullopt: it
//     should not exist. It runs under a copy of the config with a throwaway tracker, so tracks the
//     object manager makes are ignored (the controller watches T itself); everything else of the
//     config is kept (decision Q9: reconciler.io dropped the recorder there).
//  6. aggregate_object_manager.manage(resource, actual = resource, desired).
//  7. after_reconcile(result aggregated with before's, error); a quiet final error becomes a
//     requeue, as in ResourceReconciler. No status handling, conditions or observedGeneration.
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <utility>

#include "rr/reconcilers/object_manager.hpp"
#include "rr/reconcilers/resource.hpp"

namespace rr {

template <Object T>
struct AggregateReconciler {
  std::string name{};  // default "<Kind>AggregateReconciler"
  std::function<void(Setup&)> on_setup{};
  Request request{};  // the one object reconciled; required
  SubReconciler<T> reconciler{};
  std::function<Desired<T>(Context&, T resource)> desired_resource{};
  ObjectManager<T> aggregate_object_manager{};  // required
  std::function<Outcome(Context&, const Request&)> before_reconcile{};
  std::function<Outcome(Context&, const Request&, Result, Error)> after_reconcile{};
  Config config{};

  std::string display_name() const {
    return name.empty() ? std::string(ResourceTraits<T>::kind) + "AggregateReconciler" : name;
  }

  Outcome reconcile(const Request& req, const RequestOptions& options = {}) const {
    if (req != request) return Result{};  // not ours
    Context ctx = root_detail::make_context(kind_info_of<T>(), config, req, options, display_name());
    if (options.prepare) {
      if (Error err = call_hook([&] {
            options.prepare(ctx);
            return Error{};
          })) {
        return err;
      }
    }
    Outcome before = root_detail::call_before(before_reconcile, ctx, req);
    if (before.error) return root_detail::quiet_as_requeue(std::move(before));

    Outcome out = reconcile_object(ctx, req);
    out.result = aggregate_results(before.result, out.result);
    return root_detail::quiet_as_requeue(root_detail::call_after(after_reconcile, ctx, req, std::move(out)));
  }

  void validate(Validation& v) const {
    const std::string self = "AggregateReconciler " + go_quote(display_name());
    if (request.name.empty()) v.fail(self + " must define request");
    if (!reconciler && !desired_resource) v.fail(self + " must define reconciler and/or desired_resource");
    if (!aggregate_object_manager) v.fail(self + " must define aggregate_object_manager");
    aggregate_object_manager.validate(v);
    if (v.recursive()) reconciler.validate(v);
  }

  // Validates the whole tree (throws ValidationError), then: for_kind(T), on_setup, the tree, the
  // object manager.
  void setup(Setup& s) const {
    for (std::string& warning : validate_reconciler(*this)) s.warn(std::move(warning));
    s.for_kind(kind_info_of<T>());
    if (on_setup) on_setup(s);
    reconciler.setup(s);
    aggregate_object_manager.setup(s);
  }

 private:
  Outcome reconcile_object(Context& ctx, const Request& req) const {
    T resource;
    if (Error err = call_hook([&] {
          resource = ctx.config().api().get<T>(req);
          return Error{};
        })) {
      if (!is_not_found(err)) {
        if (!err.is(err_quiet())) ctx.log().error(err, "unable to fetch resource");
        return err;
      }
      resource = T{};  // not found is fine: it may be created
      resource.metadata.namespace_ = request.namespace_;
      resource.metadata.name = request.name;
    }
    if (is_terminating(resource)) return Result{};

    Outcome out = root_detail::run_tree(reconciler, ctx, resource);
    if (out.error && !out.error.is(err_halt_sub_reconcilers())) return out;

    // Tracks from the object manager would point the controller at its own object: it watches
    // T anyway. They go to a throwaway tracker.
    Config untracked = ctx.config();
    untracked.tracker = make_tracker(std::chrono::nanoseconds{0});
    auto scope = ctx.with_config(std::move(untracked));

    Desired<T> desired = T(resource);
    if (desired_resource) {
      if (Error thrown = call_hook([&] {
            desired = desired_resource(ctx, T(resource));
            return Error{};
          })) {
        return {out.result, std::move(thrown)};
      }
    }
    if (desired.error) return {out.result, std::move(desired.error)};
    Managed<T> managed = aggregate_object_manager.manage(ctx, resource, &resource, desired.object ? &*desired.object : nullptr);
    return {out.result, std::move(managed.error)};
  }
};

}  // namespace rr
