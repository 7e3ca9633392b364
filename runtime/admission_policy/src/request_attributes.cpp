#include "rr/admission_policy/request_attributes.hpp"

namespace rr::admission_policy {

std::string_view operation_text(AdmissionOperation op) {
  switch (op) {
    case AdmissionOperation::Create: return "CREATE";
    case AdmissionOperation::Update: return "UPDATE";
    case AdmissionOperation::Delete: return "DELETE";
  }
  return "";
}

std::map<std::string, std::string> labels_of(const Json* object) {
  if (!object || !object->is_object()) return {};
  const Json labels = object->value("/metadata/labels"_json_pointer, Json::object());
  std::map<std::string, std::string> out;
  for (const auto& [k, v] : labels.items()) {
    if (v.is_string()) out[k] = v.get<std::string>();
  }
  return out;
}

Json user_json(const RequestUser* user) {
  Json out = Json::object();
  if (!user) return out;
  out["username"] = user->name;
  if (!user->uid.empty()) out["uid"] = user->uid;
  if (!user->groups.empty()) out["groups"] = user->groups;
  if (!user->extra.empty()) out["extra"] = user->extra;
  return out;
}

}  // namespace rr::admission_policy
