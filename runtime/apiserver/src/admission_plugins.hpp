// The cluster-wide admission the local API server installs, in the API server's order:
// ServiceAccount (rr::kube_controllers), MutatingAdmissionPolicy, the mutating webhooks,
// ValidatingAdmissionPolicy, the validating
// webhooks (rr::admission_policy's plugins, then the webhook dispatcher, in one chain). The policies' `authorizer`
// variable asks the server's authorizer while the server lives (the cluster may outlive it: then checks error).
#pragma once
#include <atomic>
#include <memory>

#include "authorization.hpp"
#include "rr/admission_policy/policy_status.hpp"
#include "rr/cluster/cluster.hpp"

namespace rr::apiserver_detail {

// The server's authorizer: null until the server has one and once it is gone (checks then error).
using AuthorizerCell = std::shared_ptr<std::atomic<const Authorizer*>>;

// `offline`: rrgen validate's cluster, which has no ServiceAccounts (a missing one is assumed).
std::shared_ptr<AdmissionPlugin> admission_plugins(AuthorizerCell authorizer, bool offline = false);

// The chain installed as `cluster`'s admission plugin, as both the API server and the offline
// admission of rrgen-validate do (so they admit alike); the returned cell is empty until the
// caller stores its authorizer, and must be emptied before that authorizer goes.
AuthorizerCell install_admission_plugins(Cluster& cluster, bool offline = false);

// The policies' status writer; nullptr when the cluster does not serve ValidatingAdmissionPolicy.
std::unique_ptr<admission_policy::PolicyStatusWriter> policy_status_writer(std::shared_ptr<Cluster> cluster);

}  // namespace rr::apiserver_detail
