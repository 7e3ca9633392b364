#include "rr/testing/normalize.hpp"

#include "rr/core/json.hpp"
#include "rr/testing/json_diff.hpp"

namespace rr::testing {
namespace {

bool is_empty_value(const Json& v) { return v.is_null() || ((v.is_object() || v.is_array()) && v.empty()); }

void erase_member(Json& object, const char* key) {
  if (object.is_object()) object.erase(key);
}

void erase_metadata_member(Json& object, const char* key) {
  if (!object.is_object()) return;
  if (auto it = object.find("metadata"); it != object.end() && it->is_object()) it->erase(key);
}

// The member as text, "" when absent or not a string.
std::string text_of(const Json& object, const char* key) {
  if (!object.is_object()) return {};
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::string metadata_text(const Json& object, const char* key) {
  if (!object.is_object()) return {};
  auto it = object.find("metadata");
  return it != object.end() ? text_of(*it, key) : std::string();
}

bool agree(const std::string& a, const std::string& b) { return a.empty() || b.empty() || a == b; }

// IgnoreTypeMeta, but a real type mismatch stays visible.
void drop_compatible_type_meta(Json& expected, Json& actual) {
  if (!agree(text_of(expected, "apiVersion"), text_of(actual, "apiVersion")) ||
      !agree(text_of(expected, "kind"), text_of(actual, "kind"))) {
    return;
  }
  for (Json* j : {&expected, &actual}) {
    erase_member(*j, "apiVersion");
    erase_member(*j, "kind");
  }
}

// Only .status (plus apiVersion/kind, which drop_compatible_type_meta removes unless they clash).
Json status_only(const Json& object) {
  Json out = Json::object();
  if (!object.is_object()) return out;
  for (const char* key : {"apiVersion", "kind", "status"}) {
    if (auto it = object.find(key); it != object.end()) out[key] = *it;
  }
  return out;
}

}  // namespace

Json equate_empty(Json value) {
  if (value.is_object()) {
    Json out = Json::object();
    for (auto& [key, member] : value.items()) {
      Json pruned = equate_empty(std::move(member));
      if (!is_empty_value(pruned)) out[key] = std::move(pruned);
    }
    return out;
  }
  if (value.is_array()) {
    for (auto& element : value) element = equate_empty(std::move(element));
  }
  return value;
}

Json drop_last_transition_times(Json value) {
  if (value.is_object()) {
    value.erase("lastTransitionTime");
    for (auto& [key, member] : value.items()) member = drop_last_transition_times(std::move(member));
  } else if (value.is_array()) {
    for (auto& element : value) element = drop_last_transition_times(std::move(element));
  }
  return value;
}

std::string diff_objects(const Json& expected, const Json& actual, ObjectComparison comparison) {
  Json e = comparison == ObjectComparison::StatusUpdate ? status_only(expected) : expected;
  Json a = comparison == ObjectComparison::StatusUpdate ? status_only(actual) : actual;
  drop_compatible_type_meta(e, a);
  if (comparison == ObjectComparison::CreateOrUpdate || comparison == ObjectComparison::StashedValue) {
    for (Json* j : {&e, &a}) {
      erase_metadata_member(*j, "resourceVersion");
      erase_metadata_member(*j, "creationTimestamp");
    }
    // The test store gives a given object without a uid one of its own; an expectation that
    // states no uid does not have to repeat it.
    if (metadata_text(e, "uid").empty()) erase_metadata_member(a, "uid");
  }
  e = equate_empty(drop_last_transition_times(std::move(e)));
  a = equate_empty(drop_last_transition_times(std::move(a)));
  return diff_json(e, a);
}

}  // namespace rr::testing
