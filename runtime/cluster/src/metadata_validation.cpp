#include "metadata_validation.hpp"

#include "rr/validation/resource_rules.hpp"

namespace rr::cluster_detail {
namespace {

// The metadata without managedFields: the API server's field manager rewrites those before
// validation runs (a client's [{}] clears them), and here record_update() does so after admission.
Json metadata_of(const Json& object) {
  Json metadata = Json::object();
  if (!object.is_object()) return metadata;
  const auto it = object.find("metadata");
  if (it == object.end() || !it->is_object()) return metadata;
  for (const auto& [key, value] : it->items()) {
    if (key != "managedFields") metadata[key] = value;
  }
  return metadata;
}

}  // namespace

std::vector<FieldError> metadata_findings(const KindInfo& kind, const Json& object, const Json* old_object) {
  const auto builtin = validation::builtin_metadata_rules(kind.gvk.group, kind.plural);
  const validation::MetadataRules rules = builtin ? *builtin : validation::custom_resource_metadata_rules();
  const validation::ErrorList errors = old_object ? validation::validate_update_metadata(metadata_of(object),
                                                                                         metadata_of(*old_object),
                                                                                         kind.namespaced(), rules)
                                                  : validation::validate_create_metadata(metadata_of(object),
                                                                                         kind.namespaced(), rules);
  return validation::to_core(errors);
}

}  // namespace rr::cluster_detail
