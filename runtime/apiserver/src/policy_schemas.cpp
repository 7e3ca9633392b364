#include "policy_schemas.hpp"

#include <set>

#include "openapi_schemas.hpp"
#include "rr/client/api_error.hpp"
#include "rr/cluster/cluster.hpp"
#include "rr/validation/decoding.hpp"

namespace rr::apiserver_detail {

namespace {

constexpr std::string_view kRefPrefix = "#/components/schemas/";
const GroupVersionKind crd_gvk{"apiextensions.k8s.io", "v1", "CustomResourceDefinition"};

// The definition a node refers to: its $ref, or one wrapped in allOf (kube-openapi keeps a
// field's description beside its reference that way).
std::optional<std::string> ref_of(const Json& node) {
  if (!node.is_object()) return std::nullopt;
  if (auto ref = node.find("$ref"); ref != node.end() && ref->is_string()) {
    const std::string text = ref->get<std::string>();
    return text.rfind(kRefPrefix, 0) == 0 ? text.substr(kRefPrefix.size()) : text;
  }
  if (auto all_of = node.find("allOf"); all_of != node.end() && all_of->is_array()) {
    for (const Json& part : *all_of)
      if (auto ref = ref_of(part)) return ref;
  }
  return std::nullopt;
}

struct Inliner {
  const Json& definitions;
  std::set<std::string> expanding;  // the references on the way down (a cycle ends at one)
  bool missing = false;

  Json inline_node(const Json& node) {
    Json out = node;
    std::optional<std::string> ref = ref_of(node);
    if (ref) {
      if (expanding.contains(*ref)) return Json{{"type", "object"}};
      auto it = definitions.find(*ref);
      if (it == definitions.end()) {
        missing = true;
        return Json::object();
      }
      out = *it;  // the whole node is replaced, as upstream does
      expanding.insert(*ref);
    }
    if (out.is_object()) {
      if (out.value("format", Json()) == "int-or-string") out["x-kubernetes-int-or-string"] = true;
      if (auto props = out.find("properties"); props != out.end() && props->is_object()) {
        for (auto& [name, prop] : props->items()) prop = inline_node(prop);
      }
      for (const char* key : {"additionalProperties", "items"}) {
        if (auto child = out.find(key); child != out.end() && child->is_object()) *child = inline_node(*child);
      }
    }
    if (ref) expanding.erase(*ref);
    return out;
  }
};

std::optional<Json> crd_schema(Cluster& cluster, const GroupVersionKind& gvk) {
  auto crds = cluster.find_kind(crd_gvk);
  if (!crds) return std::nullopt;
  Json list;
  try {
    list = cluster.list(*crds, ListOptions{});
  } catch (const ApiError&) {
    return std::nullopt;
  }
  for (const Json& crd : list.value("items", Json::array())) {
    if (crd.value("/spec/group"_json_pointer, std::string()) != gvk.group ||
        crd.value("/spec/names/kind"_json_pointer, std::string()) != gvk.kind) {
      continue;
    }
    Json schemas = Json::object();
    if (!add_crd_schema(crd, gvk.version, schemas)) return std::nullopt;
    return inline_refs(schemas, crd_schema_name(gvk.group, gvk.version, gvk.kind));
  }
  return std::nullopt;
}

}  // namespace

std::optional<Json> inline_refs(const Json& definitions, const std::string& root) {
  Inliner inliner{definitions, {}, false};
  Json out = inliner.inline_node(Json{{"$ref", std::string(kRefPrefix) + root}});
  if (inliner.missing) return std::nullopt;
  return out;
}

admission_policy::SchemaResolver policy_schema_resolver(std::weak_ptr<Cluster> cluster) {
  return [cluster = std::move(cluster)](const GroupVersionKind& gvk) -> std::optional<Json> {
    if (auto name = validation::kind_definition(builtin_definitions(), gvk.group, gvk.version, gvk.kind)) {
      return inline_refs(builtin_definitions(), *name);
    }
    auto locked = cluster.lock();
    if (!locked) return std::nullopt;
    return crd_schema(*locked, gvk);
  };
}

}  // namespace rr::apiserver_detail
