// The informers' stock transforms.
#include "rr/controller/informer_transforms.hpp"

namespace rr {

namespace {

inline constexpr const char* last_applied = "kubectl.kubernetes.io/last-applied-configuration";

Json* metadata_of(Json& object) {
  if (!object.is_object()) return nullptr;
  auto it = object.find("metadata");
  return it != object.end() && it->is_object() ? &*it : nullptr;
}

}  // namespace

void strip_managed_fields(Json& object) {
  if (Json* meta = metadata_of(object)) meta->erase("managedFields");
}

void strip_last_applied_configuration(Json& object) {
  Json* meta = metadata_of(object);
  if (!meta) return;
  auto annotations = meta->find("annotations");
  if (annotations == meta->end() || !annotations->is_object()) return;
  annotations->erase(last_applied);
  if (annotations->empty()) meta->erase(annotations);
}

void strip_bookkeeping(Json& object) {
  strip_managed_fields(object);
  strip_last_applied_configuration(object);
}

void keep_metadata_only(Json& object) {
  if (!object.is_object()) return;
  Json partial = Json::object();
  for (const char* field : {"apiVersion", "kind", "metadata"}) {
    if (auto it = object.find(field); it != object.end()) partial[field] = std::move(*it);
  }
  object = std::move(partial);
}

}  // namespace rr
