#include "crd_admission.hpp"

#include <map>
#include <memory>
#include <optional>
#include <variant>

#include "crd_conversion.hpp"

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

using SchemaPtr = std::shared_ptr<const schema::Schema>;

// What the custom resource handler does to an object decoded in a version: prune, default, then
// validate with the old object (transition rules, ratcheting).
AdmissionResponse admit(const schema::Schema& schema, const AdmissionRequest& request) {
  AdmissionResponse response;
  response.unknown_fields = schema.prune(request.object);
  schema.apply_defaults(request.object);
  schema::ValidateOptions options;
  options.warnings = &response.warnings;  // ratcheted rule failures
  response.errors = schema.validate(request.object, request.old_object, options);
  return response;
}

// A write the conversion handler made in the storage version for a request in another served
// version (strategy None: the versions differ in apiVersion only). The API server validates in the
// version the request was sent in, then converts to the storage version, pruning there.
AdmissionResponse admit_as(const schema::Schema& requested, const std::string& requested_api_version,
                           const schema::Schema& storage, const AdmissionRequest& request) {
  Json& object = request.object;
  const Json stored_as = object.value("apiVersion", Json());
  object["apiVersion"] = requested_api_version;
  std::optional<Json> old;
  if (request.old_object) {
    old = *request.old_object;
    if (old->is_object()) (*old)["apiVersion"] = requested_api_version;
  }
  AdmissionResponse response = admit(
      requested, AdmissionRequest{.object = object, .old_object = old ? &*old : nullptr, .status = request.status});
  object["apiVersion"] = stored_as;
  storage.prune(object);  // what the storage version does not know is dropped, not reported
  storage.apply_defaults(object);
  response.decoded_version = requested_api_version.substr(requested_api_version.find('/') + 1);
  return response;
}

}  // namespace

Cluster::AdmissionFn schema_admission(const Json& crd, const std::string& version_name) {
  const Json* versions = crd.contains("/spec/versions"_json_pointer) ? &crd.at("/spec/versions"_json_pointer) : nullptr;
  if (!versions || !versions->is_array()) return {};
  auto compiled_at = [&](std::size_t i) -> SchemaPtr {
    Compiled compiled = compile_version((*versions)[i], i);
    auto* ok = std::get_if<schema::Schema>(&compiled);
    return ok ? std::make_shared<const schema::Schema>(std::move(*ok)) : nullptr;
  };
  std::optional<std::size_t> own_index;
  for (std::size_t i = 0; i < versions->size(); ++i) {
    if (has_schema((*versions)[i]) && (*versions)[i].value("name", "") == version_name) own_index = i;
  }
  if (!own_index) return {};
  SchemaPtr own = compiled_at(*own_index);
  if (!own) return {};
  // Only the storage version's kind holds objects, and only strategy None converts without a
  // webhook (which cannot be called under the cluster's lock): there, a request in another served
  // version is admitted with that version's schema.
  std::map<std::string, SchemaPtr> others;
  if ((*versions)[*own_index].value("storage", false) &&
      crd.value("/spec/conversion/strategy"_json_pointer, std::string("None")) == "None") {
    for (std::size_t i = 0; i < versions->size(); ++i) {
      const Json& version = (*versions)[i];
      if (i == *own_index || !has_schema(version) || !version.value("served", true)) continue;
      if (SchemaPtr schema = compiled_at(i)) others.emplace(version.value("name", ""), std::move(schema));
    }
  }
  if (others.empty()) {
    return [own](const AdmissionRequest& request) { return admit(*own, request); };
  }
  const std::string group = crd.value("/spec/group"_json_pointer, std::string());
  return [own, others = std::move(others), group](const AdmissionRequest& request) {
    if (const std::string* requested = RequestedVersionScope::current()) {
      if (auto it = others.find(*requested); it != others.end()) {
        return admit_as(*it->second, group + "/" + *requested, *own, request);
      }
    }
    return admit(*own, request);
  };
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
