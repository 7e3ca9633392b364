#include "review_fields.hpp"

#include <nlohmann/json.hpp>

namespace rr::webhook::review {
namespace {

std::string type_of(const Json& value) { return value.type_name(); }

}  // namespace

Json open_review(std::string_view body, std::string_view api_version, std::string_view kind,
                 std::string_view section_name) {
  const std::string name(kind);
  Json review = Json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (review.is_discarded()) throw ReviewError(name + ": the body is not valid JSON");
  if (!review.is_object()) throw ReviewError(name + ": expected a JSON object, got " + type_of(review));
  const auto read = [&](const char* member) -> std::string {
    const auto found = review.find(member);
    if (found == review.end() || found->is_null()) return {};
    if (!found->is_string()) throw ReviewError(name + ": " + member + ": expected a string, got " + type_of(*found));
    return found->get<std::string>();
  };
  const std::string got_version = read("apiVersion");
  const std::string got_kind = read("kind");
  if (got_version != api_version || got_kind != kind) {
    throw ReviewError(name + ": expected apiVersion \"" + std::string(api_version) + "\" and kind \"" + name +
                      "\", got apiVersion \"" + got_version + "\" and kind \"" + got_kind + "\"");
  }
  const auto found = review.find(section_name);
  const std::string where = name + ": " + std::string(section_name);
  if (found == review.end() || found->is_null()) throw ReviewError(where + " is missing");
  if (!found->is_object()) throw ReviewError(where + ": expected an object, got " + type_of(*found));
  return std::move(*found);
}

void Fields::fail(std::string_view name, std::string_view what) const {
  throw ReviewError(path(name) + ": " + std::string(what));
}

const Json* Fields::member(std::string_view name) const {
  const auto found = object_.find(name);
  if (found == object_.end() || found->is_null()) return nullptr;
  return &*found;
}

std::string Fields::string(std::string_view name) const {
  const Json* value = member(name);
  if (value == nullptr) return {};
  if (!value->is_string()) fail(name, "expected a string, got " + type_of(*value));
  return value->get<std::string>();
}

std::string Fields::required_string(std::string_view name) const {
  std::string value = string(name);
  if (value.empty()) throw ReviewError(path(name) + " is missing");
  return value;
}

bool Fields::boolean(std::string_view name) const {
  const Json* value = member(name);
  if (value == nullptr) return false;
  if (!value->is_boolean()) fail(name, "expected a boolean, got " + type_of(*value));
  return value->get<bool>();
}

std::vector<std::string> Fields::strings(std::string_view name) const {
  std::vector<std::string> out;
  const Json* value = member(name);
  if (value == nullptr) return out;
  if (!value->is_array()) fail(name, "expected an array of strings, got " + type_of(*value));
  for (std::size_t i = 0; i < value->size(); ++i) {
    const Json& item = (*value)[i];
    if (!item.is_string()) {
      fail(std::string(name) + "[" + std::to_string(i) + "]", "expected a string, got " + type_of(item));
    }
    out.push_back(item.get<std::string>());
  }
  return out;
}

std::map<std::string, std::string> Fields::string_map(std::string_view name) const {
  std::map<std::string, std::string> out;
  const Json* value = member(name);
  if (value == nullptr) return out;
  if (!value->is_object()) fail(name, "expected an object of strings, got " + type_of(*value));
  for (const auto& [key, item] : value->items()) {
    if (!item.is_string()) fail(std::string(name) + "." + key, "expected a string, got " + type_of(item));
    out.emplace(key, item.get<std::string>());
  }
  return out;
}

std::map<std::string, std::vector<std::string>> Fields::string_lists(std::string_view name) const {
  std::map<std::string, std::vector<std::string>> out;
  const Json* value = member(name);
  if (value == nullptr) return out;
  if (!value->is_object()) fail(name, "expected an object of string arrays, got " + type_of(*value));
  const Fields inner(*value, path(name));
  for (const auto& item : value->items()) out.emplace(item.key(), inner.strings(item.key()));
  return out;
}

const Json* Fields::object(std::string_view name) const {
  const Json* value = member(name);
  if (value != nullptr && !value->is_object()) fail(name, "expected an object, got " + type_of(*value));
  return value;
}

std::optional<Fields> Fields::nested(std::string_view name) const {
  const Json* value = object(name);
  if (value == nullptr) return std::nullopt;
  return Fields(*value, path(name));
}

std::vector<Json> Fields::objects(std::string_view name) const {
  std::vector<Json> out;
  const Json* value = member(name);
  if (value == nullptr) return out;
  if (!value->is_array()) fail(name, "expected an array of objects, got " + type_of(*value));
  for (std::size_t i = 0; i < value->size(); ++i) {
    const Json& item = (*value)[i];
    if (!item.is_object()) {
      fail(std::string(name) + "[" + std::to_string(i) + "]", "expected an object, got " + type_of(item));
    }
    out.push_back(item);
  }
  return out;
}

Json Fields::any(std::string_view name) const {
  const Json* value = member(name);
  return value == nullptr ? Json() : *value;
}

Json status_json(const Status& status, std::string_view outcome) {
  Json json = status.to_json();
  json.erase("kind");
  json.erase("apiVersion");
  if (outcome.empty()) {
    json.erase("status");
  } else {
    json["status"] = outcome;
  }
  return json;
}

Status status_of(const Json& json) { return Status::from_json(json); }

}  // namespace rr::webhook::review
