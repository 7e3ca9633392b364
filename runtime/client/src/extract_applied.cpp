// extract_applied: the configuration one manager applied, rebuilt from the object and the fieldsV1
// of that manager's Apply entry (client-go's managedfields.ExtractInto, on JSON). The trie is
// walked over the object directly: a node with nothing below it but "." (or nothing) takes the
// object's whole value there (a scalar, an atomic list or map, a struct owned as a unit); otherwise
// only the members, items and values the node names.
#include <stdexcept>
#include <string>
#include <vector>

#include "rr/client/apply.hpp"
#include "rr/client/apply_extract.hpp"
#include "rr/core/codec.hpp"
#include "rr/core/json.hpp"

namespace rr {

namespace {

bool is_leaf(const Json& node) {
  for (const auto& [key, child] : node.items()) {
    if (key != ".") return false;
  }
  return true;
}

Json parse_element(std::string_view text, const std::string& element) {
  Json parsed = Json::parse(text, nullptr, false);
  if (parsed.is_discarded()) throw std::invalid_argument("managedFields: malformed path element " + element);
  return parsed;
}

// One way to pick items of a list: by key fields (k:), by value (v:) or by position (i:).
struct ItemSelector {
  enum class By { Key, Value, Index } by = By::Key;
  Json match;  // key object, value, or index
  const Json* node = nullptr;

  bool selects(const Json& item, std::size_t index) const {
    switch (by) {
      case By::Key:
        if (!item.is_object()) return false;
        for (const auto& [field, value] : match.items()) {
          const auto it = item.find(field);
          if (it == item.end() || *it != value) return false;
        }
        return true;
      case By::Value: return item == match;
      case By::Index: return match.is_number_unsigned() && match.get<std::size_t>() == index;
    }
    return false;
  }
};

Json extract_at(const Json& value, const Json& node);

Json extract_object(const Json& value, const Json& node) {
  Json out = Json::object();
  for (const auto& [element, child] : node.items()) {
    if (element == ".") continue;
    if (element.size() < 2 || element.compare(0, 2, "f:") != 0) continue;  // not a member: nothing here
    const auto it = value.find(element.substr(2));
    if (it != value.end()) out[element.substr(2)] = extract_at(*it, child);
  }
  return out;
}

Json extract_list(const Json& value, const Json& node) {
  std::vector<ItemSelector> selectors;
  for (const auto& [element, child] : node.items()) {
    if (element.size() < 2 || element == ".") continue;
    const std::string_view prefix = std::string_view(element).substr(0, 2);
    const std::string_view rest = std::string_view(element).substr(2);
    if (prefix == "k:") {
      Json keys = parse_element(rest, element);
      if (!keys.is_object()) throw std::invalid_argument("managedFields: malformed path element " + element);
      selectors.push_back({ItemSelector::By::Key, std::move(keys), &child});
    } else if (prefix == "v:") selectors.push_back({ItemSelector::By::Value, parse_element(rest, element), &child});
    else if (prefix == "i:") selectors.push_back({ItemSelector::By::Index, parse_element(rest, element), &child});
  }
  Json out = Json::array();
  for (std::size_t i = 0; i < value.size(); ++i) {
    const Json& item = value[i];
    for (const auto& selector : selectors) {
      if (!selector.selects(item, i)) continue;
      Json extracted = extract_at(item, *selector.node);
      // An item of a list map always carries its key fields (they name it in the configuration).
      if (selector.by == ItemSelector::By::Key && extracted.is_object()) {
        for (const auto& [field, key_value] : selector.match.items()) extracted[field] = item[field];
      }
      out.push_back(std::move(extracted));
      break;
    }
  }
  return out;
}

Json extract_at(const Json& value, const Json& node) {
  if (!node.is_object()) throw std::invalid_argument("managedFields: fieldsV1 is not an object of objects");
  if (is_leaf(node)) return value;
  if (value.is_object()) return extract_object(value, node);
  if (value.is_array()) return extract_list(value, node);
  return value;
}

// A string member of a managedFields entry; "" when absent.
std::string entry_string(const Json& entry, const char* member) {
  const auto it = entry.find(member);
  if (it == entry.end() || it->is_null()) return {};
  if (!it->is_string())
    throw std::invalid_argument(std::string("metadata.managedFields: ") + member + " is not a string");
  return it->get<std::string>();
}

const Json* applied_fields(const Json& object, std::string_view manager, std::string_view subresource) {
  const auto metadata = object.find("metadata");
  if (metadata == object.end() || !metadata->is_object()) return nullptr;
  const auto managed = metadata->find("managedFields");
  if (managed == metadata->end() || managed->is_null()) return nullptr;
  if (!managed->is_array()) throw std::invalid_argument("metadata.managedFields is not a list");
  for (const auto& entry : *managed) {
    if (!entry.is_object()) throw std::invalid_argument("metadata.managedFields has an entry that is not an object");
    const std::string entry_manager = entry_string(entry, "manager");
    const std::string operation = entry_string(entry, "operation");
    const std::string entry_subresource = entry_string(entry, "subresource");
    if (entry_manager != manager || operation != "Apply" || entry_subresource != subresource) continue;
    const auto fields = entry.find("fieldsV1");
    if (fields == entry.end()) return nullptr;
    return &*fields;
  }
  return nullptr;
}

}  // namespace

Json extract_applied(const Json& object, std::string_view manager, std::string_view subresource) {
  if (!object.is_object()) throw std::invalid_argument("extract_applied: the object is not a JSON object");
  Json out = Json::object();
  if (const Json* fields = applied_fields(object, manager, subresource)) {
    out = extract_at(object, *fields);
    if (!out.is_object()) out = Json::object();
  }
  // What names the object: client-go's Extract sets them whatever the manager owns.
  for (const char* member : {"apiVersion", "kind"}) {
    if (const auto it = object.find(member); it != object.end()) out[member] = *it;
  }
  if (const auto metadata = object.find("metadata"); metadata != object.end() && metadata->is_object()) {
    for (const char* member : {"name", "namespace"}) {
      if (const auto it = metadata->find(member); it != metadata->end()) out["metadata"][member] = *it;
    }
  }
  return out;
}

void extract_applied_into(const void* object, void (*encode_object)(JsonWriter&, const void*), std::string_view manager,
                          std::string_view subresource, void* configuration,
                          void (*decode_configuration)(JsonReader&, void*)) {
  Json j;
  encode_to_dom(j, encode_object, object);
  decode_from_dom(extract_applied(j, manager, subresource), decode_configuration, configuration);
}

}  // namespace rr
