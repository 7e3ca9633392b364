// x-kubernetes-list-map-keys resolved against a map list's item struct, and the find_<member>
// lookups the types and the apply configurations give a struct's map lists.
#pragma once
#include <set>
#include <string>
#include <vector>

#include "model/model.hpp"

namespace rrgen {

// The member of `item` named by the key `json`, or nullptr; a nullable member is no key.
inline const FieldDef* list_map_key_field(const StructDef& item, const std::string& json) {
  for (const auto& f : item.fields)
    if (f.json_name == json && f.presence != Presence::Nullable) return &f;
  return nullptr;
}

// A member function `name` of a struct that finds an item of a map list by its keys.
struct Finder {
  const FieldDef* list;
  std::string name;
};

// One per map list of `s` whose items are structs (not nullable, not boxed) with every key:
// find_<member>, made unique among the members and the other finders.
inline std::vector<Finder> map_list_finders(const StructDef& s) {
  std::vector<Finder> out;
  std::set<std::string> names;
  for (const auto& f : s.fields) names.insert(f.cpp_name);
  for (const auto& f : s.fields) {
    if (!(f.type.kind == TypeKind::Array && f.constraints && f.constraints->list_type == ListType::Map)) continue;
    const TypeRef& e = *f.type.element;
    if (e.kind != TypeKind::Struct || e.nullable || e.boxed) continue;
    bool ok = !f.constraints->list_map_keys.empty();
    for (const auto& k : f.constraints->list_map_keys) ok = ok && list_map_key_field(*e.def, k);
    if (!ok) continue;
    std::string base = f.cpp_name;
    if (base.back() == '_') base.pop_back();
    std::string name = "find_" + base;
    while (names.count(name)) name += "_by_key";
    names.insert(name);
    out.push_back({&f, name});
  }
  return out;
}

// The key members of a map list's item, in x-kubernetes-list-map-keys order.
inline std::vector<const FieldDef*> map_list_key_fields(const FieldDef& f) {
  std::vector<const FieldDef*> out;
  for (const auto& k : f.constraints->list_map_keys) out.push_back(list_map_key_field(*f.type.element->def, k));
  return out;
}

}  // namespace rrgen
