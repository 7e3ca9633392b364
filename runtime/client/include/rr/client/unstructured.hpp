// rr::Unstructured: any Kubernetes object, its kind known only at run time (Go's
// unstructured.Unstructured). apiVersion, kind and metadata are decoded (metadata as rr::ObjectMeta,
// so the reconcilers' finalizer, owner-reference and lifecycle helpers work on it); every other
// top-level member (spec, status, data, ...) stays JSON in `body`. Decoding then encoding loses
// nothing: ObjectMeta keeps the members it does not declare.
//
//   rr::Unstructured u = rr::DynamicApi<rr::Unstructured>(client, kind).get({"default", "web"});
//   u.member("spec")["replicas"] = 3;
//   if (const rr::Json* status = u.find("status")) ...
//
// The reconcilers take it as the reconciled resource (ResourceReconciler's `type` says which kind)
// or as a child (ChildReconciler's `child_type`); see docs/runtime/30-unstructured-and-duck-types.md.
#pragma once
#include <string>
#include <string_view>

#include "rr/client/dynamic_object.hpp"
#include "rr/core/json.hpp"

namespace rr {

struct Unstructured {
  static constexpr bool rr_dynamic_kind = true;

  std::string api_version;
  std::string kind;
  ObjectMeta metadata;
  Json body = Json::object();  // every other top-level member, by its JSON name

  Unstructured() = default;
  // An empty object of a kind (apiVersion and kind set from `gvk`).
  explicit Unstructured(const GroupVersionKind& gvk) : api_version(gvk.api_version()), kind(gvk.kind) {}

  // The member `name` of body, nullptr when absent.
  const Json* find(std::string_view name) const;
  Json* find(std::string_view name);
  // The member `name` of body, created as an empty object when absent.
  Json& member(std::string_view name);

  bool operator==(const Unstructured&) const = default;
};

// A JSON object; apiVersion, kind and metadata of the wrong JSON type throw Json's type_error.
void to_json(Json& j, const Unstructured& object);
void from_json(const Json& j, Unstructured& object);

}  // namespace rr

// The verbs for this type (rr::DynamicApi<T>, rr::any_api).
#include "rr/client/dynamic_api.hpp"
