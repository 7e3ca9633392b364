// ConditionsOnly's codec: the declared members decoded, every other one kept as JSON text.
#include "conditions_only.hpp"
#include "rr/core/json.hpp"

#include <stdexcept>

namespace watcher {

namespace {

void require_object(const rr::Json& j, const char* what) {
  if (!j.is_object()) throw std::invalid_argument(std::string(what) + " must be a JSON object");
}

void write_unknown(rr::Json& j, const rr::UnknownFields& unknown) {
  for (const auto& [key, text] : unknown.entries()) j[key] = rr::Json::parse(text);
}

}  // namespace

void to_json(rr::Json& j, const ConditionsOnlyStatus& status) {
  j = rr::Json::object();
  if (status.conditions) j["conditions"] = *status.conditions;
  write_unknown(j, status.unknown_fields);
}

void from_json(const rr::Json& j, ConditionsOnlyStatus& status) {
  require_object(j, "status");
  status = ConditionsOnlyStatus();
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (it.key() == "conditions") {
      if (!it->is_null()) status.conditions = it->get<std::vector<rr::Condition>>();
    } else {
      status.unknown_fields.append(it.key(), it->dump());
    }
  }
}

void to_json(rr::Json& j, const ConditionsOnly& object) {
  j = rr::Json::object();
  if (!object.api_version.empty()) j["apiVersion"] = object.api_version;
  if (!object.kind.empty()) j["kind"] = object.kind;
  j["metadata"] = object.metadata;
  if (object.status) j["status"] = *object.status;
  write_unknown(j, object.unknown_fields);
}

void from_json(const rr::Json& j, ConditionsOnly& object) {
  require_object(j, "an object");
  object = ConditionsOnly();
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string& key = it.key();
    if (key == "apiVersion") {
      object.api_version = it->get<std::string>();
    } else if (key == "kind") {
      object.kind = it->get<std::string>();
    } else if (key == "metadata") {
      object.metadata = it->get<rr::ObjectMeta>();
    } else if (key == "status") {
      if (!it->is_null()) object.status = it->get<ConditionsOnlyStatus>();
    } else {
      object.unknown_fields.append(key, it->dump());
    }
  }
}

}  // namespace watcher
