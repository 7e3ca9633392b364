// ChildSetReconciler<T, C>: zero to many children C of the reconciled resource T, matched up by a
// stable ID (identify_child), each kept in its desired state by a ChildReconciler built for that
// ID; the outcome of every child is reflected onto the parent at once.
//
//   rr::ChildSetReconciler<Widget, ConfigMap>{
//       .desired_children = [](rr::Context& ctx, const Widget& w) -> std::vector<ConfigMap> { ... },
//       .child_object_manager = rr::UpdatingObjectManager<ConfigMap>{.merge_before_update = ...},
//       .reflect_children_status_on_parent = [](rr::Context& ctx, Widget& w,
//                                               const rr::ChildSetResult<ConfigMap>& result) { ... },
//       .identify_child = [](const ConfigMap& c) { return c.metadata.labels.at("id"); },
//   }
//
// Per request:
//  1. The known children are listed once (list_options, filtered as a ChildReconciler would:
//     controlled by the parent unless owner references are skipped, and our_child) and stashed
//     for this call: retrieve_known_children<C>(ctx) returns them (desired_children may keep them).
//  2. desired_children (not called while the parent is terminating: no child is then desired).
//     An empty ID is the error "desired child id may not be empty", a repeated one "duplicate
//     child id found: <id>". err_only_reconcile_child_status() applies to every child.
//  3. For each ID of the union of desired and known IDs, sorted, a ChildReconciler named by the ID:
//     its desired child is the one with that ID (none: the known one is deleted), its children are
//     ours and carry that ID. They run in order; the first error stops the rest. With a
//     `finalizer` (which implies skip_owner_reference) it is added to the parent first (not while
//     terminating) and cleared once terminating and every child succeeded (WithFinalizer).
//  4. reflect_children_status_on_parent is then always called with every child's outcome; the
//     request's error joins the children's error and the reflect hook's. (Steps 1 and 2 failing
//     return their error without reflecting, as reconciler.io does.)
#pragma once
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "rr/reconcilers/child.hpp"
#include "rr/reconcilers/sequence.hpp"
#include "rr/reconcilers/with_finalizer.hpp"

namespace rr {

template <class C>
struct ChildSetPartialResult {
  std::string id{};
  std::optional<C> child{};  // as persisted; nullopt when none (deleted, or an error)
  Error error{};             // a reflected error (see ChildReconciler)
};

template <class C>
struct ChildSetResult {
  std::vector<ChildSetPartialResult<C>> children{};
  // Every child's error, joined (success when none failed).
  Error aggregate_error() const {
    std::vector<Error> errors;
    for (const auto& child : children) errors.push_back(child.error);
    return Error::join(std::move(errors));
  }
};

// What desired_children returns: the children, an error, or both (children together with
// err_only_reconcile_child_status()).
template <class C>
struct DesiredChildren {
  std::vector<C> children{};
  Error error{};

  DesiredChildren() = default;
  DesiredChildren(std::vector<C> desired) : children(std::move(desired)) {}  // NOLINT(google-explicit-constructor)
  DesiredChildren(Error e) : error(std::move(e)) {}                        // NOLINT(google-explicit-constructor)
  DesiredChildren(std::vector<C> desired, Error e) : children(std::move(desired)), error(std::move(e)) {}
};

template <Object T, Object C>
struct ChildSetReconciler {
  std::string name{};  // default "<ChildKind>ChildSetReconciler"
  std::function<void(Setup&)> on_setup{};
  std::function<DesiredChildren<C>(Context&, const T&)> desired_children{};  // required
  ObjectManager<C> child_object_manager{};                                   // required
  std::function<void(Context&, T&, const ChildSetResult<C>&)> reflect_children_status_on_parent{};  // required
  std::optional<std::vector<std::string>> reflected_child_error_reasons{};  // nullopt: the ChildReconciler default
  // A stable ID, the same before and after the child is created; required.
  std::function<std::string(const C&)> identify_child{};
  std::function<ListOptions(Context&, const T&)> list_options{};  // required without owner references
  std::function<bool(const T& parent, const C& child)> our_child{};  // required without owner references
  bool skip_owner_reference = false;
  // Kept on the parent while it has children; implies skip_owner_reference.
  std::string finalizer{};

  std::string display_name() const {
    return name.empty() ? std::string(ResourceTraits<C>::kind) + "ChildSetReconciler" : name;
  }

  bool skips_owner_reference() const noexcept { return skip_owner_reference || !finalizer.empty(); }

  Outcome reconcile(Context& ctx, T& parent) const {
    auto named = ctx.with_log(ctx.log().named(display_name()));
    std::vector<C> known;
    if (Error err = list_known_children(ctx, parent, known)) return err;
    KnownChildrenScope stashed(ctx, known);

    DesiredChildren<C> wanted;
    if (!is_terminating(parent)) {
      if (Error thrown = call_hook([&] {
            wanted = desired_children(ctx, std::as_const(parent));
            return Error{};
          })) {
        return thrown;
      }
      if (wanted.error && !wanted.error.is(err_only_reconcile_child_status())) return wanted.error;
    }

    std::map<std::string, C> desired_by_id;
    std::set<std::string> ids;  // sorted: children are reconciled in ID order
    if (Error err = call_hook([&] { return collect_ids(wanted.children, known, desired_by_id, ids); })) return err;

    ChildSetResult<C> results;
    std::vector<SubReconciler<T>> children;
    children.reserve(ids.size());
    for (const std::string& id : ids) {
      auto it = desired_by_id.find(id);
      std::optional<C> desired = it == desired_by_id.end() ? std::nullopt : std::optional<C>(std::move(it->second));
      children.emplace_back(child_reconciler_for(id, std::move(desired), wanted.error, results));
    }
    // In ID order, the first error stopping the rest; inside the finalizer when there is one.
    SubReconciler<T> composed = Sequence<T>(std::string(), std::move(children));
    if (!finalizer.empty()) composed = WithFinalizer<T>{.finalizer = finalizer, .reconciler = std::move(composed)};
    Outcome out = composed.reconcile(ctx, parent);

    Error reflect_err = call_hook([&] {
      reflect_children_status_on_parent(ctx, parent, results);
      return Error{};
    });
    return {out.result, Error::join({std::move(out.error), std::move(reflect_err)})};
  }

  void validate(Validation& v) const {
    const std::string self = "ChildSetReconciler " + go_quote(display_name());
    if (!desired_children) v.fail(self + " must implement desired_children");
    if (!reflect_children_status_on_parent) v.fail(self + " must implement reflect_children_status_on_parent");
    if (!identify_child) v.fail(self + " must implement identify_child");
    if (!child_object_manager) v.fail(self + " must implement child_object_manager");
    if (skips_owner_reference()) {
      if (!our_child) v.fail(self + " must implement our_child since owner references are not used");
      if (!list_options) v.fail(self + " must implement list_options since owner references are not used");
      if (child_object_manager && !child_object_manager.tracks_desired()) {
        v.warn(self + " skips owner references but its object manager does not track the children: changes to "
                      "them will not re-enqueue the parent (set track_desired)");
      }
    }
    child_object_manager.validate(v);
  }

  void setup(Setup& s) const {
    lister().setup(s);
    if (on_setup) on_setup(s);
  }

 private:
  // The children this set manages are stashed for the duration of the call (a nested set of the
  // same child type sees its own).
  class KnownChildrenScope {
   public:
    KnownChildrenScope(Context& ctx, const std::vector<C>& known)
        : ctx_(ctx), previous_(ctx.stash().clear(known_children_stash_key)) {
      ctx_.stash().store(std::string(known_children_stash_key), known);
    }
    ~KnownChildrenScope() {
      ctx_.stash().clear(known_children_stash_key);
      if (previous_.has_value()) ctx_.stash().store(std::string(known_children_stash_key), std::move(previous_));
    }
    KnownChildrenScope(const KnownChildrenScope&) = delete;
    KnownChildrenScope& operator=(const KnownChildrenScope&) = delete;

   private:
    Context& ctx_;
    std::any previous_;
  };

  // The ChildReconciler that lists and filters (any ID) and sets up the watches.
  ChildReconciler<T, C> lister() const {
    return ChildReconciler<T, C>{
        .name = display_name(),
        .child_object_manager = child_object_manager,
        .list_options = list_options,
        .our_child = our_child,
        .skip_owner_reference = skips_owner_reference(),
    };
  }

  Error list_known_children(Context& ctx, const T& parent, std::vector<C>& known) const {
    return call_hook([&] {
      const ChildReconciler<T, C> all = lister();
      known = all.list_children(ctx, parent);
      std::erase_if(known, [&](const C& child) { return !all.is_our_child(parent, child); });
      return Error{};
    });
  }

  Error collect_ids(std::vector<C>& desired, const std::vector<C>& known, std::map<std::string, C>& desired_by_id,
                    std::set<std::string>& ids) const {
    for (C& child : desired) {
      std::string id = identify_child(child);
      if (id.empty()) return Error::make("desired child id may not be empty");
      if (!ids.insert(id).second) return Error::make("duplicate child id found: " + id);
      desired_by_id.emplace(std::move(id), std::move(child));
    }
    for (const C& child : known) ids.insert(identify_child(child));
    return {};
  }

  ChildReconciler<T, C> child_reconciler_for(const std::string& id, std::optional<C> desired, const Error& desired_err,
                                             ChildSetResult<C>& results) const {
    return ChildReconciler<T, C>{
        .name = id,
        .desired_child = [desired = std::move(desired), desired_err](Context&, const T&) -> Desired<C> {
          if (desired_err) return desired_err;
          return desired;
        },
        .child_object_manager = child_object_manager,
        .reflect_child_status_on_parent =
            [&results, id](Context&, T&, const C* child, const Error& err) {
              results.children.push_back(
                  ChildSetPartialResult<C>{id, child ? std::optional<C>(*child) : std::nullopt, err});
            },
        .reflected_child_error_reasons = reflected_child_error_reasons,
        .list_options = list_options,
        .our_child = [this, id](const T& parent, const C& child) {
          if (our_child && !our_child(parent, child)) return false;
          return identify_child(child) == id;
        },
        .skip_owner_reference = skips_owner_reference(),
    };
  }
};

}  // namespace rr
