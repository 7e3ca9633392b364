#include "typed_admission.hpp"

#include "rr/validation/builtin.hpp"
#include "rr/validation/defaults.hpp"

namespace rr::cluster_detail {

namespace {

std::vector<FieldError> go_findings(const GroupVersionKind& gvk, const Json& object, const Json* old_object) {
  Json defaulted = object;
  validation::apply_builtin_defaults(gvk.group, gvk.version, gvk.kind, defaulted);
  if (!old_object) {
    return validation::to_core(validation::validate_builtin(gvk.group, gvk.version, gvk.kind, defaulted, nullptr));
  }
  // The node agent's binding of a pod is validated as the pods/binding subresource, not an update.
  Json old_defaulted = validation::pod_binding_base(gvk.group, gvk.kind, object, *old_object).value_or(*old_object);
  validation::apply_builtin_defaults(gvk.group, gvk.version, gvk.kind, old_defaulted);
  return validation::to_core(validation::validate_builtin(gvk.group, gvk.version, gvk.kind, defaulted, &old_defaulted));
}

}  // namespace

Cluster::AdmissionFn typed_admission(const GroupVersionKind& gvk, Cluster::AdmitFn admit) {
  if (!admit) return {};
  if (!validation::find_builtin_validator(gvk.group, gvk.version, gvk.kind)) {
    return [admit = std::move(admit)](const AdmissionRequest& request) {
      AdmissionResponse response;
      if (!request.status) response.errors = admit(request.object);
      return response;
    };
  }
  return [gvk, admit = std::move(admit)](const AdmissionRequest& request) {
    AdmissionResponse response;
    if (request.status) return response;
    (void)admit(request.object);  // its defaults; the Go validation below replaces the schema's findings
    response.errors = go_findings(gvk, request.object, request.old_object);
    return response;
  };
}

}  // namespace rr::cluster_detail
