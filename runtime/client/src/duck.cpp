// The codec of rr::ConditionsDuck: the members the duck declares are decoded, every other one is
// kept as JSON text in unknown_fields and written back after them.
#include "rr/client/duck.hpp"

#include <stdexcept>

#include "type_meta_members.hpp"

namespace rr {

namespace {

void require_object(const Json& j, const char* what) {
  if (!j.is_object()) throw std::invalid_argument(std::string(what) + " must be a JSON object, not " + j.type_name());
}

void write_unknown(Json& j, const UnknownFields& unknown) {
  for (const auto& [key, text] : unknown.entries()) j[key] = Json::parse(text);
}

}  // namespace

void to_json(Json& j, const ConditionsDuckStatus& status) {
  j = Json::object();
  if (status.observed_generation) j["observedGeneration"] = *status.observed_generation;
  if (status.conditions) j["conditions"] = *status.conditions;
  write_unknown(j, status.unknown_fields);
}

void from_json(const Json& j, ConditionsDuckStatus& status) {
  require_object(j, "status");
  status = ConditionsDuckStatus();
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (it.key() == "observedGeneration") {
      if (!it->is_null()) status.observed_generation = it->get<std::int64_t>();
    } else if (it.key() == "conditions") {
      if (!it->is_null()) status.conditions = it->get<std::vector<Condition>>();
    } else {
      status.unknown_fields.append(it.key(), it->dump());
    }
  }
}

void to_json(Json& j, const ConditionsDuck& object) {
  j = Json::object();
  if (!object.api_version.empty()) j["apiVersion"] = object.api_version;
  if (!object.kind.empty()) j["kind"] = object.kind;
  j["metadata"] = object.metadata;
  if (object.status) j["status"] = *object.status;
  write_unknown(j, object.unknown_fields);
}

void from_json(const Json& j, ConditionsDuck& object) {
  require_object(j, "a duck-typed object");
  object = ConditionsDuck();
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string& key = it.key();
    if (client_detail::read_type_meta_member(key, *it, object.api_version, object.kind, object.metadata)) {
      continue;
    }
    if (key == "status") {
      if (!it->is_null()) object.status = it->get<ConditionsDuckStatus>();
    } else {
      object.unknown_fields.append(key, it->dump());
    }
  }
}

}  // namespace rr
