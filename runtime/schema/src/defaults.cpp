// Structural defaulting as apiextensions-apiserver does it: a property's default fills an absent
// member (or a null one the schema does not allow), then the walk goes on into the value, so
// defaults inside a default apply too; list items and map values are defaulted where they exist.
// Nulls the schema does not allow and no default replaces are dropped from objects.
#include <vector>

#include "engine.hpp"

namespace rr::schema {
namespace {

bool non_nullable_null(const Json& v, const Node& n) { return v.is_null() && !n.nullable; }

}  // namespace

void default_value(const Node& node, Json& value) {
  if (value.is_object()) {
    for (const auto& [name, prop] : node.properties) {
      if (!prop->default_value) continue;
      auto it = value.find(name);
      if (it == value.end() || non_nullable_null(*it, *prop)) value[name] = *prop->default_value;
    }
    std::vector<std::string> dropped;
    for (auto& [name, member] : value.items()) {
      const Node* child = nullptr;
      if (auto it = node.properties.find(name); it != node.properties.end()) child = it->second.get();
      else if (node.additional_is_schema) child = node.additional.get();  // true: no schema, nothing to do
      if (!child) continue;
      if (non_nullable_null(member, *child)) {
        if (child->default_value) member = *child->default_value;
        else dropped.push_back(name);
      }
      default_value(*child, member);
    }
    for (const auto& name : dropped) value.erase(name);
  } else if (value.is_array() && node.items) {
    for (Json& item : value) {
      if (non_nullable_null(item, *node.items) && node.items->default_value) item = *node.items->default_value;
      default_value(*node.items, item);
    }
  }
}

void Schema::apply_defaults(Json& object) const { default_value(*root_, object); }

}  // namespace rr::schema
