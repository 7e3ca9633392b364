#include "apply_fixture.hpp"

namespace rr::apply_testing {

Json as_configuration(Json object) {
  if (object.is_array()) {
    for (auto& item : object) item = as_configuration(item);
    return object;
  }
  if (!object.is_object()) return object;
  for (auto& [key, value] : object.items()) value = as_configuration(value);
  if (auto meta = object.find("metadata"); meta != object.end() && meta->is_object()) {
    Json kept = Json::object();
    for (const char* m :
         {"name", "generateName", "namespace", "labels", "annotations", "ownerReferences", "finalizers"})
      if (meta->contains(m)) kept[m] = (*meta)[m];
    if (kept.empty()) object.erase("metadata");
    else *meta = kept;
  }
  return object;
}

}  // namespace rr::apply_testing
