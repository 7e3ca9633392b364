#include "crd_admission.hpp"

#include <memory>
#include <variant>

#include "rr/schema/schema.hpp"
#include "rr/schema/selectable_fields.hpp"
#include "rr/schema_cel/cel_node_checks.hpp"

namespace rr::apiserver_detail {

namespace {

using Compiled = std::variant<schema::Schema, std::vector<FieldError>>;

Compiled compile_version(const Json& version, std::size_t index) {
  return schema::compile_crd_schema(version.at("/schema/openAPIV3Schema"_json_pointer),
                                    "spec.versions[" + std::to_string(index) + "].schema.openAPIV3Schema");
}

bool has_schema(const Json& version) {
  return version.is_object() && version.contains("/schema/openAPIV3Schema"_json_pointer) &&
         version.at("/schema/openAPIV3Schema"_json_pointer).is_object();
}

}  // namespace

Cluster::AdmissionFn schema_admission(const Json& crd, const std::string& version_name) {
  const Json* versions = crd.contains("/spec/versions"_json_pointer) ? &crd.at("/spec/versions"_json_pointer) : nullptr;
  if (!versions || !versions->is_array()) return {};
  for (std::size_t i = 0; i < versions->size(); ++i) {
    const Json& version = (*versions)[i];
    if (!has_schema(version) || version.value("name", "") != version_name) continue;
    Compiled compiled = compile_version(version, i);
    auto* ok = std::get_if<schema::Schema>(&compiled);
    if (!ok) return {};
    auto compiled_schema = std::make_shared<const schema::Schema>(std::move(*ok));
    return [compiled_schema](const AdmissionRequest& request) {
      AdmissionResponse response;
      response.unknown_fields = compiled_schema->prune(request.object);
      compiled_schema->apply_defaults(request.object);
      schema::ValidateOptions options;
      options.warnings = &response.warnings;  // ratcheted rule failures
      response.errors = compiled_schema->validate(request.object, request.old_object, options);
      return response;
    };
  }
  return {};
}

std::vector<FieldError> check_crd_schemas(const Json& crd) {
  std::vector<FieldError> errors;
  const Json* versions = crd.contains("/spec/versions"_json_pointer) ? &crd.at("/spec/versions"_json_pointer) : nullptr;
  if (!versions || !versions->is_array()) return errors;
  for (std::size_t i = 0; i < versions->size(); ++i) {
    const Json& version = (*versions)[i];
    const std::string path = "spec.versions[" + std::to_string(i) + "].selectableFields";
    if (version.is_object() && version.contains("selectableFields") && version["selectableFields"].is_array() &&
        !version["selectableFields"].empty()) {
      if (!has_schema(version)) {
        // Upstream's words, which say the opposite of what they mean.
        errors.push_back(FieldError{path, FieldErrorType::Invalid,
                                    path + ": Invalid value: \"\": may only be set when "
                                           "`version.schema.openAPIV3Schema` is not included"});
      } else {
        auto found = schema::check_selectable_fields(version.at("/schema/openAPIV3Schema"_json_pointer),
                                                     version["selectableFields"], path);
        errors.insert(errors.end(), found.begin(), found.end());
      }
    }
    if (!has_schema(version)) continue;
    Compiled compiled = compile_version((*versions)[i], i);
    if (auto* found = std::get_if<std::vector<FieldError>>(&compiled)) {
      errors.insert(errors.end(), found->begin(), found->end());
    }
  }
  return errors;
}

}  // namespace rr::apiserver_detail
