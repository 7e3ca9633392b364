// The defaults the API server's Go defaulting functions set on the common built-in kinds
// (k8s.io/kubernetes pkg/apis/<group>/v1 defaults.go, and a created Job's generated selector),
// which the OpenAPI documents do not declare: a Deployment's strategy, a StatefulSet's
// updateStrategy, a pod's restartPolicy and dnsPolicy, a container's imagePullPolicy, a Service's
// sessionAffinity and port protocol ... The kinds' validation (builtin.hpp) expects them applied.
// A member already set is kept. docs/runtime/19-local-cluster.md lists what is covered.
#pragma once
#include <string_view>

#include "rr/core/json.hpp"

namespace rr::validation {

void apply_builtin_defaults(std::string_view group, std::string_view version, std::string_view kind, Json& object);

}  // namespace rr::validation
