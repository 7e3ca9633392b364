// ChildReconciler<T, C>: keeps exactly one child C of the reconciled resource T in its desired
// state, and reflects the child onto the parent's status.
//
//   rr::ChildReconciler<Widget, Deployment>{
//       .name = "Deployment",
//       .desired_child = [](rr::Context& ctx, const Widget& w) -> std::optional<Deployment> { ... },
//       .child_object_manager = rr::UpdatingObjectManager<Deployment>{
//           .merge_before_update = [](Deployment& current, const Deployment& desired) {
//             current.metadata.labels = desired.metadata.labels;
//             current.spec = desired.spec;
//           },
//       },
//       .reflect_child_status_on_parent = [](rr::Context& ctx, Widget& w, const Deployment* child,
//                                            const rr::Error& err) { ... },
//   }
//
// Per request:
//  1. Lookup: the children stashed by an enclosing ChildSetReconciler, else a List of C with
//     list_options (default: the parent's namespace). Ours = controlled by the parent (controller
//     owner reference with the parent's UID; unless skip_owner_reference) and our_child, if set.
//     One match is the actual child; several are all deleted through the object manager.
//  2. Desired: desired_child — not called while the parent is terminating (no child is then
//     desired). It returns a child, none (std::nullopt: delete any), an error, or
//     err_only_reconcile_child_status() to leave the child alone but still reflect it.
//  3. Unless skip_owner_reference, the desired child gets a controller reference to the parent
//     (controller and blockOwnerDeletion true); a cross-namespace owner, or another controller
//     already set on it (same group, kind and name = same; decision Q14), is an error.
//  4. child_object_manager.manage(parent, actual, desired).
//  5. Parent terminating: the outcome is returned, nothing reflected. An error whose API reason is
//     in reflected_child_error_reasons (default AlreadyExists, Forbidden, Invalid) is reflected
//     (child = nullptr) and swallowed — except AlreadyExists for an object that, read through the
//     uncached api_reader, is our child (a stale cache: the error is returned to retry). A
//     squatter that is not ours is tracked (unless skip_owner_reference) so that its deletion
//     re-drives the parent. Other errors are returned. Success reflects (child, no error).
#pragma once
#include <algorithm>
#include <any>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "rr/client/dynamic_api.hpp"
#include "rr/client/field_index.hpp"
#include "rr/reconcilers/object.hpp"
#include "rr/reconcilers/object_manager.hpp"
#include "rr/reconcilers/sub_reconciler.hpp"

namespace rr {

// Returned (as the error) by desired_child / desired_children: do not create, update or delete
// the child, only reflect the existing one on the parent.
inline const Error& err_only_reconcile_child_status() {
  static const Error sentinel = Error::make(
      "skip reconciler create/update/delete behavior for the child resource, while still reflecting the existing "
      "child's status on the reconciled resource");
  return sentinel;
}

// The API reasons a ChildReconciler reflects on the parent instead of returning.
inline std::vector<std::string> default_reflected_child_error_reasons() {
  return {"AlreadyExists", "Forbidden", "Invalid"};
}

namespace child_detail {
// Whether a child reconciler reflects `err` (by its API reason) instead of returning it; `reasons`
// unset = default_reflected_child_error_reasons().
inline bool reflects(const Error& err, const std::optional<std::vector<std::string>>& reasons) {
  const std::string reason = reason_of(err);
  if (reason.empty()) return false;
  const std::vector<std::string> list = reasons.value_or(default_reflected_child_error_reasons());
  return std::find(list.begin(), list.end(), reason) != list.end();
}
}  // namespace child_detail

inline constexpr std::string_view known_children_stash_key = "reconciler.io/runtime:knownChildren";

// The children an enclosing ChildSetReconciler found for this request (nullopt outside one, or
// when it manages another child type). desired_children may return them to keep or change them.
template <class C>
std::optional<std::vector<C>> retrieve_known_children(const Context& ctx) {
  const std::any* value = ctx.stash().find(known_children_stash_key);
  if (!value) return std::nullopt;
  const auto* children = std::any_cast<std::vector<C>>(value);
  if (!children) return std::nullopt;
  return *children;
}

// controllerutil.SetControllerReference: `object` gets a controller owner reference to `owner`
// (controller and blockOwnerDeletion true). Errors: a namespaced owner of a cluster-scoped or
// other-namespace object; another controller already set (AlreadyOwned).
template <AnyObject T, HasObjectMeta C>
Error set_controller_reference(const T& owner, C& object) {
  const std::string& owner_ns = owner.metadata.namespace_;
  const std::string& object_ns = object.metadata.namespace_;
  if (!owner_ns.empty()) {
    if (object_ns.empty()) {
      return Error::make("cluster-scoped resource must not have a namespace-scoped owner, owner's namespace " + owner_ns);
    }
    if (object_ns != owner_ns) {
      return Error::make("cross-namespace owner references are disallowed, owner's namespace " + owner_ns +
                         ", obj's namespace " + object_ns);
    }
  }
  OwnerReference ref;
  ref.api_version = api_version_of(owner);
  ref.kind = kind_of(owner);
  ref.name = owner.metadata.name;
  ref.uid = owner.metadata.uid;
  ref.controller = true;
  ref.block_owner_deletion = true;
  return upsert_controller_reference(object.metadata, std::move(ref));
}

// T and C may be dynamic objects (rr::Unstructured, a duck type; dynamic_object.hpp): the kind of
// a dynamic child is `child_type` (required then), the parent's kind is the one it carries.
template <AnyObject T, AnyObject C>
struct ChildReconciler {
  std::string name{};  // default "<ChildKind>ChildReconciler"
  std::function<void(Setup&)> on_setup{};
  // The child that should exist (see the header comment); required.
  std::function<Desired<C>(Context&, const T&)> desired_child{};
  // Creates / updates / deletes the child; required (typically an UpdatingObjectManager<C>).
  ObjectManager<C> child_object_manager{};
  // Updates the parent's status from the child as persisted (nullptr: none) or from the reflected
  // error; required.
  std::function<void(Context&, T&, const C* child, const Error& err)> reflect_child_status_on_parent{};
  // API reasons reflected instead of returned; nullopt = AlreadyExists, Forbidden, Invalid.
  std::optional<std::vector<std::string>> reflected_child_error_reasons{};
  // How to list candidate children; default: the parent's namespace. Required with
  // skip_owner_reference.
  std::function<ListOptions(Context&, const T&)> list_options{};
  // Which candidates are this reconciler's (several reconcilers of one child kind, or no owner
  // references). Required with skip_owner_reference.
  std::function<bool(const T& parent, const C& child)> our_child{};
  // No owner reference on the child, nor lookup by it: our_child and list_options identify the
  // child, and the object manager should track it (track_desired) to notice its changes.
  bool skip_owner_reference = false;
  // The kind of a dynamic C (required then); ignored for a generated kind.
  KindInfo child_type{};

  std::string display_name() const {
    if (!name.empty()) return name;
    if constexpr (Object<C>) {
      return std::string(ResourceTraits<C>::kind) + "ChildReconciler";
    } else {
      return child_type.gvk.kind + "ChildReconciler";
    }
  }

  // How the children are addressed: ResourceTraits, or child_type for a dynamic C.
  KindInfo child_kind() const {
    if constexpr (Object<C>) {
      return kind_info_of<C>();
    } else {
      return child_type;
    }
  }

  Outcome reconcile(Context& ctx, T& parent) const {
    auto named = ctx.with_log(ctx.log().named(display_name()).with("childType", gvk_text(child_kind().gvk)));
    std::optional<C> child;
    Error err = reconcile_child(ctx, parent, child);
    if (is_terminating(parent)) return err;
    if (err) {
      if (!child_detail::reflects(err, reflected_child_error_reasons)) {
        if (!err.is(err_quiet())) ctx.log().error(err, "unable to reconcile child");
        return err;
      }
      if (is_already_exists(err) && !squatter_is_foreign(ctx, parent, err)) return err;
      return reflect(ctx, parent, nullptr, err);
    }
    return reflect(ctx, parent, child ? &*child : nullptr, Error{});
  }

  void validate(Validation& v) const {
    const std::string self = "ChildReconciler " + go_quote(display_name());
    if (!desired_child) v.fail(self + " must implement desired_child");
    if (!reflect_child_status_on_parent) v.fail(self + " must implement reflect_child_status_on_parent");
    if (!child_object_manager) v.fail(self + " must implement child_object_manager");
    if constexpr (DynamicObject<C>) {
      if (child_type.gvk.kind.empty() || child_type.plural.empty()) {
        v.fail(self + " must define child_type (kind and plural) for a dynamic child");
      }
    }
    if (skip_owner_reference) {
      if (!our_child) v.fail(self + " must implement our_child since owner references are not used");
      if (!list_options) v.fail(self + " must implement list_options since owner references are not used");
      // Decision Q17: without owner references nothing watches the child unless it is tracked.
      if (child_object_manager && !child_object_manager.tracks_desired()) {
        v.warn(self + " skips owner references but its object manager does not track the child: changes to the "
                      "child will not re-enqueue the parent (set track_desired)");
      }
    }
    child_object_manager.validate(v);
  }

  // With owner references: Owns(C) and a tracked watch on C (squatters are tracked); then the
  // object manager's setup and on_setup.
  void setup(Setup& s) const {
    if (!skip_owner_reference) {
      s.owns(child_kind());
      s.watches_tracked(child_kind());
    }
    child_object_manager.setup(s);
    if (on_setup) on_setup(s);
  }

  // The candidate children: listed with list_options (default: the parent's namespace). By
  // default, a client with the controller-owner index (the cache) reads only the parent's
  // children from it instead of decoding the whole namespace; others list and is_our_child filters.
  std::vector<C> list_children(Context& ctx, const T& parent) const {
    ListOptions options;
    options.namespace_ = parent.metadata.namespace_;
    Client& api = ctx.config().api();
    if (list_options) {
      options = list_options(ctx, parent);
    } else if (!skip_owner_reference && !parent.metadata.uid.empty() &&
               api.has_field_index(child_kind(), controller_owner_field)) {
      options.field_selector = field_equals(controller_owner_field, parent.metadata.uid);
    }
    return any_api::list<C>(api, child_kind(), options);
  }

  // Controlled by the parent (unless skip_owner_reference), and our_child when set.
  bool is_our_child(const T& parent, const C& child) const {
    if (!skip_owner_reference && !is_controlled_by(child.metadata, parent.metadata)) return false;
    return !our_child || our_child(parent, child);
  }

 private:
  Error reconcile_child(Context& ctx, T& parent, std::optional<C>& child) const {
    std::vector<C> children;
    if (Error err = call_hook([&] {
          if (auto known = retrieve_known_children<C>(ctx)) {
            children = std::move(*known);
          } else {
            children = list_children(ctx, parent);
          }
          std::erase_if(children, [&](const C& c) { return !is_our_child(parent, c); });
          return Error{};
        })) {
      return err;
    }
    const C* actual = nullptr;
    if (children.size() == 1) {
      actual = &children.front();
    } else if (children.size() > 1) {
      // Should not happen: delete them all for a clean slate.
      for (const C& extra : children) {
        ctx.log().with("child", key_of(extra).str()).info("extra child detected");
        if (Error err = child_object_manager.manage(ctx, parent, &extra, nullptr).error) return err;
      }
    }

    std::optional<C> desired;
    if (!is_terminating(parent)) {  // a terminating parent wants no child
      Desired<C> wanted;
      if (Error thrown = call_hook([&] {
            wanted = desired_child(ctx, std::as_const(parent));
            return Error{};
          })) {
        return thrown;
      }
      if (wanted.error) {
        if (wanted.error.is(err_only_reconcile_child_status())) {
          if (actual) child = *actual;
          return {};
        }
        return wanted.error;
      }
      desired = std::move(wanted.object);
    }
    if (desired) {
      if (!skip_owner_reference) {
        if (Error err = set_controller_reference(parent, *desired)) return err;
      }
      bool ours = true;
      if (Error err = call_hook([&] {
            ours = is_our_child(parent, *desired);
            return Error{};
          })) {
        return err;
      }
      if (!ours) {
        ctx.log()
            .with("child", key_of(*desired).str())
            .info("object returned from desired_child does not match our_child, this can result in orphaned children");
      }
    }

    Managed<C> managed = child_object_manager.manage(ctx, parent, actual, desired ? &*desired : nullptr);
    child = std::move(managed.object);
    return managed.error;
  }

  // AlreadyExists: whether the object in the way is someone else's. Ours (read uncached) means
  // the cache has not caught up with our own create: retry rather than report.
  bool squatter_is_foreign(Context& ctx, const T& parent, const Error& err) const {
    const std::optional<Status> status = err.status();
    const std::string conflicting = status ? status->details_name : std::string();
    const ObjectKey key{parent.metadata.namespace_, conflicting};
    std::optional<C> conflicted;
    if (Error read_err = call_hook([&] {
          if (!conflicting.empty()) conflicted = any_api::try_get<C>(ctx.config().reader(), child_kind(), key);
          return Error{};
        })) {
      // Unread, it counts as foreign; the reason (a 403 without `get` on the child's kind, say)
      // must not be lost.
      ctx.log().with("child", key.str()).error(read_err, "unable to read the conflicting child");
    }
    bool ours = false;
    if (conflicted) {
      (void)call_hook([&] {
        ours = is_our_child(parent, *conflicted);
        return Error{};
      });
    }
    if (ours) return false;
    ctx.log().with("child", key.str()).info("unable to reconcile child, not owned");
    if (!skip_owner_reference && !conflicting.empty() && ctx.config().tracker) {
      // Its deletion must re-drive the parent (no owner reference of ours will).
      if (Error track_err = call_hook([&] {
            ctx.config().tracker->track_reference(
                TrackReference{child_kind().gvk.group, child_kind().gvk.kind, key.namespace_, key.name, std::nullopt},
                key_of(parent));
            return Error{};
          })) {
        ctx.log().error(track_err, "unable to track the conflicting child");
      }
    }
    return true;
  }

  Outcome reflect(Context& ctx, T& parent, const C* child, const Error& err) const {
    return call_hook([&] {
      reflect_child_status_on_parent(ctx, parent, child, err);
      return Error{};
    });
  }
};

}  // namespace rr
