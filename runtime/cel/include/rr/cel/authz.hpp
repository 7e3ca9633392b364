// Kubernetes' CEL authorizer library (k8s.io/apiserver/pkg/cel/library/authz.go), the
// `authorizer` variable of admission policies and matchConditions:
//
//   authorizer.group('apps').resource('deployments').namespace('ns').name('x').check('create').allowed()
//   authorizer.path('/healthz').check('get').reason()
//   authorizer.serviceAccount('ns', 'sa').group('')...     (checks made for that service account)
//
// The library only builds the attributes; the caller's AuthorizeFn decides. Values of these
// types are opaque to JSON.
#pragma once
#include <functional>
#include <memory>
#include <string>

#include "rr/cel/value.hpp"

namespace rr::cel {

// One check the expression asks for. `user` is the request's user, or
// system:serviceaccount:<ns>:<name> after serviceAccount().
struct AuthzAttributes {
  std::string user;              // empty: the request's user
  bool resource_request = true;  // false for path()
  std::string group, resource, subresource, namespace_, name, verb, path;
};

struct AuthzDecision {
  bool allowed = false;
  std::string reason;
  std::string error;  // non-empty: the authorizer failed (errored() is true)
};

using AuthorizeFn = std::function<AuthzDecision(const AuthzAttributes&)>;

// The value of the `authorizer` variable.
Value authorizer_value(AuthorizeFn authorize);
// The value of `authorizer.requestResource`: a resource check of the request's own resource.
Value request_resource_check(AuthorizeFn authorize, AuthzAttributes request);

}  // namespace rr::cel
