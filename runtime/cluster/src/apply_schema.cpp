#include "apply_schema.hpp"

#include <algorithm>

namespace rr::cluster_detail {

namespace {

// "$ref": "#/components/schemas/<name>" (OpenAPI v3) or "#/definitions/<name>" (v2).
std::string_view referenced_name(std::string_view ref) {
  const auto slash = ref.rfind('/');
  return slash == std::string_view::npos ? ref : ref.substr(slash + 1);
}

const Json* text_member(const Json* node, std::string_view key) {
  if (!node || !node->is_object()) return nullptr;
  auto it = node->find(std::string(key));
  return it == node->end() ? nullptr : &*it;
}

std::string text_of(const Json* value) { return value && value->is_string() ? value->get<std::string>() : ""; }

// "merge" or "merge,retainKeys".
bool merges(const Json* strategy) {
  const std::string text = text_of(strategy);
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    if (text.compare(start, comma - start, "merge") == 0) return true;
    start = comma + 1;
  }
  return false;
}

}  // namespace

FieldType FieldType::root_of(const ApplySchema* schema) {
  if (!schema || !schema->root.is_object()) return {};
  return FieldType(schema, &schema->root, "");
}

const Json* FieldType::keyword(const Json* node, std::string_view key) const {
  int budget = 64;
  return keyword_within(node, key, budget);
}

const Json* FieldType::keyword_within(const Json* node, std::string_view key, int& budget) const {
  // References and allOf nest a few levels at most; the budget only guards against cycles and
  // against allOf lists that refer to one definition over and over.
  if (!node || !node->is_object() || --budget < 0) return nullptr;
  if (const Json* value = text_member(node, key)) return value;
  if (const Json* ref = text_member(node, "$ref"); ref && ref->is_string() && schema_->definitions) {
    const Json* target = text_member(schema_->definitions.get(), referenced_name(ref->get_ref<const std::string&>()));
    if (const Json* value = keyword_within(target, key, budget)) return value;
  }
  if (const Json* all = text_member(node, "allOf"); all && all->is_array()) {
    for (const Json& part : *all) {
      if (const Json* value = keyword_within(&part, key, budget)) return value;
    }
  }
  return nullptr;
}

FieldType FieldType::member(std::string_view name) const {
  if (node_) {
    if (const Json* properties = keyword(node_, "properties"); properties && properties->is_object()) {
      if (auto it = properties->find(std::string(name)); it != properties->end()) {
        return FieldType(schema_, &*it, std::string(name));
      }
    }
    if (const Json* values = keyword(node_, "additionalProperties"); values && values->is_object()) {
      return FieldType(schema_, values, std::string(name));
    }
  }
  return FieldType(nullptr, nullptr, std::string(name));
}

bool FieldType::map_key(std::string_view name) const {
  if (!node_) return false;
  const Json* values = keyword(node_, "additionalProperties");
  if (!values || !values->is_object()) return false;
  const Json* properties = keyword(node_, "properties");
  return !properties || !properties->is_object() || !properties->contains(std::string(name));
}

FieldType FieldType::item() const {
  if (const Json* items = keyword(node_, "items"); items && items->is_object()) return FieldType(schema_, items, "");
  return {};
}

bool FieldType::atomic_object() const { return text_of(keyword(node_, "x-kubernetes-map-type")) == "atomic"; }

ListType FieldType::list_type_from_schema() const {
  ListType type;
  std::vector<std::string> names;
  const std::string list_type = text_of(keyword(node_, "x-kubernetes-list-type"));
  if (list_type == "set") {
    type.kind = ListKind::Set;
    return type;
  }
  if (list_type == "map") {
    if (const Json* keys = keyword(node_, "x-kubernetes-list-map-keys"); keys && keys->is_array()) {
      for (const Json& key : *keys) names.push_back(text_of(&key));
    }
  } else if (list_type.empty() && merges(keyword(node_, "x-kubernetes-patch-strategy"))) {
    // Before list types, a merge strategy made a list associative: by its merge key, or, for
    // scalars, by value.
    const std::string key = text_of(keyword(node_, "x-kubernetes-patch-merge-key"));
    if (key.empty()) type.kind = ListKind::Set;
    else names.push_back(key);
    if (key.empty()) return type;
  }
  if (names.empty() || std::find(names.begin(), names.end(), "") != names.end()) return ListType{};
  // A key field an item leaves out takes the schema's default for it (a port's protocol: TCP),
  // as structured-merge-diff keys it; without a default the item does not fit.
  std::sort(names.begin(), names.end());
  const FieldType items = item();
  for (const std::string& name : names) {
    const Json* fallback = keyword(items.member(name).node_, "default");
    type.keys.emplace_back(name, fallback && !fallback->is_object() && !fallback->is_array() ? *fallback : Json());
  }
  type.kind = ListKind::Associative;
  return type;
}

ListType FieldType::list_type(const Json& list, const Json* other) const {
  if (!node_) return list_type_of(field_, list, other);
  return fitted(list_type_from_schema(), list, other);
}

}  // namespace rr::cluster_detail
