// ResourceReconciler<T>: the root reconciler of one kind. For each request it fetches the
// resource, defaults it, initialises its conditions, runs the sub-reconciler tree, reflects
// observedGeneration, restores unchanged lastTransitionTimes and writes the status once, at the
// end, when it changed.
//
//   rr::ResourceReconciler<Widget>{
//       .name = "Widget",
//       .conditions = rr::ConditionSet::living({"ImageReady"}),
//       .reconciler = rr::Sequence<Widget>{ResolveImage(), ChildImage()},
//       .config = config,
//   }
//
// Per request, in order (reconciler.io resource.go):
//  1. A fresh Context: config (also the original config), request, resource type, a logger named
//     display_name() with resourceType, `now` (pinned by RequestOptions::now), additional configs;
//     then RequestOptions::prepare.
//  2. skip_request → Result{}.
//  3. before_reconcile: an error is returned at once, as it is (no quiet→requeue here, as upstream).
//  4. Get through the original config: NotFound → Result{} (no error, no event); other errors are
//     returned (logged unless quiet).
//  5. The working copy is defaulted (T::apply_defaults() when T has it).
//  6. skip_resource → Result{}.
//  7. `conditions` (our replacement for status.InitializeConditions()): initialise them.
//  8. Terminating without finalizers → nothing runs (Result{}). Otherwise the reconciler tree; on
//     success or err_halt_sub_reconcilers, status.observedGeneration = metadata.generation.
//  9. skip_status_update → the tree's outcome.
// 10. Conditions whose type, status, reason, message and observedGeneration did not change get
//     their original lastTransitionTime back.
// 11. The status is written (update_status through the original config) when the error is not
//     err_skip_status_update, the serialised status changed and the resource is not terminating
//     (unless sync_status_during_finalization). Even when the tree failed.
//       - 409 Conflict → Result{.requeue = true}: a quiet, rate-limited requeue; no error, no
//         event (decision Q6: upstream answers Result{} and counts on the competing write's event,
//         which never comes when the 409 had another cause, and the resource stays stale).
//       - other failure → Warning StatusUpdateFailed "Failed to update status: <error>"; the error.
//       - success → Normal StatusUpdated "Updated status" and Result{}, no error: the tree's result
//         and error are dropped, the write's watch event re-drives (decision Q4: kept as upstream).
// 12. Without a write, the tree's outcome.
// 13. after_reconcile(result aggregated with before's, error). A final error matching err_quiet
//     (halt, durable, skip+quiet) becomes Result{.requeue = true} without error — a rate-limited
//     requeue that is its own result kind (decision Q5) — or the result itself when it asks for a
//     requeue_after.
//
// A dynamic T (rr::Unstructured, a duck type; dynamic_object.hpp) has no compile-time kind: `type`
// names it (required then). A duck's status is written as a JSON merge patch of status, from the
// status as read to the status after the tree, on the status subresource (never an update: the
// members the duck does not know are not sent), with the events StatusPatched "Patched status" /
// StatusPatchFailed "Failed to patch status: <error>" (reconciler.io's duck handling). An
// rr::Unstructured's status is compared and written with update_status, but its conditions and
// observedGeneration are not managed (`conditions` is refused; use a duck for that).
//
// status_write = StatusWrite::Apply (a generated kind only): step 11 writes the status by
// server-side apply of the status subresource instead (controller-runtime's Status().Apply), with
// `field_manager` (default: the lower-cased kind) and force. The configuration is the status the
// reconcile computed, whole (rr/reconcilers/status_apply.hpp: a field no longer set is removed, a
// field another manager owns and the reconcile left as read is not taken). Same conditions to write,
// same outcomes and events (StatusUpdated / StatusUpdateFailed). docs/runtime/02, "Status by
// server-side apply".
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "rr/client/dynamic_api.hpp"
#include "rr/reconcilers/conditions.hpp"
#include "rr/reconcilers/object.hpp"
#include "rr/reconcilers/root.hpp"
#include "rr/reconcilers/sub_reconciler.hpp"

namespace rr {

namespace root_detail {

// The Context of one request to a root reconciler of T.
inline Context make_context(KindInfo kind, const Config& config, const Request& request, const RequestOptions& options,
                            std::string_view name) {
  Logger log = options.log.named(name).with("resourceType", gvk_text(kind.gvk));
  return Context(ContextOptions{config, request, std::move(kind), std::move(log), options.now, options.cancelled,
                                options.additional_configs, options.stop, options.deadline});
}

// At a root, a quiet error is not an error: it asks for a silent, rate-limited requeue (or for the
// requeue_after the result already carries).
inline Outcome quiet_as_requeue(Outcome out) {
  if (!out.error || !out.error.is(err_quiet())) return out;
  if (out.result.requeue_after.count() > 0) return out.result;
  return Result{.requeue = true};
}

// before_reconcile: the hook's outcome (a thrown exception is its error).
inline Outcome call_before(const std::function<Outcome(Context&, const Request&)>& hook, Context& ctx,
                           const Request& request) {
  if (!hook) return {};
  Outcome out;
  if (Error thrown = call_hook([&] {
        out = hook(ctx, request);
        return Error{};
      })) {
    return {out.result, std::move(thrown)};
  }
  return out;
}

// after_reconcile: the hook's outcome; absent, (result, error) unchanged.
inline Outcome call_after(const std::function<Outcome(Context&, const Request&, Result, Error)>& hook,
                          Context& ctx, const Request& request, Outcome in) {
  if (!hook) return in;
  Outcome out;
  if (Error thrown = call_hook([&] {
        out = hook(ctx, request, in.result, in.error);
        return Error{};
      })) {
    return {in.result, std::move(thrown)};
  }
  return out;
}

// Writes a status (`status` points at one) into `out`: the status type's to_json.
using EncodeStatus = void (*)(Json& out, const void* status);
// Sends the status subresource of `key` the merge patch from {"status": before} to {"status":
// after}; a null pointer is an absent status. Out of line, so the template needs rr::Json only
// declared.
void patch_status(Client& api, const KindInfo& kind, const ObjectKey& key, EncodeStatus encode, const void* before,
                  const void* after);

// Applies the status of `computed` (encoded with `codec`; `original` is the object as read, with
// its managedFields) to the status subresource as `field_manager` with force
// (status_apply_configuration). The answer is dropped, as update_status's.
void apply_status(Client& api, const KindInfo& kind, const client_detail::ObjectCodec& codec, const void* original,
                  const void* computed, std::string_view field_manager);
// The lower-cased kind: "WebApp" -> "webapp".
std::string default_status_field_manager(const KindInfo& kind);

// Runs a (possibly user-written) sub-reconciler; an escaping exception becomes its error.
template <class T>
Outcome run_tree(const SubReconciler<T>& reconciler, Context& ctx, T& resource) {
  try {
    return reconciler.reconcile(ctx, resource);
  } catch (...) {
    return Error::from_current_exception();
  }
}

}  // namespace root_detail

// How a ResourceReconciler writes the status: an update of the status subresource (the whole
// object, with its resourceVersion), or a server-side apply of it.
enum class StatusWrite { Update, Apply };

template <AnyObject T>
struct ResourceReconciler {
  std::string name{};  // default "<Kind>ResourceReconciler"
  std::function<void(Setup&)> on_setup{};
  bool skip_status_update = false;
  bool sync_status_during_finalization = false;
  // Conditions initialised on status before the tree runs (needs status.conditions).
  std::optional<ConditionSet> conditions{};
  SubReconciler<T> reconciler{};
  // Runs first; an error ends the request with it. The context may be prepared (stash).
  std::function<Outcome(Context&, const Request&)> before_reconcile{};
  // Runs last with the result and error; returns what the request answers.
  std::function<Outcome(Context&, const Request&, Result, Error)> after_reconcile{};
  std::function<bool(Context&, const Request&)> skip_request{};
  std::function<bool(Context&, const T&)> skip_resource{};
  Config config{};
  // The kind of a dynamic T (required then); ignored for a generated kind.
  KindInfo type{};
  // Update (default) or Apply (server-side apply of the status; a generated kind only).
  StatusWrite status_write = StatusWrite::Update;
  // Who applies the status with StatusWrite::Apply; "" = the lower-cased kind.
  std::string field_manager{};

  std::string display_name() const {
    if (!name.empty()) return name;
    if constexpr (Object<T>) {
      return std::string(ResourceTraits<T>::kind) + "ResourceReconciler";
    } else {
      return type.gvk.kind + "ResourceReconciler";
    }
  }

  // How the resource is addressed: ResourceTraits, or `type` for a dynamic T.
  KindInfo resource_kind() const {
    if constexpr (Object<T>) {
      return kind_info_of<T>();
    } else {
      return type;
    }
  }

  Outcome reconcile(const Request& request, const RequestOptions& options = {}) const {
    Context ctx = root_detail::make_context(resource_kind(), config, request, options, display_name());
    if (options.prepare) {
      if (Error err = call_hook([&] {
            options.prepare(ctx);
            return Error{};
          })) {
        return err;
      }
    }
    if (skip_request) {
      bool skip = false;
      if (Error err = call_hook([&] {
            skip = skip_request(ctx, request);
            return Error{};
          })) {
        return err;
      }
      if (skip) return Result{};
    }
    Outcome before = root_detail::call_before(before_reconcile, ctx, request);
    if (before.error) return before;

    Outcome out = reconcile_outer(ctx, request);
    out.result = aggregate_results(before.result, out.result);
    return root_detail::quiet_as_requeue(root_detail::call_after(after_reconcile, ctx, request, std::move(out)));
  }

  void validate(Validation& v) const {
    const std::string self = "ResourceReconciler " + go_quote(display_name());
    const std::string kind = resource_kind().gvk.kind;
    if (!reconciler) v.fail(self + " must define reconciler");
    if constexpr (!Object<T>) {
      if (status_write == StatusWrite::Apply)
        v.fail(self + " applies its status, which needs a generated kind (" + kind + " is dynamic)");
    }
    if constexpr (DynamicObject<T>) {
      if (type.gvk.kind.empty() || type.plural.empty()) {
        v.fail(self + " must define type (kind and plural) for a dynamic resource");
      }
    }
    // Common pitfalls, as warnings (not blockers).
    if constexpr (HasJsonStatus<T>) {
      if (conditions) v.fail(self + " sets conditions but " + kind + " is unstructured: use a duck type");
    } else if constexpr (!HasStatus<T>) {
      v.warn(self + ": " + kind + " has no status, operations related to status will be skipped");
      if (conditions) v.fail(self + " sets conditions but " + kind + " has no status.conditions");
    } else {
      if constexpr (!HasObservedGeneration<T>) {
        v.warn(self + ": " + kind + " status has no observed_generation, the generation will not be reflected");
      }
      if constexpr (!HasConditions<T>) {
        v.warn(self + ": " + kind + " status has no conditions, lastTransitionTime will not be managed");
        if (conditions) v.fail(self + " sets conditions but " + kind + " has no status.conditions");
      } else if (!conditions) {
        v.warn(self + ": conditions is not set, " + kind + " conditions will not be initialised");
      }
    }
    if (v.recursive()) reconciler.validate(v);
  }

  // Validates the whole tree (throws ValidationError), then: for_kind(T), on_setup, the tree.
  void setup(Setup& s) const {
    for (std::string& warning : validate_reconciler(*this)) s.warn(std::move(warning));
    s.for_kind(resource_kind());
    if (on_setup) on_setup(s);
    reconciler.setup(s);
  }

 private:
  Outcome reconcile_outer(Context& ctx, const Request& request) const {
    T original;
    if (Error err = call_hook([&] {
          original = any_api::get<T>(ctx.original_config().api(), resource_kind(), request);
          return Error{};
        })) {
      // Not found cannot be fixed by retrying: a new notification will come if it reappears.
      if (is_not_found(err)) return Result{};
      if (!err.is(err_quiet())) ctx.log().error(err, "unable to fetch resource");
      return err;
    }
    T resource = original;
    if constexpr (requires(T& t) { t.apply_defaults(); }) {
      if (Error err = call_hook([&] {
            resource.apply_defaults();
            return Error{};
          })) {
        return err;
      }
    }
    if (skip_resource) {
      bool skip = false;
      if (Error err = call_hook([&] {
            skip = skip_resource(ctx, std::as_const(resource));
            return Error{};
          })) {
        return err;
      }
      if (skip) return Result{};
    }
    initialize_conditions(ctx, resource);

    Outcome out = reconcile_inner(ctx, resource);
    if (skip_status_update) return out;

    if constexpr (HasStatus<T>) {
      if constexpr (HasConditions<T>) {
        const std::vector<Condition>* before = conditions_of(original);
        std::vector<Condition>* after = conditions_of(resource);
        if (before && after) restore_last_transition_times(*after, *before);
      }
      const bool write = !out.error.is(err_skip_status_update()) && !same_status(resource, original) &&
                         (!is_terminating(resource) || sync_status_during_finalization);
      if (write) return write_status(ctx, original, resource, std::move(out));
    } else if constexpr (HasJsonStatus<T>) {
      const bool write = !out.error.is(err_skip_status_update()) && !same_status(resource, original) &&
                         (!is_terminating(resource) || sync_status_during_finalization);
      if (write) return write_status(ctx, original, resource, std::move(out));
    }
    return out;
  }

  void initialize_conditions(Context& ctx, T& resource) const {
    if constexpr (HasConditions<T>) {
      if (conditions) conditions->manage(ensure_conditions(resource), ctx.now()).initialize();
    } else {
      (void)ctx;
      (void)resource;
    }
  }

  Outcome reconcile_inner(Context& ctx, T& resource) const {
    // Being deleted with no finalizers pending: nothing left to do.
    if (is_terminating(resource) && resource.metadata.finalizers.empty()) return Result{};
    Outcome out = root_detail::run_tree(reconciler, ctx, resource);
    if (out.error && !out.error.is(err_halt_sub_reconcilers())) return out;
    if constexpr (HasObservedGeneration<T>) set_observed_generation(resource);
    return out;
  }

  Outcome write_status(Context& ctx, const T& original, T& resource, Outcome tree) const {
    if constexpr (DuckObject<T>) {
      return patch_status(ctx, original, resource, std::move(tree));
    } else if constexpr (Object<T>) {
      if (status_write == StatusWrite::Apply) return apply_status(ctx, original, resource, std::move(tree));
      return update_status(ctx, resource, std::move(tree));
    } else {
      (void)original;
      return update_status(ctx, resource, std::move(tree));
    }
  }

  std::string status_field_manager() const {
    return field_manager.empty() ? root_detail::default_status_field_manager(resource_kind()) : field_manager;
  }

  Outcome update_status(Context& ctx, T& resource, Outcome tree) const {
    const Config& c = ctx.original_config();
    ctx.log().info("updating status");
    Error err = call_hook([&] {
      any_api::update_status(c.api(), resource_kind(), resource);
      return Error{};
    });
    if (err) {
      if (is_conflict(err)) {
        // Decision Q6: read the newer version again later, quietly (see the header comment).
        ctx.log().info("conflict updating status, requeueing");
        return Result{.requeue = true};
      }
      if (!err.is(err_quiet())) {
        ctx.log().error(err, "unable to update status");
        if (c.recorder) c.recorder->event(resource, event_warning, "StatusUpdateFailed", "Failed to update status: " + err.message());
      }
      return {tree.result, std::move(err)};
    }
    return status_written(ctx, resource);
  }

  // Success of a status write: the event, and Result{} (decision Q4: the tree's result and error
  // are dropped on purpose, see the header comment).
  Outcome status_written(Context& ctx, const T& resource) const {
    const Config& c = ctx.original_config();
    if (c.recorder) c.recorder->event(resource, event_normal, "StatusUpdated", "Updated status");
    return Result{};
  }

  // StatusWrite::Apply: the status by server-side apply; outcomes and events as update_status's.
  Outcome apply_status(Context& ctx, const T& original, const T& resource, Outcome tree) const {
    const Config& c = ctx.original_config();
    const std::string manager = status_field_manager();
    ctx.log().with("fieldManager", manager).info("applying status");
    Error err = call_hook([&] {
      root_detail::apply_status(c.api(), resource_kind(), client_detail::codec_of<T>, &original, &resource, manager);
      return Error{};
    });
    if (err) {
      if (is_conflict(err)) {
        ctx.log().info("conflict applying status, requeueing");
        return Result{.requeue = true};
      }
      if (!err.is(err_quiet())) {
        ctx.log().error(err, "unable to apply status");
        if (c.recorder)
          c.recorder->event(resource, event_warning, "StatusUpdateFailed", "Failed to update status: " + err.message());
      }
      return {tree.result, std::move(err)};
    }
    return status_written(ctx, resource);
  }

  // A duck's status: a merge patch from the status as read, so nothing the duck does not know is
  // sent. Outcomes as update_status's, with reconciler.io's StatusPatched / StatusPatchFailed.
  Outcome patch_status(Context& ctx, const T& original, T& resource, Outcome tree) const {
    const Config& c = ctx.original_config();
    ctx.log().info("patching status");
    Error err = call_hook([&] {
      using S = std::remove_cvref_t<decltype(*original.status)>;
      const root_detail::EncodeStatus encode = [](Json& out, const void* status) {
        to_json(out, *static_cast<const S*>(status));
      };
      root_detail::patch_status(c.api(), resource_kind(), key_of(resource), encode,
                                original.status ? &*original.status : nullptr,
                                resource.status ? &*resource.status : nullptr);
      return Error{};
    });
    if (err) {
      if (is_conflict(err)) {
        ctx.log().info("conflict patching status, requeueing");
        return Result{.requeue = true};
      }
      if (!err.is(err_quiet())) {
        ctx.log().error(err, "unable to patch status");
        if (c.recorder)
          c.recorder->event(resource, event_warning, "StatusPatchFailed", "Failed to patch status: " + err.message());
      }
      return {tree.result, std::move(err)};
    }
    if (c.recorder) c.recorder->event(resource, event_normal, "StatusPatched", "Patched status");
    return Result{};
  }
};

}  // namespace rr
