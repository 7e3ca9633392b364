// CastResource<T, CT>: runs a reconciler of CT on a T, typically a duck type: a struct holding
// only the part of several kinds a shared reconciler needs.
//
// The resource is projected through JSON (nlohmann to_json of T, from_json into CT). An empty
// apiVersion/kind on the cast is defaulted from T; when CT is itself a kind (ResourceTraits) the
// nested reconciler runs with it as the context's resource type. If the nested reconciler changed
// the cast, a JSON patch (cast before → cast after) is applied onto the real resource, even when
// the nested reconciler returned an error (vmware-labs/reconciler-runtime#474); errors of the
// patch are joined with the nested one.
//
// When T is CT or derives from it, the resource is passed through as it is (reconciler.io's cast
// to an interface type).
#pragma once
#include <concepts>
#include <optional>
#include <string>

#include "rr/client/kind.hpp"
#include "rr/client/patch.hpp"
#include "rr/core/json.hpp"
#include "rr/reconcilers/sub_reconciler.hpp"

namespace rr {

template <class T, class CT>
struct CastResource {
  std::string name{};
  SubReconciler<CT> reconciler{};

  std::string display_name() const { return name.empty() ? "CastResource" : name; }

  Outcome reconcile(Context& ctx, T& resource) const {
    auto named = ctx.with_log(ctx.log().named(display_name()));
    if constexpr (std::derived_from<T, CT>) {
      return reconciler.reconcile(ctx, resource);
    } else {
      std::optional<CT> cast;
      Json cast_original;
      Error cast_error = call_hook([&] {
        cast.emplace(project(resource));
        cast_original = Json(*cast);
        return Error{};
      });
      if (cast_error) return cast_error.wrap("CastResource: cannot cast the resource");

      auto typed = ctx.with_resource_type([&]() -> KindInfo {
        if constexpr (Resource<CT>) {
          return kind_info_of<CT>();
        } else {
          return ctx.resource_type();  // a duck type is not a kind: keep the real one
        }
      }());
      Outcome out = reconciler.reconcile(ctx, *cast);

      Error patch_error = call_hook([&] {
        Json cast_now = *cast;
        if (cast_now == cast_original) return Error{};
        Json patch = create_json_patch(cast_original, cast_now);
        Json patched = apply_json_patch(Json(resource), patch);
        resource = patched.get<T>();
        return Error{};
      });
      if (patch_error) {
        out.error = Error::join({std::move(out.error), patch_error.wrap("CastResource: cannot patch the resource")});
      }
      return out;
    }
  }

  void validate(Validation& v) const {
    if (!reconciler) v.fail("CastResource must implement reconciler");
    if (v.recursive()) reconciler.validate(v);
  }

  void setup(Setup& s) const { reconciler.setup(s); }

 private:
  static CT project(const T& resource) {
    Json j = resource;
    CT cast = j.get<CT>();
    if constexpr (requires { cast.api_version = std::string(); cast.kind = std::string(); }) {
      // A duck without type information gets the real object's, as reconciler.io does.
      if (cast.api_version.empty() && cast.kind.empty()) {
        cast.api_version = j.value("apiVersion", std::string());
        cast.kind = j.value("kind", std::string());
      }
    }
    return cast;
  }
};

}  // namespace rr
