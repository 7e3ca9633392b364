#include "rr/client/client.hpp"

namespace rr {

ObjectKey key_of(const Json& object) {
  ObjectKey key;
  if (!object.is_object()) return key;
  const auto metadata = object.find("metadata");
  if (metadata == object.end() || !metadata->is_object()) return key;
  if (const auto ns = metadata->find("namespace"); ns != metadata->end() && ns->is_string()) {
    key.namespace_ = ns->get<std::string>();
  }
  if (const auto name = metadata->find("name"); name != metadata->end() && name->is_string()) {
    key.name = name->get<std::string>();
  }
  return key;
}

}  // namespace rr
