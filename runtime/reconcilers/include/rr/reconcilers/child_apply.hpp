// ChildApplyReconciler<T, A>: ChildReconciler in apply mode. The child's desired state is an apply
// configuration A (generated, <kind>_apply.hpp; its object type C = A::object_type is the child
// kind), written with server-side apply as controller-runtime recommends: the operator's field
// manager, force = true, only the fields the configuration states. No object manager and no
// merge_before_update: the API server merges.
//
//   rr::ChildApplyReconciler<Widget, k8s::apps::v1::DeploymentApply>{
//       .desired_child = [](rr::Context& ctx, const Widget& w) -> std::optional<DeploymentApply> { ... },
//       .reflect_child_status_on_parent = [](rr::Context& ctx, Widget& w, const Deployment* child,
//                                            const rr::Error& err) { ... },
//       .field_manager = "widget-controller",
//   }
//
// Per request:
//  1. Lookup as ChildReconciler (rr/reconcilers/child.hpp): the children stashed by an enclosing
//     ChildSetReconciler, else a List of C (list_options, default the parent's namespace); ours =
//     controlled by the parent, and our_child if set. Extra children are deleted.
//  2. Desired: desired_child (not called while the parent is terminating). A configuration, none
//     (std::nullopt: delete the child as update mode does), an error, or
//     err_only_reconcile_child_status().
//  3. The configuration gets metadata.namespace (the parent's when unset; another namespace is an
//     error) and a controller reference to the parent (controller, blockOwnerDeletion); it must
//     name the child (generateName cannot be applied).
//  4. No child of ours in the cache, but an object of the desired name that is not ours (read
//     once, uncached): not applied over (that would merge into it and take it) but refused as
//     update mode's create is, AlreadyExists (reflected; the sample hooks say NotOwned), with a
//     CreationFailed event and the object tracked, so that its deletion re-drives the parent.
//  5. Write only when needed: when the actual child exists, the configuration `field_manager`
//     applied to it last (rr::extract_applied over its managedFields) is compared, as JSON, with
//     the desired configuration; equal means in sync and nothing is sent. Otherwise one apply
//     (PATCH application/apply-patch+yaml, fieldManager, force=true). A child of another name
//     than the desired one is deleted first.
//  6. Events on the parent as update mode: Normal Created / Updated / Deleted, Warning
//     CreationFailed / UpdateFailed / DeleteFailed. Reflection and reflected_child_error_reasons
//     as ChildReconciler.
//
// The field manager defaults to the lower-cased kind of the reconciled resource (the name
// controller-runtime gives a controller by default); the generated wiring sets the controller's
// name. docs/runtime/06-child-reconciler.md, "Apply mode".
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rr/client/apply.hpp"
#include "rr/client/dynamic_api.hpp"
#include "rr/reconcilers/child.hpp"
#include "rr/reconcilers/object.hpp"
#include "rr/reconcilers/object_manager.hpp"
#include "rr/reconcilers/sub_reconciler.hpp"

namespace rr {

namespace child_apply_detail {
// The non-template work, out of line (rr_reconcilers' child_apply.cpp): nothing here needs
// rr::Json defined.

// Sets metadata.namespace (the parent's when unset) and upserts the controller reference to the
// parent (`ref`) into `config`; the errors of set_controller_reference. A configuration without
// metadata.name is an error.
Error prepare_metadata(ObjectMetaApply& config, const ObjectMeta& parent, OwnerReference ref);
// Whether what `field_manager` applied to `actual` (extract_applied over the codec's JSON) equals
// the desired configuration (its encoder's JSON).
bool applied_in_sync(const client_detail::ObjectCodec& codec, const void* actual, const void* config,
                     void (*encode)(Json& out, const void* config), std::string_view field_manager);
// The default field manager for a reconciled kind: "Widget" -> "widget".
std::string default_field_manager(const KindInfo& resource_type);
}  // namespace child_apply_detail

template <AnyObject T, class A>
  requires ApplyConfiguration<A>
struct ChildApplyReconciler {
  using C = typename A::object_type;

  std::string name{};  // default "<ChildKind>ChildApplyReconciler"
  std::function<void(Setup&)> on_setup{};
  // The configuration of the child that should exist (see the header comment); required.
  std::function<Desired<A>(Context&, const T&)> desired_child{};
  // Updates the parent's status from the child as persisted (nullptr: none) or from the reflected
  // error; required.
  std::function<void(Context&, T&, const C* child, const Error& err)> reflect_child_status_on_parent{};
  // API reasons reflected instead of returned; nullopt = AlreadyExists, Forbidden, Invalid.
  std::optional<std::vector<std::string>> reflected_child_error_reasons{};
  // How to list candidate children; default: the parent's namespace.
  std::function<ListOptions(Context&, const T&)> list_options{};
  // Which controlled candidates are this reconciler's (several reconcilers of one child kind).
  std::function<bool(const T& parent, const C& child)> our_child{};
  // Who applies; "" = the lower-cased kind of the reconciled resource.
  std::string field_manager{};
  // Take fields other managers own (controller-runtime's recommendation for controllers).
  bool force = true;

  std::string display_name() const {
    if (!name.empty()) return name;
    return std::string(ResourceTraits<C>::kind) + "ChildApplyReconciler";
  }

  Outcome reconcile(Context& ctx, T& parent) const {
    auto named = ctx.with_log(ctx.log().named(display_name()).with("childType", gvk_text(kind_info_of<C>().gvk)));
    std::optional<C> child;
    Error err = reconcile_child(ctx, parent, child);
    if (is_terminating(parent)) return err;
    if (err) {
      if (!child_detail::reflects(err, reflected_child_error_reasons)) {
        if (!err.is(err_quiet())) ctx.log().error(err, "unable to reconcile child");
        return err;
      }
      return reflect(ctx, parent, nullptr, err);
    }
    return reflect(ctx, parent, child ? &*child : nullptr, Error{});
  }

  void validate(Validation& v) const {
    const std::string self = "ChildApplyReconciler " + go_quote(display_name());
    if (!desired_child) v.fail(self + " must implement desired_child");
    if (!reflect_child_status_on_parent) v.fail(self + " must implement reflect_child_status_on_parent");
  }

  // Owns(C) and a tracked watch on C, then on_setup.
  void setup(Setup& s) const {
    s.owns(kind_info_of<C>());
    s.watches_tracked(kind_info_of<C>());
    if (on_setup) on_setup(s);
  }

  std::string manager_for(const Context& ctx) const {
    return field_manager.empty() ? child_apply_detail::default_field_manager(ctx.resource_type()) : field_manager;
  }

 private:
  // Lookup and ownership, shared with update mode.
  ChildReconciler<T, C> lookup() const {
    return ChildReconciler<T, C>{.list_options = list_options, .our_child = our_child};
  }

  Error reconcile_child(Context& ctx, T& parent, std::optional<C>& child) const {
    const ChildReconciler<T, C> finder = lookup();
    std::vector<C> children;
    if (Error err = call_hook([&] {
          if (auto known = retrieve_known_children<C>(ctx)) {
            children = std::move(*known);
          } else {
            children = finder.list_children(ctx, parent);
          }
          std::erase_if(children, [&](const C& c) { return !finder.is_our_child(parent, c); });
          return Error{};
        })) {
      return err;
    }
    std::optional<C> actual;
    if (children.size() == 1) {
      actual = std::move(children.front());
    } else if (children.size() > 1) {
      for (const C& extra : children) {  // should not happen: a clean slate
        ctx.log().with("child", key_of(extra).str()).info("extra child detected");
        if (Error err = remove(ctx, parent, extra)) return err;
      }
    }

    std::optional<A> desired;
    if (!is_terminating(parent)) {
      Desired<A> wanted;
      if (Error thrown = call_hook([&] {
            wanted = desired_child(ctx, std::as_const(parent));
            return Error{};
          })) {
        return thrown;
      }
      if (wanted.error) {
        if (wanted.error.is(err_only_reconcile_child_status())) {
          child = std::move(actual);
          return {};
        }
        return wanted.error;
      }
      desired = std::move(wanted.object);
    }
    if (!desired) {
      if (actual && exists_on_server(actual->metadata) && !is_terminating(actual->metadata)) {
        return remove(ctx, parent, *actual);
      }
      return {};
    }
    if (Error err = child_apply_detail::prepare_metadata(desired->metadata, parent.metadata, owner_reference(parent))) {
      return err;
    }
    if (actual && actual->metadata.name != *desired->metadata.name) {
      // The desired child has another name: the old one goes.
      if (Error err = remove(ctx, parent, *actual)) return err;
      actual.reset();
    }
    const std::string manager = manager_for(ctx);
    if (actual) {
      bool in_sync = false;
      if (Error err = call_hook([&] {
            in_sync = child_apply_detail::applied_in_sync(client_detail::codec_of<C>, &*actual, &*desired,
                                                          &client_detail::encode_apply_erased<A>, manager);
            return Error{};
          })) {
        return err;
      }
      if (in_sync) {
        ctx.log().with("child", key_of(*actual).str()).debug("child in sync");
        child = std::move(actual);
        return {};
      }
    }
    if (!actual) {
      if (Error err = refuse_foreign(ctx, parent, finder, *desired)) return err;
    }
    return apply(ctx, parent, *desired, manager, actual.has_value(), child);
  }

  // No child of ours in the cache: an object of the desired name that is not ours (another
  // controller's, or nobody's) is not applied over, which would merge into it and take it. It is
  // reported as update mode's create would meet it, AlreadyExists (reflected: NotOwned), after one
  // uncached read of that name; an object that is ours is one the cache has not caught up with.
  Error refuse_foreign(Context& ctx, T& parent, const ChildReconciler<T, C>& finder, const A& desired) const {
    const ObjectKey key{parent.metadata.namespace_, *desired.metadata.name};
    std::optional<C> existing;
    if (Error err = call_hook([&] {
          existing = any_api::try_get<C>(ctx.config().reader(), kind_info_of<C>(), key);
          return Error{};
        })) {
      return err;
    }
    bool ours = false;
    if (existing) {
      if (Error err = call_hook([&] {
            ours = finder.is_our_child(parent, *existing);
            return Error{};
          })) {
        return err;
      }
    }
    if (!existing || ours) return {};
    const KindInfo kind = kind_info_of<C>();
    ctx.log().with("child", key.str()).info("unable to reconcile child, not owned");
    if (ctx.config().tracker) {
      // Its deletion must re-drive the parent (no owner reference of ours will).
      if (Error track_err = call_hook([&] {
            ctx.config().tracker->track_reference(
                TrackReference{kind.gvk.group, kind.gvk.kind, key.namespace_, key.name, std::nullopt}, key_of(parent));
            return Error{};
          })) {
        ctx.log().error(track_err, "unable to track the conflicting child");
      }
    }
    Error refused = Error::api(api_errors::already_exists(kind.plural, kind.gvk.group, key.name));
    ParentRef(parent).record_event(
        ctx, event_warning, "CreationFailed",
        "Failed to create " + kind.gvk.kind + " " + go_quote(key.name) + ": " + refused.message());
    return refused;
  }

  static OwnerReference owner_reference(const T& parent) {
    OwnerReference ref;
    ref.api_version = api_version_of(parent);
    ref.kind = kind_of(parent);
    ref.name = parent.metadata.name;
    ref.uid = parent.metadata.uid;
    ref.controller = true;
    ref.block_owner_deletion = true;
    return ref;
  }

  Error apply(Context& ctx, T& parent, const A& desired, const std::string& manager, bool existed,
              std::optional<C>& child) const {
    const std::string kind(ResourceTraits<C>::kind);
    const std::string& child_name = *desired.metadata.name;
    ctx.log().with("child", child_name).with("fieldManager", manager).info("applying child");
    C applied;
    Error err = call_hook([&] {
      applied = ctx.config().api().apply(desired, ApplyOptions{.field_manager = manager, .force = force});
      return Error{};
    });
    ParentRef ref(parent);
    if (err) {
      if (!err.is(err_quiet())) {
        ctx.log().error(err, "unable to apply child");
        ref.record_event(ctx, event_warning, existed ? "UpdateFailed" : "CreationFailed",
                         std::string("Failed to ") + (existed ? "update " : "create ") + kind + " " +
                             go_quote(child_name) + ": " + err.message());
      }
      return err;
    }
    ref.record_event(ctx, event_normal, existed ? "Updated" : "Created",
                     std::string(existed ? "Updated " : "Created ") + kind + " " + go_quote(child_name));
    child = std::move(applied);
    return {};
  }

  Error remove(Context& ctx, T& parent, const C& actual) const {
    ctx.log().with("resource", key_of(actual).str()).info("deleting unwanted resource");
    const std::string kind(ResourceTraits<C>::kind);
    Error err = call_hook([&] {
      any_api::remove(ctx.config().api(), kind_info_of<C>(), actual);
      return Error{};
    });
    ParentRef ref(parent);
    if (err) {
      if (!err.is(err_quiet())) {
        ctx.log().error(err, "unable to delete unwanted resource");
        ref.record_event(ctx, event_warning, "DeleteFailed",
                         "Failed to delete " + kind + " " + go_quote(actual.metadata.name) + ": " + err.message());
      }
      return err;
    }
    ref.record_event(ctx, event_normal, "Deleted", "Deleted " + kind + " " + go_quote(actual.metadata.name));
    return {};
  }

  Outcome reflect(Context& ctx, T& parent, const C* child, const Error& err) const {
    return call_hook([&] {
      reflect_child_status_on_parent(ctx, parent, child, err);
      return Error{};
    });
  }
};

}  // namespace rr
