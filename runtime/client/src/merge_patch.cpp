// RFC 7386 JSON Merge Patch.
#include "rr/client/patch.hpp"
#include "rr/core/json.hpp"

namespace rr {
namespace {

void merge_into(Json& target, const Json& patch) {
  if (!patch.is_object()) {
    target = patch;
    return;
  }
  if (!target.is_object()) target = Json::object();
  for (const auto& [name, value] : patch.items()) {
    if (value.is_null()) {
      target.erase(name);
    } else {
      merge_into(target[name], value);  // a new member starts as null, i.e. "not an object"
    }
  }
}

}  // namespace

Json apply_merge_patch(const Json& target, const Json& patch) {
  Json result = target;
  merge_into(result, patch);
  return result;
}

Json create_merge_patch(const Json& from, const Json& to) {
  // Only an object patch can leave members alone; anything else replaces the whole value.
  if (!from.is_object() || !to.is_object()) return to;
  Json patch = Json::object();
  for (const auto& [name, old_value] : from.items()) {
    if (!to.contains(name)) patch[name] = nullptr;
  }
  for (const auto& [name, new_value] : to.items()) {
    const auto old = from.find(name);
    if (old == from.end()) {
      patch[name] = new_value;
    } else if (*old != new_value) {
      patch[name] = old->is_object() && new_value.is_object() ? create_merge_patch(*old, new_value) : new_value;
    }
  }
  return patch;
}

}  // namespace rr
