// rr::kube_controllers::ServiceAccountAdmission: the API server's ServiceAccount admission plugin
// (plugin/pkg/admission/serviceaccount), the half of the ServiceAccount machinery that lives in the
// API server beside NamespaceDefaults' `default` accounts. On a Pod create (not a mirror pod) it
// defaults spec.serviceAccountName to `default`, refuses the pod (403) when that ServiceAccount
// does not exist, copies the account's imagePullSecrets when the pod has none, and, unless
// automountServiceAccountToken is false (the pod's, else the account's), adds the projected
// `kube-api-access-xxxxx` volume and mounts it read-only at
// /var/run/secrets/kubernetes.io/serviceaccount in every container and init container that has
// nothing mounted there. Validation repeats the lookup and, for an account annotated
// kubernetes.io/enforce-mountable-secrets=true, refuses secrets the account does not list.
// See docs/runtime/19-local-cluster.md#admission-plugins.
#pragma once
#include <functional>
#include <string>

#include "rr/cluster/cluster.hpp"

namespace rr::kube_controllers {

class ServiceAccountAdmission : public AdmissionPlugin {
 public:
  // `suffix`: the 5 characters after "kube-api-access-" (random when empty; tests pass their own).
  // `assume_missing_accounts`: an account that is not stored is taken as an empty one instead of a
  // 403 (rrgen validate: offline there are no accounts, as there are no namespaces).
  explicit ServiceAccountAdmission(std::function<std::string()> suffix = {}, bool assume_missing_accounts = false);
  bool mutates(const StoreReader& store) override;
  bool mutates_kind(const StoreReader& store, const GroupVersionKind& gvk) override;
  void mutate(const AdmissionAttributes& attributes) override;
  void validate(const AdmissionAttributes& attributes) override;

 private:
  std::function<std::string()> suffix_;
  bool assume_missing_accounts_ = false;
};

}  // namespace rr::kube_controllers
