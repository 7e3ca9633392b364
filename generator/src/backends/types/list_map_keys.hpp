// x-kubernetes-list-map-keys resolved against a map list's item struct.
#pragma once
#include <string>

#include "model/model.hpp"

namespace rrgen {

// The member of `item` named by the key `json`, or nullptr; a nullable member is no key.
inline const FieldDef* list_map_key_field(const StructDef& item, const std::string& json) {
  for (const auto& f : item.fields)
    if (f.json_name == json && f.presence != Presence::Nullable) return &f;
  return nullptr;
}

}  // namespace rrgen
