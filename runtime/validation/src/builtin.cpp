#include "rr/validation/builtin.hpp"

#include <algorithm>
#include <vector>

#include "builtin_tables.hpp"

namespace rr::validation {

std::span<const BuiltinValidator> builtin_validators() {
  static const std::vector<BuiltinValidator> all = [] {
    std::vector<BuiltinValidator> out;
    for (const std::span<const BuiltinValidator> part : detail::builtin_validator_parts()) {
      out.insert(out.end(), part.begin(), part.end());
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const BuiltinValidator& a, const BuiltinValidator& b) { return a.group < b.group; });
    return out;
  }();
  return all;
}

const BuiltinValidator* find_builtin_validator(std::string_view group, std::string_view version,
                                               std::string_view kind) {
  for (const BuiltinValidator& v : builtin_validators()) {
    if (v.group == group && v.version == version && v.kind == kind) return &v;
  }
  return nullptr;
}

ErrorList validate_builtin(std::string_view group, std::string_view version, std::string_view kind, const Json& object,
                           const Json* old_object) {
  const BuiltinValidator* v = find_builtin_validator(group, version, kind);
  if (!v || !object.is_object()) return {};
  if (old_object && old_object->is_object()) return v->update(object, *old_object);
  return v->create(object);
}

std::optional<Json> pod_binding_base(std::string_view group, std::string_view kind, const Json& object,
                                     const Json& old_object) {
  if (!group.empty() || kind != "Pod" || !object.is_object() || !old_object.is_object()) return std::nullopt;
  const Json node = object.value("/spec/nodeName"_json_pointer, Json());
  if (!node.is_string() || !old_object.value("/spec/nodeName"_json_pointer, std::string()).empty()) return std::nullopt;
  if (!old_object.contains("spec") || !old_object["spec"].is_object()) return std::nullopt;
  Json bound = old_object;
  bound["spec"]["nodeName"] = node;
  return bound;
}

}  // namespace rr::validation
