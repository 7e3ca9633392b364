// rr::ResourceTraits of the built-in kinds: what rrgen read from the `paths` of schemas/*.yaml
// must be what a real API server serves.
#include <doctest/doctest.h>

#include "k8s/apps/v1/deployment.hpp"
#include "k8s/coordination/v1/lease.hpp"
#include "k8s/core/v1/config_map.hpp"
#include "k8s/core/v1/event.hpp"
#include "k8s/core/v1/namespace.hpp"
#include "k8s/core/v1/secret.hpp"
#include "k8s/core/v1/service.hpp"
#include "k8s/core/v1/service_account.hpp"
#include "rr/core/resource_traits.hpp"

namespace {

template <class T>
struct Expected {
  std::string_view group, version, kind, api_version, plural, singular, list_kind;
  rr::Scope scope;
  bool has_status, has_scale;
};

template <class T>
void check(const Expected<T>& e) {
  using Traits = rr::ResourceTraits<T>;
  CAPTURE(e.kind);
  static_assert(rr::Resource<T>);
  CHECK(Traits::group == e.group);
  CHECK(Traits::version == e.version);
  CHECK(Traits::kind == e.kind);
  CHECK(Traits::api_version == e.api_version);
  CHECK(Traits::plural == e.plural);
  CHECK(Traits::singular == e.singular);
  CHECK(Traits::list_kind == e.list_kind);
  CHECK(Traits::scope == e.scope);
  CHECK(Traits::has_status == e.has_status);
  CHECK(Traits::has_scale == e.has_scale);
  CHECK(Traits::served);
  CHECK(Traits::storage);
  // A default-constructed object already carries its apiVersion and kind.
  const T fresh;
  CHECK(fresh.api_version == e.api_version);
  CHECK(fresh.kind == e.kind);
}

using rr::Scope;

}  // namespace

TEST_CASE("ResourceTraits: core/v1 kinds") {
  check<k8s::core::v1::ConfigMap>({"", "v1", "ConfigMap", "v1", "configmaps", "configmap", "ConfigMapList", Scope::Namespaced, false, false});
  check<k8s::core::v1::Secret>({"", "v1", "Secret", "v1", "secrets", "secret", "SecretList", Scope::Namespaced, false, false});
  check<k8s::core::v1::Service>({"", "v1", "Service", "v1", "services", "service", "ServiceList", Scope::Namespaced, true, false});
  check<k8s::core::v1::ServiceAccount>(
      {"", "v1", "ServiceAccount", "v1", "serviceaccounts", "serviceaccount", "ServiceAccountList", Scope::Namespaced, false, false});
  check<k8s::core::v1::Event>({"", "v1", "Event", "v1", "events", "event", "EventList", Scope::Namespaced, false, false});
  check<k8s::core::v1::Namespace>({"", "v1", "Namespace", "v1", "namespaces", "namespace", "NamespaceList", Scope::Cluster, true, false});
}

TEST_CASE("ResourceTraits: apps/v1 Deployment has status and scale subresources") {
  check<k8s::apps::v1::Deployment>(
      {"apps", "v1", "Deployment", "apps/v1", "deployments", "deployment", "DeploymentList", Scope::Namespaced, true, true});
}

TEST_CASE("ResourceTraits: coordination.k8s.io/v1 Lease has no status") {
  check<k8s::coordination::v1::Lease>({"coordination.k8s.io", "v1", "Lease", "coordination.k8s.io/v1", "leases", "lease", "LeaseList",
                                       Scope::Namespaced, false, false});
}
