// Identity of a kind (GroupVersionKind) and what a client must know to address it (KindInfo),
// taken from ResourceTraits for typed objects or from discovery / registration for unstructured.
#pragma once
#include <string>
#include <string_view>

#include "rr/core/resource_traits.hpp"

namespace rr {

struct GroupVersionKind {
  std::string group;    // "" for the core group
  std::string version;
  std::string kind;
  std::string api_version() const { return group.empty() ? version : group + "/" + version; }
  // schema.FromAPIVersionAndKind: "v1" is the core group, "apps/v1" group "apps"; throws
  // std::invalid_argument when api_version has more than one '/'.
  static GroupVersionKind from(std::string_view api_version, std::string_view kind);
  auto operator<=>(const GroupVersionKind&) const = default;
};

struct KindInfo {
  GroupVersionKind gvk;
  std::string plural;       // "configmaps"
  std::string list_kind;    // "ConfigMapList"
  Scope scope = Scope::Namespaced;
  bool has_status = false;  // status subresource enabled
  bool namespaced() const noexcept { return scope == Scope::Namespaced; }
  // "configmaps" for the core group, "widgets.example.dev" otherwise (error messages, RBAC).
  std::string resource_group() const {
    return gvk.group.empty() ? plural : plural + "." + gvk.group;
  }
  bool operator==(const KindInfo&) const = default;
};

template <Resource T>
KindInfo kind_info_of() {
  using Tr = ResourceTraits<T>;
  return KindInfo{
      .gvk = {std::string(Tr::group), std::string(Tr::version), std::string(Tr::kind)},
      .plural = std::string(Tr::plural),
      .list_kind = std::string(Tr::list_kind),
      .scope = Tr::scope,
      .has_status = Tr::has_status,
  };
}

}  // namespace rr
