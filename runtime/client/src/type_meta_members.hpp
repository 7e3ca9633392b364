// The members every object shares (apiVersion, kind, metadata), read from one member of a JSON
// object by the codecs of rr::Unstructured and rr::ConditionsDuck, which keep the rest their own way.
#pragma once
#include <string>

#include "rr/core/json.hpp"
#include "rr/core/meta.hpp"

namespace rr::client_detail {

// Reads `value` into api_version, kind or metadata when `key` names one of them (null leaves it
// empty); false for any other key.
inline bool read_type_meta_member(const std::string& key, const Json& value, std::string& api_version,
                                  std::string& kind, ObjectMeta& metadata) {
  if (key == "apiVersion") {
    if (!value.is_null()) api_version = value.get<std::string>();
  } else if (key == "kind") {
    if (!value.is_null()) kind = value.get<std::string>();
  } else if (key == "metadata") {
    if (!value.is_null()) metadata = value.get<ObjectMeta>();
  } else {
    return false;
  }
  return true;
}

}  // namespace rr::client_detail
