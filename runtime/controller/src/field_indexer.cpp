// The built-in field indexer.
#include "rr/controller/field_indexer.hpp"

namespace rr {

std::vector<std::string> controller_owner_uid(const Json& object) {
  const auto metadata = object.find("metadata");
  if (metadata == object.end() || !metadata->is_object()) return {};
  const auto refs = metadata->find("ownerReferences");
  if (refs == metadata->end() || !refs->is_array()) return {};
  for (const Json& ref : *refs) {
    if (!ref.is_object()) continue;
    const auto controller = ref.find("controller");
    if (controller == ref.end() || !controller->is_boolean() || !controller->get<bool>()) continue;
    const auto uid = ref.find("uid");
    if (uid != ref.end() && uid->is_string()) return {uid->get<std::string>()};
  }
  return {};
}

}  // namespace rr
