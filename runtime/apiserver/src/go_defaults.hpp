// The defaults the API server's Go defaulting functions set on the common built-in kinds
// (k8s.io/kubernetes pkg/apis/<group>/v1 defaults.go), which the OpenAPI documents do not declare:
// a Deployment's strategy, a StatefulSet's updateStrategy (without it `kubectl rollout status`
// refuses the object), a pod's restartPolicy and dnsPolicy, a container's imagePullPolicy, a
// Service's sessionAffinity ... Applied on every write before the schema's defaults and validation;
// a member already set is kept. docs/runtime/19-local-cluster.md lists what is covered.
#pragma once
#include "rr/client/kind.hpp"
#include "rr/core/json.hpp"

namespace rr::apiserver_detail {

void apply_go_defaults(const GroupVersionKind& gvk, Json& object);

}  // namespace rr::apiserver_detail
