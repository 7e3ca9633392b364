#include "sema/well_known.hpp"

#include <algorithm>
#include <iterator>
#include <map>
#include <set>
#include <utility>

namespace rrgen {
namespace {

bool has_default_anywhere(const Schema& s) {
  if (s.default_json) return true;
  for (const auto& [n, p] : s.properties)
    if (has_default_anywhere(*p)) return true;
  if (s.items && has_default_anywhere(*s.items)) return true;
  if (s.additional_properties && has_default_anywhere(*s.additional_properties)) return true;
  return false;
}

std::set<std::string> property_names(const Schema& s) {
  std::set<std::string> out;
  for (const auto& [n, p] : s.properties) out.insert(n);
  return out;
}

bool plain_string(const Schema* s) { return s && s->type == "string" && s->enum_json.empty() && !s->pattern; }

}  // namespace

// Structural recognition of the shapes the runtime provides, so a CRD's Condition or
// LabelSelector is the same C++ type everywhere (kopium matches Condition and ObjectReference the
// same way). Only exact shapes without defaults are reused: anything else keeps its own struct.
std::optional<std::string> well_known(const Schema& s) {
  if (s.properties.empty() || has_default_anywhere(s) || s.preserve_unknown || s.embedded_resource) return std::nullopt;
  const auto names = property_names(s);
  const std::set<std::string> req(s.required.begin(), s.required.end());
  using Set = std::set<std::string>;
  const Set cond_req{"type", "status", "lastTransitionTime", "reason", "message"};
  if ((names == cond_req || names == Set{"type", "status", "lastTransitionTime", "reason", "message", "observedGeneration"}) &&
      req == cond_req && s.property("lastTransitionTime")->type == "string" &&
      (!s.property("observedGeneration") || s.property("observedGeneration")->type == "integer")) {
    return "rr::Condition";
  }
  if (names == Set{"matchLabels", "matchExpressions"} && req.empty()) {
    const Schema* ml = s.property("matchLabels");
    const Schema* me = s.property("matchExpressions");
    if (ml->type == "object" && ml->additional_properties && ml->additional_properties->type == "string" &&
        me->type == "array" && me->items && property_names(*me->items) == Set{"key", "operator", "values"} &&
        std::set<std::string>(me->items->required.begin(), me->items->required.end()) == Set{"key", "operator"}) {
      return "rr::LabelSelector";
    }
  }
  if (names == Set{"apiVersion", "fieldPath", "kind", "name", "namespace", "resourceVersion", "uid"} && req.empty()) {
    bool all = true;
    for (const auto& [n, p] : s.properties) all = all && plain_string(p.get());
    if (all) return "rr::ObjectReference";
  }
  if (names == Set{"name"} && req.empty() && plain_string(s.property("name"))) return "rr::LocalObjectReference";
  return std::nullopt;
}

// Definitions of the Kubernetes OpenAPI documents that map onto runtime types.
std::optional<TypeRef> well_known_definition(const std::string& name) {
  static const std::map<std::string, std::pair<TypeKind, std::string>> table = {
      {"io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta", {TypeKind::External, "rr::ObjectMeta"}},
      {"io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference", {TypeKind::External, "rr::OwnerReference"}},
      {"io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry", {TypeKind::External, "rr::ManagedFieldsEntry"}},
      {"io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta", {TypeKind::External, "rr::ListMeta"}},
      {"io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector", {TypeKind::External, "rr::LabelSelector"}},
      {"io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelectorRequirement", {TypeKind::External, "rr::LabelSelectorRequirement"}},
      {"io.k8s.apimachinery.pkg.apis.meta.v1.Condition", {TypeKind::External, "rr::Condition"}},
      {"io.k8s.api.core.v1.ObjectReference", {TypeKind::External, "rr::ObjectReference"}},
      {"io.k8s.api.core.v1.LocalObjectReference", {TypeKind::External, "rr::LocalObjectReference"}},
      {"io.k8s.apimachinery.pkg.apis.meta.v1.Time", {TypeKind::Time, ""}},
      {"io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime", {TypeKind::Time, ""}},
      {"io.k8s.apimachinery.pkg.api.resource.Quantity", {TypeKind::Quantity, ""}},
      {"io.k8s.apimachinery.pkg.util.intstr.IntOrString", {TypeKind::IntOrString, ""}},
      {"io.k8s.apimachinery.pkg.runtime.RawExtension", {TypeKind::Json, ""}},
      {"io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1", {TypeKind::Json, ""}},
  };
  auto it = table.find(name);
  if (it == table.end()) return std::nullopt;
  TypeRef t;
  t.kind = it->second.first;
  t.external = it->second.second;
  return t;
}

bool well_known_has_protobuf(const std::string& cpp_type) {
  static constexpr std::string_view kTypes[] = {"rr::TypeMeta",
                                                "rr::ListMeta",
                                                "rr::OwnerReference",
                                                "rr::ManagedFieldsEntry",
                                                "rr::ObjectMeta",
                                                "rr::Condition",
                                                "rr::LabelSelector",
                                                "rr::ObjectReference",
                                                "rr::LabelSelectorRequirement",
                                                "rr::LocalObjectReference"};
  return std::find(std::begin(kTypes), std::end(kTypes), cpp_type) != std::end(kTypes);
}

}  // namespace rrgen
