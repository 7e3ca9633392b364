// The CEL types the API server declares for the admission variables it builds by hand
// (plugin/cel's BuildRequestType and BuildNamespaceType): `request` and `namespaceObject`.
#pragma once
#include "rr/cel/types.hpp"

namespace rr::admission_policy::detail {

// kubernetes.AdmissionRequest: kind, resource, subResource, requestKind/Resource/SubResource,
// name, namespace, operation, userInfo, dryRun, options (dyn).
cel::CelType request_type();
// kubernetes.Namespace: its metadata without managedFields and ownerReferences (and `UID` spelt
// so, as upstream declares it), spec.finalizers, status.
cel::CelType namespace_type();

}  // namespace rr::admission_policy::detail
