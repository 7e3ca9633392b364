// rr::Unstructured's codec: apiVersion, kind and metadata decoded, the rest kept as it is.
#include "rr/client/unstructured.hpp"

#include <stdexcept>

#include "type_meta_members.hpp"

namespace rr {

const Json* Unstructured::find(std::string_view name) const {
  auto it = body.find(name);
  return it == body.end() ? nullptr : &*it;
}

Json* Unstructured::find(std::string_view name) {
  auto it = body.find(name);
  return it == body.end() ? nullptr : &*it;
}

Json& Unstructured::member(std::string_view name) {
  if (!body.is_object()) body = Json::object();
  Json& value = body[std::string(name)];
  if (value.is_null()) value = Json::object();
  return value;
}

void to_json(Json& j, const Unstructured& object) {
  j = object.body.is_object() ? object.body : Json::object();
  if (!object.api_version.empty()) j["apiVersion"] = object.api_version;
  if (!object.kind.empty()) j["kind"] = object.kind;
  j["metadata"] = object.metadata;
}

void from_json(const Json& j, Unstructured& object) {
  if (!j.is_object())
    throw std::invalid_argument("an unstructured object must be a JSON object, not " + std::string(j.type_name()));
  object = Unstructured();
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string& key = it.key();
    if (client_detail::read_type_meta_member(key, *it, object.api_version, object.kind, object.metadata)) {
      continue;
    }
    object.body[key] = *it;
  }
}

}  // namespace rr
