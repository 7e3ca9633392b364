#include "listtype.hpp"

#include <unordered_map>

#include "correlate.hpp"
#include "error_text.hpp"

namespace rr::schema {

namespace {

void check_list(const Node& list, const Json& value, const std::string& path, std::vector<FieldError>& out) {
  if (list.list_type != ListType::Set && list.list_type != ListType::Map) return;
  if (list.list_type == ListType::Map)
    for (std::size_t i = 0; i < value.size(); ++i)
      if (!value[i].is_null() && !value[i].is_object()) {
        out.push_back(field_error(path + "[" + std::to_string(i) + "]", FieldErrorType::Invalid, go_value(value[i]),
                                  "must be an object for an array of list-type map"));
        return;
      }
  std::unordered_map<std::string, int> seen;
  for (std::size_t i = 0; i < value.size(); ++i) {
    // A null item of a map list has no keys: its identity is the empty key map.
    const std::string id = value[i].is_null() && list.list_type == ListType::Map ? go_value(Json::object())
                                                                                 : item_identity(list, value[i]);
    if (++seen[id] == 2)
      out.push_back(field_error(path + "[" + std::to_string(i) + "]", FieldErrorType::Duplicate, id, {}));
  }
}

}  // namespace

void list_type_errors(const Node& node, const Json& value, const std::string& path, std::vector<FieldError>& out) {
  if (value.is_array()) {
    check_list(node, value, path, out);
    if (node.items)
      for (std::size_t i = 0; i < value.size(); ++i)
        list_type_errors(*node.items, value[i], path + "[" + std::to_string(i) + "]", out);
  } else if (value.is_object()) {
    for (const auto& [name, member] : value.items()) {
      if (auto it = node.properties.find(name); it != node.properties.end())
        list_type_errors(*it->second, member, path.empty() ? name : path + "." + name, out);
      else if (node.additional_is_schema) list_type_errors(*node.additional, member, path + "[" + name + "]", out);
    }
  }
}

}  // namespace rr::schema
