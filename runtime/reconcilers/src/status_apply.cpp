// status_apply_configuration (rr/reconcilers/status_apply.hpp): the computed status, less the parts
// another manager owns that the reconcile carried over unchanged. The managedFields tries (fieldsV1)
// are walked beside the values: "f:<member>" for object members, "k:{...}" for the items of a list
// map (whose key fields they also name).
#include "rr/reconcilers/status_apply.hpp"

#include <string>
#include <vector>

#include "rr/core/json.hpp"

namespace rr {

namespace {

// Who is known to own a place in the object: our last status apply's trie node there (nullptr:
// not ours) and the nodes of every other entry that reaches it.
struct Owners {
  const Json* ours = nullptr;
  std::vector<const Json*> others;
};

// A trie node owning its whole value: nothing below it but ".".
bool owns_whole(const Json& node) {
  for (const auto& [element, child] : node.items()) {
    if (element != ".") return false;
  }
  return true;
}

const Json* child_node(const Json* node, const std::string& element) {
  if (!node || !node->is_object()) return nullptr;
  const auto it = node->find(element);
  if (it == node->end() || !it->is_object()) return nullptr;
  return &*it;
}

Owners child_owners(const Owners& at, const std::string& element) {
  Owners out{child_node(at.ours, element), {}};
  for (const Json* node : at.others) {
    if (const Json* child = child_node(node, element)) out.others.push_back(child);
  }
  return out;
}

// The key of a list map item as an element "k:{...}" names it: parsed, or a discarded value.
Json parse_key(const std::string& element) {
  if (element.size() < 3 || element.compare(0, 2, "k:") != 0) return Json(Json::value_t::discarded);
  Json key = Json::parse(std::string_view(element).substr(2), nullptr, false);
  if (!key.is_object() || key.empty()) return Json(Json::value_t::discarded);
  return key;
}

// The key fields of the list at this place, from the first "k:{...}" element any owner's node has.
std::vector<std::string> list_keys(const Owners& at) {
  std::vector<const Json*> nodes = at.others;
  if (at.ours) nodes.push_back(at.ours);
  for (const Json* node : nodes) {
    if (!node->is_object()) continue;
    for (const auto& [element, child] : node->items()) {
      const Json key = parse_key(element);
      if (key.is_discarded()) continue;
      std::vector<std::string> fields;
      for (const auto& [field, value] : key.items()) fields.push_back(field);
      return fields;
    }
  }
  return {};
}

// The node under `node` whose "k:{...}" element names `key`.
const Json* item_node(const Json* node, const Json& key) {
  if (!node || !node->is_object()) return nullptr;
  for (const auto& [element, child] : node->items()) {
    if (!child.is_object()) continue;
    const Json parsed = parse_key(element);
    if (!parsed.is_discarded() && parsed == key) return &child;
  }
  return nullptr;
}

Owners item_owners(const Owners& at, const Json& key) {
  Owners out{item_node(at.ours, key), {}};
  for (const Json* node : at.others) {
    if (const Json* child = item_node(node, key)) out.others.push_back(child);
  }
  return out;
}

bool prune(Json& after, const Json* before, const Owners& owners);

void prune_object(Json& after, const Json& before, const Owners& owners) {
  std::vector<std::string> dropped;
  for (auto& [member, value] : after.items()) {
    const auto it = before.find(member);
    if (!prune(value, it == before.end() ? nullptr : &*it, child_owners(owners, "f:" + member)))
      dropped.push_back(member);
  }
  for (const std::string& member : dropped) after.erase(member);
}

void prune_list_map(Json& after, const Json& before, const Owners& owners, const std::vector<std::string>& fields) {
  Json kept = Json::array();
  for (Json& item : after) {
    Json key = Json::object();
    for (const std::string& field : fields) {
      const auto it = item.is_object() ? item.find(field) : item.end();
      if (it == item.end()) {
        key = nullptr;  // not an item the key names: kept as it is
        break;
      }
      key[field] = *it;
    }
    if (key.is_null()) {
      kept.push_back(std::move(item));
      continue;
    }
    const Json* previous = nullptr;
    for (const Json& candidate : before) {
      bool same = candidate.is_object();
      for (const auto& [field, value] : key.items()) {
        if (!same) break;
        const auto it = candidate.find(field);
        same = it != candidate.end() && *it == value;
      }
      if (same) {
        previous = &candidate;
        break;
      }
    }
    if (!prune(item, previous, item_owners(owners, key))) continue;
    // The key fields name the item in the configuration, whoever owns them.
    for (const auto& [field, value] : key.items()) item[field] = value;
    kept.push_back(std::move(item));
  }
  after = std::move(kept);
}

// Leaves out of `after` what another manager owns that the reconcile carried over unchanged; false
// when the whole of `after` is such a part.
bool prune(Json& after, const Json* before, const Owners& owners) {
  if (!before) return true;                                  // new here: the reconcile set it
  if (owners.ours && owns_whole(*owners.ours)) return true;  // ours as a whole
  if (!owners.ours && after == *before) return owners.others.empty();
  if (after.is_object() && before->is_object()) {
    prune_object(after, *before, owners);
  } else if (after.is_array() && before->is_array()) {
    const std::vector<std::string> fields = list_keys(owners);
    if (!fields.empty()) prune_list_map(after, *before, owners, fields);  // else atomic: kept whole
  }
  return true;
}

std::string entry_string(const Json& entry, const char* member) {
  const auto it = entry.find(member);
  return it != entry.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// The owners of "status": our status apply entry and every other entry with fieldsV1.
Owners status_owners(const Json& original, std::string_view field_manager) {
  Owners root;
  const auto metadata = original.find("metadata");
  if (metadata == original.end() || !metadata->is_object()) return root;
  const auto managed = metadata->find("managedFields");
  if (managed == metadata->end() || !managed->is_array()) return root;
  for (const Json& entry : *managed) {
    if (!entry.is_object()) continue;
    const auto fields = entry.find("fieldsV1");
    if (fields == entry.end() || !fields->is_object()) continue;
    const bool ours = entry_string(entry, "manager") == field_manager && entry_string(entry, "operation") == "Apply" &&
                      entry_string(entry, "subresource") == "status";
    if (ours && !root.ours) {
      root.ours = &*fields;
    } else {
      root.others.push_back(&*fields);
    }
  }
  return child_owners(root, "f:status");
}

void copy_member(Json& out, const Json& from, const Json& fallback, const char* member) {
  for (const Json* side : {&from, &fallback}) {
    if (!side->is_object()) continue;
    const auto it = side->find(member);
    if (it != side->end() && it->is_string()) {
      out[member] = *it;
      return;
    }
  }
}

}  // namespace

Json status_apply_configuration(const Json& original, const Json& computed, std::string_view field_manager) {
  Json out = Json::object();
  copy_member(out, computed, original, "apiVersion");
  copy_member(out, computed, original, "kind");
  Json metadata = Json::object();
  const Json empty = Json::object();
  const auto meta_of = [&](const Json& object) -> const Json& {
    if (!object.is_object()) return empty;
    const auto it = object.find("metadata");
    return it != object.end() && it->is_object() ? *it : empty;
  };
  copy_member(metadata, meta_of(computed), meta_of(original), "name");
  copy_member(metadata, meta_of(computed), meta_of(original), "namespace");
  out["metadata"] = std::move(metadata);

  const auto status = computed.is_object() ? computed.find("status") : computed.end();
  if (status == computed.end() || status->is_null()) return out;
  Json applied = *status;
  const auto read = original.is_object() ? original.find("status") : original.end();
  const Json* before = read == original.end() || read->is_null() ? nullptr : &*read;
  if (!prune(applied, before, status_owners(original, field_manager))) applied = Json::object();
  out["status"] = std::move(applied);
  return out;
}

}  // namespace rr
