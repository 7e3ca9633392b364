// Applying a strategic merge patch, after apimachinery's strategicpatch.StrategicMergePatch
// (server side: parallel lists merged, unmatched nulls ignored). Deliberate differences, for a
// result that never carries directives: values new to the original are themselves merged into an
// empty value (so their directives are resolved and their nulls dropped, where Go copies them
// raw); `{"$patch": "delete"}` on an object removes the member (Go leaves {}); deleting from a
// primitive list that does not exist is a no-op.
#include <iterator>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "rr/client/patch.hpp"
#include "rr/client/strategic_merge.hpp"
#include "strategic_merge_order.hpp"

namespace rr {
namespace {

constexpr std::string_view kPatchDirective = "$patch";
constexpr std::string_view kRetainKeys = "$retainKeys";
constexpr std::string_view kSetElementOrder = "$setElementOrder/";
constexpr std::string_view kDeleteFromPrimitiveList = "$deleteFromPrimitiveList/";

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

// Directives start with '$'; every other key, the empty one included, is a field.
bool is_directive(std::string_view key) { return starts_with(key, "$"); }

std::string child_path(const std::string& path, std::string_view name) {
  return path.empty() ? std::string(name) : path + "." + std::string(name);
}

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw PatchError("strategic merge patch: " + (path.empty() ? std::string("<root>") : path) + ": " + what);
}

// The field a "$prefix/<field>" directive names.
std::string_view directive_field(std::string_view key, std::string_view prefix, const std::string& path) {
  const std::string_view field = key.substr(prefix.size());
  if (field.empty()) fail(path, "directive \"" + std::string(key) + "\" names no field");
  return field;
}

enum class ItemKind { Object, Primitive };

class Merger {
 public:
  // nullopt: the object is deleted ($patch: delete).
  std::optional<Json> merge_object(Json original, const Json& patch, const StrategicNode& node,
                                   const std::string& path) {
    if (const auto directive = patch.find(kPatchDirective); directive != patch.end()) {
      return object_directive(*directive, patch, node, path);
    }
    if (!original.is_object()) original = Json::object();
    apply_retain_keys(original, patch, path);

    std::set<std::string, std::less<>> ordered;  // list fields a $setElementOrder already produced
    for (const auto& [key, value] : patch.items()) {
      if (starts_with(key, kSetElementOrder)) {
        const std::string_view field = directive_field(key, kSetElementOrder, path);
        apply_element_order(original, patch, field, value, node.field(field), child_path(path, field));
        ordered.emplace(field);
      }
    }
    for (const auto& [key, value] : patch.items()) {
      if (is_directive(key) || ordered.count(key) != 0) continue;
      merge_member(original, key, value, node.field(key), child_path(path, key));
    }
    // After additions, as an element both added and deleted by one patch is not meaningful.
    for (const auto& [key, value] : patch.items()) {
      if (starts_with(key, kDeleteFromPrimitiveList)) {
        const std::string_view field = directive_field(key, kDeleteFromPrimitiveList, path);
        delete_from_primitive_list(original, field, value, child_path(path, field));
      }
    }
    return original;
  }

  // A value of the patch where the original has none: merged into an empty value.
  std::optional<Json> fresh(const Json& value, const StrategicNode& node, const std::string& path) {
    if (value.is_object()) return merge_object(Json::object(), value, node, path);
    if (value.is_array()) return merge_list(Json::array(), value, node, path);
    return value;
  }

 private:
  std::optional<Json> object_directive(const Json& directive, const Json& patch, const StrategicNode& node,
                                       const std::string& path) {
    if (directive == "delete") return std::nullopt;
    if (directive == "replace") {
      Json rest = patch;
      rest.erase(std::string(kPatchDirective));
      return merge_object(Json::object(), rest, node, path);
    }
    fail(path, "unknown $patch directive " + directive.dump() + " in an object (want replace or delete)");
  }

  static void apply_retain_keys(Json& original, const Json& patch, const std::string& path) {
    const auto retain = patch.find(kRetainKeys);
    if (retain == patch.end()) return;
    if (!retain->is_array()) fail(path, "$retainKeys must be a list of field names");
    std::set<std::string, std::less<>> kept;
    for (const Json& name : *retain) {
      if (!name.is_string()) fail(path, "$retainKeys must be a list of field names");
      kept.insert(name.get<std::string>());
    }
    for (const auto& [key, value] : patch.items()) {
      if (value.is_null() || is_directive(key)) continue;
      if (kept.count(key) == 0) fail(path, "field \"" + key + "\" is in the patch but not in $retainKeys");
    }
    for (auto it = original.begin(); it != original.end();) {
      it = kept.count(it.key()) != 0 ? std::next(it) : original.erase(it);
    }
  }

  void merge_member(Json& original, const std::string& key, const Json& value, const StrategicNode& node,
                    const std::string& path) {
    const auto existing = original.find(key);
    if (value.is_null()) {
      if (existing != original.end()) original.erase(existing);
      return;
    }
    std::optional<Json> merged;
    if (existing == original.end() || existing->is_null()) {
      merged = fresh(value, node, path);
    } else if (existing->is_object() && value.is_object() && node.patch().strategy != PatchStrategy::Replace) {
      merged = merge_object(*existing, value, node, path);
    } else if (existing->is_array() && value.is_array()) {
      merged = merge_list(*existing, value, node, path);
    } else {
      merged = fresh(value, node, path);
    }
    if (merged) {
      original[key] = std::move(*merged);
    } else {
      original.erase(key);
    }
  }

  Json merge_list(const Json& original, const Json& patch, const StrategicNode& node, const std::string& path) {
    if (node.patch().strategy != PatchStrategy::Merge) return replaced_list(patch, node, path);
    if (original.empty() && patch.empty()) return original;
    if (item_kind(original, patch, path) == ItemKind::Primitive) return merge_primitives(original, patch);
    return merge_objects(original, patch, node, path);
  }

  // A list taken whole from the patch; its objects (also in nested lists) still lose their
  // directives and nulls.
  Json replaced_list(const Json& patch, const StrategicNode& node, const std::string& path) {
    Json out = Json::array();
    for (const Json& item : patch) {
      if (item.is_array()) {
        out.push_back(replaced_list(item, node, path));
      } else if (!item.is_object()) {
        out.push_back(item);
      } else if (std::optional<Json> kept = merge_object(Json::object(), item, node, path)) {
        out.push_back(std::move(*kept));
      }
    }
    return out;
  }

  static ItemKind item_kind(const Json& original, const Json& patch, const std::string& path) {
    std::optional<Json::value_t> seen;
    for (const Json* list : {&original, &patch}) {
      for (const Json& item : *list) {
        if (item.is_array()) fail(path, "lists of lists cannot be merged");
        // All numbers are one kind, as in Go's float64.
        const Json::value_t type = item.is_number() ? Json::value_t::number_float : item.type();
        if (seen && *seen != type) fail(path, "the items of a merge list must all be of one kind");
        seen = type;
      }
    }
    return seen == Json::value_t::object ? ItemKind::Object : ItemKind::Primitive;
  }

  // A set union: each value once, ordered by the patch for its values, by the original for the others.
  static Json merge_primitives(const Json& original, const Json& patch) {
    Json unique = Json::array();
    for (const Json* list : {&original, &patch}) {
      for (const Json& item : *list) {
        if (strategic::index_of_item(unique, item, "") < 0) unique.push_back(item);
      }
    }
    return strategic::order_items(unique, patch, original, "");
  }

  Json merge_objects(Json original, const Json& patch, const StrategicNode& node, const std::string& path) {
    const std::string& key = node.patch().merge_key;
    if (key.empty()) fail(path, "a list of objects with strategy merge needs a merge key");
    bool replace = false;
    Json items = Json::array();  // the patch items without directives
    for (const Json& item : patch) {
      const auto directive = item.find(kPatchDirective);
      if (directive == item.end()) {
        require_merge_key(item, key, path);
        items.push_back(item);
      } else if (*directive == "delete") {
        require_merge_key(item, key, path);
        delete_matching(original, item[key], key);
      } else if (*directive == "replace") {
        replace = true;
      } else {
        fail(path, "unknown $patch directive " + directive->dump() + " in a list item (want delete or replace)");
      }
    }
    if (replace) return replaced_list(items, node, path);

    Json merged = original;
    for (const Json& item : items) {
      const long at = strategic::index_of_item(merged, item, key);
      if (at >= 0) {
        merged[static_cast<std::size_t>(at)] = *merge_object(merged[static_cast<std::size_t>(at)], item, node, path);
      } else {
        merged.push_back(*merge_object(Json::object(), item, node, path));
      }
    }
    for (const Json& item : merged) require_merge_key(item, key, path);
    return strategic::order_items(merged, items, original, key);
  }

  static void require_merge_key(const Json& item, const std::string& key, const std::string& path) {
    if (!item.is_object() || !item.contains(key)) {
      fail(path, "list item " + item.dump() + " does not contain the merge key \"" + key + "\"");
    }
  }

  static void delete_matching(Json& list, const Json& value, const std::string& key) {
    Json kept = Json::array();
    for (Json& item : list) {
      const Json* id = strategic::item_identity(item, key);
      if (id == nullptr || *id != value) kept.push_back(std::move(item));
    }
    list = std::move(kept);
  }

  // $setElementOrder/<field>: merges the field's patch list now, then orders the result.
  void apply_element_order(Json& original, const Json& patch, std::string_view field, const Json& order,
                           const StrategicNode& node, const std::string& path) {
    if (!order.is_array()) fail(path, "$setElementOrder must be a list");
    const std::string& key = node.patch().merge_key;
    const auto live = original.find(field);
    const bool has_live = live != original.end() && !live->is_null();
    if (has_live && !live->is_array()) fail(path, "$setElementOrder names a field that is not a list");
    const auto patch_list = patch.find(field);
    const bool has_patch = patch_list != patch.end();
    if (has_patch && !patch_list->is_array()) fail(path, "$setElementOrder names a field the patch does not set to a list");
    if (!has_live && !has_patch) return;
    if (has_patch) check_order_matches(*patch_list, order, key, path);

    const Json server = has_live ? *live : Json::array();
    const Json merged = has_patch ? merge_list(server, *patch_list, node, path) : server;
    original[std::string(field)] = strategic::order_items(merged, order, server, key);
  }

  // Every patch item (deletions aside) must appear in the order list, in the same relative order.
  static void check_order_matches(const Json& list, const Json& order, const std::string& key, const std::string& path) {
    if (order.empty()) return;  // as upstream: an empty order list constrains nothing
    std::size_t at = 0;
    for (const Json& item : list) {
      if (!key.empty() && item.is_object() && item.contains(kPatchDirective)) continue;
      if (!key.empty()) require_merge_key(item, key, path);
      const Json* id = strategic::item_identity(item, key);
      while (at < order.size()) {
        const Json& named = order[at++];
        if (!key.empty()) require_merge_key(named, key, path);
        if (*strategic::item_identity(named, key) == *id) {
          id = nullptr;
          break;
        }
      }
      if (id != nullptr) fail(path, "the order in the patch list " + list.dump() + " does not match $setElementOrder " + order.dump());
    }
  }

  static void delete_from_primitive_list(Json& original, std::string_view field, const Json& doomed,
                                         const std::string& path) {
    if (!doomed.is_array()) fail(path, "$deleteFromPrimitiveList must be a list");
    const auto live = original.find(field);
    if (live == original.end() || live->is_null()) return;
    if (!live->is_array()) fail(path, "$deleteFromPrimitiveList names a field that is not a list");
    Json kept = Json::array();
    for (const Json& item : *live) {
      if (strategic::index_of_item(doomed, item, "") < 0) kept.push_back(item);
    }
    *live = std::move(kept);
  }
};

}  // namespace

Json apply_strategic_merge_patch(const Json& original, const Json& patch, const StrategicSchema& schema) {
  if (!patch.is_object()) throw PatchError("strategic merge patch: the patch must be a JSON object");
  if (!original.is_object()) throw PatchError("strategic merge patch: the original must be a JSON object");
  const bool original_has_kind = original.contains("kind");
  const StrategicNode& root = schema.root_for(original_has_kind ? original : patch);
  std::optional<Json> result = Merger().merge_object(original, patch, root, "");
  return result ? std::move(*result) : Json::object();
}

}  // namespace rr
