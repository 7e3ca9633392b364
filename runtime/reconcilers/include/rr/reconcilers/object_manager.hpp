// Object managers: bring one object on the API server to a desired state (create, update,
// delete), on behalf of the reconciled resource (events, tracks and the finalizer are against
// it). Used by ChildReconciler, ChildSetReconciler and AggregateReconciler.
//
//   Managed<C> manage(Context& ctx, ParentRef resource, const C* actual, const C* desired) const;
//
// `actual` is the object as last read (nullptr, or not yet created, when there is none), `desired`
// what should exist (nullptr: nothing should). The result is the object as persisted (nullopt when
// none) or the error. ObjectManager<C> is the type-erased handle reconcilers hold;
// UpdatingObjectManager<C> is reconciler.io's create/update/delete strategy.
#pragma once
#include <chrono>
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "rr/client/client.hpp"
#include "rr/client/dynamic_api.hpp"
#include "rr/reconcilers/context.hpp"
#include "rr/reconcilers/error.hpp"
#include "rr/reconcilers/events.hpp"
#include "rr/reconcilers/finalizers.hpp"
#include "rr/reconcilers/object.hpp"
#include "rr/reconcilers/sub_reconciler.hpp"

namespace rr {

// What a "desired object" hook returns, where Go returns (object, error): an object, nothing
// (std::nullopt or {}: no object should exist) or an error. Lambdas may declare
// `-> std::optional<C>` and return an object or std::nullopt, or `-> rr::Desired<C>` to also
// return an rr::Error; a thrown exception is an error too.
template <class C>
struct Desired {
  std::optional<C> object{};
  Error error{};

  Desired() = default;
  Desired(std::nullopt_t) {}                                   // NOLINT(google-explicit-constructor)
  Desired(C value) : object(std::move(value)) {}               // NOLINT(google-explicit-constructor)
  Desired(std::optional<C> value) : object(std::move(value)) {}  // NOLINT(google-explicit-constructor)
  Desired(Error e) : error(std::move(e)) {}                    // NOLINT(google-explicit-constructor)
};

// What manage() returns: the object as persisted (nullopt when none exists any more) or an error.
template <class C>
struct Managed {
  std::optional<C> object{};
  Error error{};
};

// The reconciled resource as an object manager sees it: events and tracks are recorded against
// it and the finalizer is added to / cleared from it (which updates its resourceVersion). A
// non-owning view: the resource must outlive the call.
class ParentRef {
 public:
  template <AnyObject T>
  ParentRef(T& resource) noexcept  // NOLINT(google-explicit-constructor)
      : object_(&resource), ops_(&ops_for<T>) {}

  const ObjectMeta& metadata() const { return ops_->metadata(object_); }
  ObjectKey key() const { return {metadata().namespace_, metadata().name}; }
  EventTarget event_target() const { return ops_->target(object_); }
  Error add_finalizer(Context& ctx, std::string_view finalizer) const { return ops_->add(object_, ctx, finalizer); }
  Error clear_finalizer(Context& ctx, std::string_view finalizer) const {
    return ops_->clear(object_, ctx, finalizer);
  }
  // An event on the resource through the original config's recorder (none configured: dropped).
  void record_event(Context& ctx, std::string_view type, std::string reason, std::string message) const {
    if (const auto& recorder = ctx.original_config().recorder) {
      recorder->record(Event{event_target(), std::string(type), std::move(reason), std::move(message)});
    }
  }

 private:
  struct Ops {
    const ObjectMeta& (*metadata)(const void*);
    EventTarget (*target)(const void*);
    Error (*add)(void*, Context&, std::string_view);
    Error (*clear)(void*, Context&, std::string_view);
  };
  template <AnyObject T>
  static constexpr Ops ops_for{
      [](const void* o) -> const ObjectMeta& { return static_cast<const T*>(o)->metadata; },
      [](const void* o) { return event_target_of(*static_cast<const T*>(o)); },
      [](void* o, Context& ctx, std::string_view f) { return ::rr::add_finalizer(ctx, *static_cast<T*>(o), f); },
      [](void* o, Context& ctx, std::string_view f) { return ::rr::clear_finalizer(ctx, *static_cast<T*>(o), f); },
  };
  void* object_;
  const Ops* ops_;
};

template <class M, class C>
concept ObjectManagerOf = requires(const M& m, Context& ctx, ParentRef parent, const C* object, Validation& v,
                                   Setup& s) {
  { m.manage(ctx, parent, object, object) } -> std::same_as<Managed<C>>;
  m.validate(v);
  m.setup(s);
  { m.display_name() } -> std::convertible_to<std::string>;
};

// Type-erased object manager of C (copies share the manager, and so its mutation cache).
template <class C>
class ObjectManager {
 public:
  ObjectManager() = default;  // empty: reconcilers that need one fail validation
  template <class M>
    requires(!std::same_as<std::remove_cvref_t<M>, ObjectManager> && ObjectManagerOf<std::remove_cvref_t<M>, C>)
  ObjectManager(M&& m)  // NOLINT(google-explicit-constructor)
      : impl_(std::make_shared<Model<std::remove_cvref_t<M>>>(std::forward<M>(m))) {}

  explicit operator bool() const noexcept { return impl_ != nullptr; }
  Managed<C> manage(Context& ctx, ParentRef resource, const C* actual, const C* desired) const {
    if (!impl_) return {std::nullopt, Error::make("no object manager configured")};
    return impl_->manage(ctx, resource, actual, desired);
  }
  void validate(Validation& v) const {
    if (!impl_) return;
    auto scope = v.enter(impl_->display_name());
    impl_->validate(v);
  }
  void setup(Setup& s) const {
    if (impl_) impl_->setup(s);
  }
  std::string display_name() const { return impl_ ? impl_->display_name() : std::string(); }
  // Whether changes to the managed objects re-enqueue the reconciled resource through the tracker
  // (a manager without a `track_desired` member is assumed to arrange its own watches).
  bool tracks_desired() const { return impl_ && impl_->tracks_desired(); }

 private:
  struct Concept {
    virtual ~Concept() = default;
    virtual Managed<C> manage(Context& ctx, ParentRef resource, const C* actual, const C* desired) const = 0;
    virtual void validate(Validation& v) const = 0;
    virtual void setup(Setup& s) const = 0;
    virtual std::string display_name() const = 0;
    virtual bool tracks_desired() const = 0;
  };
  template <class M>
  struct Model final : Concept {
    explicit Model(M m) : m_(std::move(m)) {}
    Managed<C> manage(Context& ctx, ParentRef resource, const C* actual, const C* desired) const override {
      return m_.manage(ctx, resource, actual, desired);
    }
    void validate(Validation& v) const override { m_.validate(v); }
    void setup(Setup& s) const override { m_.setup(s); }
    std::string display_name() const override { return m_.display_name(); }
    bool tracks_desired() const override {
      if constexpr (requires { m_.track_desired; }) {
        return static_cast<bool>(m_.track_desired);
      } else {
        return true;
      }
    }
    M m_;
  };
  std::shared_ptr<const Concept> impl_;
};

// Patches that mutating admission applied to objects this manager updated, keyed by UID. Thread
// safe: the manager is shared by every worker.
class MutationCache {
 public:
  // Keeps `patch` for `uid`, valid while the object stays at `generation`, until `expires`.
  void store(const std::string& uid, std::int64_t generation, Json patch,
             std::chrono::system_clock::time_point expires);
  // The patch kept for `uid` if it has not expired and was recorded at `generation`; an expired
  // entry is dropped.
  std::optional<Json> find(const std::string& uid, std::int64_t generation, std::chrono::system_clock::time_point now);
  std::size_t size() const;

 private:
  struct Entry {
    std::int64_t generation = 0;
    std::shared_ptr<const Json> patch;  // a pointer: this header needs rr::Json only declared
    std::chrono::system_clock::time_point expires;
  };
  mutable std::mutex mutex_;
  std::map<std::string, Entry, std::less<>> entries_;
};

namespace object_manager_detail {
// The mutation patch (RFC 6902, JSON) applied to `desired` (JSON); nullopt when it does not apply.
std::optional<Json> apply_mutation(const Json& desired, const Json& patch, std::string& why_not);
inline constexpr std::chrono::hours mutation_ttl{1};

// UpdatingObjectManager's JSON work, out of line over the object's codec (client.hpp), so that
// the template (instantiated in every unit that builds a child reconciler) instantiates none of
// nlohmann's templates.
using client_detail::ObjectCodec;
// to_object_json(a) == to_object_json(b).
bool same_encoded(const ObjectCodec& codec, const void* a, const void* b);
// The patch kept for `uid` at `generation` applied to `desired`, decoded into *out: true when
// *out was written; otherwise why_not says why (empty when no patch is kept).
bool with_remote_mutations(MutationCache& cache, const std::string& uid, std::int64_t generation,
                           std::chrono::system_clock::time_point now, const ObjectCodec& codec, const void* desired,
                           void* out, std::string& why_not);
// Keeps the JSON patch from `base` (desired merged onto the server's answer) to `updated` (the
// answer) for updated's uid and generation; a patch that cannot be made is not kept.
void remember_remote_mutations(MutationCache& cache, const ObjectCodec& codec, const void* base, const void* updated,
                               const std::string& uid, std::int64_t generation,
                               std::chrono::system_clock::time_point expires);
}  // namespace object_manager_detail

// What a manager logs in place of an object (a Secret without its data, say): made from any
// callable that takes the object and returns an rr::Json. The JSON text is made where the callable
// is given, which has rr::Json defined (the callable returns one), so the managers' templates need
// rr::Json only declared and the units that instantiate them do not parse nlohmann's json.hpp.
template <class C>
class Sanitizer {
 public:
  Sanitizer() = default;
  Sanitizer(std::nullptr_t) {}  // NOLINT: implicit, as std::function's
  template <class F>
    requires(!std::is_same_v<std::remove_cvref_t<F>, Sanitizer> &&
             !std::is_same_v<std::remove_cvref_t<F>, std::nullptr_t>)
  &&requires(const F& f, const C& object) { f(object).dump(); }
  Sanitizer(F f) {  // NOLINT: implicit, so a lambda assigns as it did to a std::function
    if constexpr (std::is_pointer_v<F> || requires { f.target_type(); }) {
      if (!f) return;  // a null function pointer or an empty std::function: no sanitizer
    }
    text_ = [f = std::move(f)](const C& object) { return f(object).dump(); };
  }
  explicit operator bool() const noexcept { return static_cast<bool>(text_); }
  // The compact JSON text of what the callable made of `object`.
  std::string operator()(const C& object) const { return text_(object); }

 private:
  std::function<std::string(const C&)> text_;
};

// reconciler.io's UpdatingObjectManager: Create / Update / Delete through the config's client.
//
// | actual (exists = has a creationTimestamp) | desired | what happens                                  |
// | absent                                   | none    | clear `finalizer` from the resource            |
// | exists                                   | none    | delete it unless already terminating           |
// | any                                      | given   | add `finalizer` to the resource first, then:   |
// | absent                                   | given   | create; track it (after: generateName) if asked|
// | exists                                   | given   | harmonize, merge onto a copy of actual; update |
// |                                          |         | unless equal to actual ("in sync")             |
//
// Events on the resource (original config's recorder): Normal Created / Updated / Deleted
// `"<Verb> <Kind> \"<name>\""`, Warning CreationFailed / UpdateFailed / DeleteFailed
// `"Failed to <verb> <Kind> \"<name>\": <error>"` (not for quiet errors).
//
// Mutation cache (decision Q3: fixed, reconciler.io's check never matches). After a create or an update, the
// difference between "desired merged onto the server's answer" and the server's answer (defaults
// a webhook or the server filled in) is kept as a JSON patch for an hour, with the generation the
// server answered. The next manage() applies it to a copy of desired before merging when the
// actual object still has that UID and generation, so such defaults read as already desired and do
// not cause an update each time. When the patch does not apply the update goes ahead (fails open).
//
// Nothing here needs rr::Json defined: `sanitize` (an rr::Sanitizer) turns its callable's rr::Json
// into text where the callable is given.
//
// A dynamic C (rr::Unstructured, dynamic_object.hpp) is addressed through `type` when it is set,
// else through the apiVersion/kind each object carries, resolved by the client; `type` is needed
// for track_desired's watch. A duck C cannot be created or updated (DynamicApi refuses it).
template <AnyObject C>
struct UpdatingObjectManager {
  std::string name{};  // default "<Kind>UpdatingObjectManager"
  // Added to the resource before a create/update, cleared once no object remains. Must be unique
  // to this manager.
  std::string finalizer{};
  // Track the managed object for the resource (needed when no owner reference brings changes
  // back, e.g. ChildReconciler::skip_owner_reference): after create, before update.
  bool track_desired = false;
  // Copies fields that cannot change from `current` onto `desired`, so updates do not fail.
  std::function<void(const C& current, C& desired)> harmonize_immutable_fields{};
  // Copies the desired fields onto `current` before the update (required): typically spec,
  // labels and annotations.
  std::function<void(C& current, const C& desired)> merge_before_update{};
  // What to log in place of the object (e.g. without secrets); default: the whole object.
  Sanitizer<C> sanitize{};
  // Shared by copies of this manager.
  std::shared_ptr<MutationCache> mutation_cache = std::make_shared<MutationCache>();
  // The kind of a dynamic C (ignored for a generated kind); see above.
  KindInfo type{};

  std::string display_name() const {
    if (!name.empty()) return name;
    if constexpr (Object<C>) {
      return std::string(ResourceTraits<C>::kind) + "UpdatingObjectManager";
    } else {
      return type.gvk.kind + "UpdatingObjectManager";
    }
  }

  void validate(Validation& v) const {
    if (!merge_before_update) {
      v.fail("UpdatingObjectManager " + go_quote(display_name()) + " must define merge_before_update");
    }
    if constexpr (DynamicObject<C>) {
      if (track_desired && type.gvk.kind.empty()) {
        v.fail("UpdatingObjectManager " + go_quote(display_name()) + " must define type to track_desired");
      }
    }
  }

  void setup(Setup& s) const {
    if (!track_desired) return;
    if constexpr (Object<C>) {
      s.watches_tracked(kind_info_of<C>());
    } else {
      s.watches_tracked(type);
    }
  }

  Managed<C> manage(Context& ctx, ParentRef resource, const C* actual, const C* desired) const {
    const bool actual_exists = actual != nullptr && exists_on_server(actual->metadata);
    if (!desired) {
      if (!actual_exists) {
        if (Error err = resource.clear_finalizer(ctx, finalizer)) return failed(err);
        return {};
      }
      if (!is_terminating(actual->metadata)) {
        if (Error err = remove(ctx, resource, *actual)) return failed(err);
      }
      return {};
    }
    if (Error err = resource.add_finalizer(ctx, finalizer)) return failed(err);
    if (!actual_exists) return create(ctx, resource, *desired);
    return update(ctx, resource, *actual, *desired);
  }

 private:
  static Managed<C> failed(Error err) { return {std::nullopt, std::move(err)}; }
  static std::string kind(const C& object) { return kind_of(object); }
  // How the client addresses `object`.
  KindInfo address(Context& ctx, const C& object) const {
    if constexpr (Object<C>) {
      (void)ctx;
      (void)object;
      return kind_info_of<C>();
    } else {
      return type.gvk.kind.empty() ? kind_info_for(ctx.config().api(), object) : type;
    }
  }

  static const client_detail::ObjectCodec& codec() { return client_detail::codec_of<C>; }

  std::string logged(const C& object) const {
    if (!sanitize) return object_detail::dumped(codec().encode, &object);
    std::string shown;
    if (Error err = call_hook([&] {
          shown = sanitize(C(object));  // a copy: sanitize must not touch the object
          return Error{};
        })) {
      return "<sanitize failed: " + err.message() + ">";
    }
    return shown;
  }

  Error track(Context& ctx, ParentRef resource, const C& object) const {
    if (!track_desired) return {};
    const auto& tracker = ctx.config().tracker;
    if (!tracker) return Error::make(display_name() + ": track_desired needs a tracker in the config");
    return call_hook([&] {
      tracker->track_object(object, resource.key());
      return Error{};
    });
  }

  Error remove(Context& ctx, ParentRef resource, const C& actual) const {
    ctx.log().with("resource", key_of(actual).str()).info("deleting unwanted resource");
    Error err = call_hook([&] {
      any_api::remove(ctx.config().api(), address(ctx, actual), actual);
      return Error{};
    });
    if (err) {
      if (!err.is(err_quiet())) {
        ctx.log().error(err, "unable to delete unwanted resource");
        resource.record_event(
            ctx, event_warning, "DeleteFailed",
            "Failed to delete " + kind(actual) + " " + go_quote(actual.metadata.name) + ": " + err.message());
      }
      return err;
    }
    resource.record_event(ctx, event_normal, "Deleted",
                          "Deleted " + kind(actual) + " " + go_quote(actual.metadata.name));
    return {};
  }

  Managed<C> create(Context& ctx, ParentRef resource, const C& desired) const {
    if (ctx.log().enabled()) ctx.log().with("resource", logged(desired)).info("creating resource");
    C created;
    Error err = call_hook([&] {
      created = any_api::create(ctx.config().api(), address(ctx, desired), desired);
      return Error{};
    });
    if (err) {
      if (!err.is(err_quiet())) {
        ctx.log().error(err, "unable to create resource");
        resource.record_event(
            ctx, event_warning, "CreationFailed",
            "Failed to create " + kind(desired) + " " + go_quote(desired.metadata.name) + ": " + err.message());
      }
      return failed(err);
    }
    // Tracks normally come before the API call, but a generated name is only known now.
    // Defaults the server filled in at create are remembered too (reconciler.io only learns them
    // from an update, so the first reconcile after a create updates the object needlessly).
    remember_remote_mutations(ctx, created, desired);
    if (Error track_err = track(ctx, resource, created)) return failed(track_err);
    resource.record_event(ctx, event_normal, "Created",
                          "Created " + kind(created) + " " + go_quote(created.metadata.name));
    return {std::move(created), Error{}};
  }

  Managed<C> update(Context& ctx, ParentRef resource, const C& actual, const C& desired_in) const {
    C desired = desired_in;
    if (harmonize_immutable_fields) {
      if (Error err = call_hook([&] {
            harmonize_immutable_fields(actual, desired);
            return Error{};
          })) {
        return failed(err);
      }
    }
    C desired_patched = with_remote_mutations(ctx, actual, desired);

    C current = actual;
    if (Error err = track(ctx, resource, current)) return failed(err);
    if (Error err = merge(current, desired_patched)) return failed(err);
    if (same_object(current, actual)) {
      ctx.log().debug("resource is in sync, no update required");
      return {actual, Error{}};
    }
    if (ctx.log().enabled()) ctx.log().with("resource", logged(current)).info("updating resource");
    C updated;
    Error err = call_hook([&] {
      updated = any_api::update(ctx.config().api(), address(ctx, current), current);
      return Error{};
    });
    if (err) {
      if (!err.is(err_quiet())) {
        ctx.log().error(err, "unable to update resource");
        resource.record_event(
            ctx, event_warning, "UpdateFailed",
            "Failed to update " + kind(current) + " " + go_quote(current.metadata.name) + ": " + err.message());
      }
      return failed(err);
    }
    remember_remote_mutations(ctx, updated, desired);
    resource.record_event(ctx, event_normal, "Updated",
                          "Updated " + kind(updated) + " " + go_quote(updated.metadata.name));
    return {std::move(updated), Error{}};
  }

  Error merge(C& current, const C& desired) const {
    return call_hook([&] {
      merge_before_update(current, desired);
      return Error{};
    });
  }

  // Semantic equality: the generated operator== when there is one, else the serialised objects.
  static bool same_object(const C& a, const C& b) {
    if constexpr (std::equality_comparable<C>) {
      return a == b;
    } else {
      return object_manager_detail::same_encoded(codec(), &a, &b);
    }
  }

  C with_remote_mutations(Context& ctx, const C& actual, const C& desired) const {
    if (!mutation_cache || actual.metadata.uid.empty()) return desired;
    C out;
    std::string why_not;
    if (object_manager_detail::with_remote_mutations(*mutation_cache, actual.metadata.uid, actual.metadata.generation,
                                                     ctx.now(), codec(), &desired, &out, why_not)) {
      return out;
    }
    if (!why_not.empty()) {
      ctx.log()
          .with("error", why_not)
          .debug("unable to patch desired object from the mutation cache, this is usually benign");
    }
    return desired;
  }

  void remember_remote_mutations(Context& ctx, const C& updated, const C& desired) const {
    if (!mutation_cache || updated.metadata.uid.empty()) return;
    C base = updated;
    if (merge(base, desired)) return;
    object_manager_detail::remember_remote_mutations(*mutation_cache, codec(), &base, &updated, updated.metadata.uid,
                                                     updated.metadata.generation,
                                                     ctx.now() + object_manager_detail::mutation_ttl);
  }
};

}  // namespace rr
