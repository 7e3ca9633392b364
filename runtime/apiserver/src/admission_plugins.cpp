#include "admission_plugins.hpp"

#include "admission_dispatcher.hpp"
#include "policy_schemas.hpp"
#include "rr/admission_policy/admission_chain.hpp"
#include "rr/admission_policy/mutating_policy.hpp"
#include "rr/admission_policy/validating_policy.hpp"
#include "rr/kube_controllers/service_account_admission.hpp"

namespace rr::apiserver_detail {

namespace {

// The attributes of one check of the `authorizer` variable, as the RBAC authorizer reads them.
RequestAttributes attributes_of(const RequestUser* user, const cel::AuthzAttributes& a) {
  RequestAttributes r;
  if (!a.user.empty()) {
    // serviceAccount(ns, name): the account's user and its two groups (serviceaccount.UserInfo).
    r.user.name = a.user;
    const std::string prefix = "system:serviceaccount:";
    const std::string rest = a.user.substr(prefix.size());
    r.user.groups = {"system:serviceaccounts", "system:serviceaccounts:" + rest.substr(0, rest.find(':'))};
  } else if (user) {
    r.user = UserInfo{user->name, user->groups, user->uid, user->extra};
  }
  r.verb = a.verb;
  r.resource_request = a.resource_request;
  r.group = a.group;
  r.resource = a.resource;
  r.subresource = a.subresource;
  r.namespace_ = a.namespace_;
  r.name = a.name;
  r.path = a.path;
  return r;
}

}  // namespace

std::shared_ptr<AdmissionPlugin> admission_plugins(AuthorizerCell cell, bool offline) {
  admission_policy::PolicyOptions options;
  options.authorize = [cell](const RequestUser* user, const cel::AuthzAttributes& a) {
    const Authorizer* authorizer = cell->load();
    if (!authorizer) return cel::AuthzDecision{.allowed = false, .reason = "", .error = "no authorizer"};
    const Decision d = authorizer->authorize(attributes_of(user, a));
    return cel::AuthzDecision{.allowed = d.allowed, .reason = d.reason, .error = ""};
  };
  return std::make_shared<admission_policy::AdmissionChain>(std::vector<std::shared_ptr<AdmissionPlugin>>{
      std::make_shared<kube_controllers::ServiceAccountAdmission>(std::function<std::string()>(), offline),
      std::make_shared<admission_policy::MutatingPolicyPlugin>(options),
      std::make_shared<admission_policy::ValidatingPolicyPlugin>(std::move(options)),
      std::make_shared<AdmissionDispatcher>()});
}

AuthorizerCell install_admission_plugins(Cluster& cluster, bool offline) {
  auto cell = std::make_shared<std::atomic<const Authorizer*>>(nullptr);
  cluster.set_admission_plugin(admission_plugins(cell, offline));
  return cell;
}

std::unique_ptr<admission_policy::PolicyStatusWriter> policy_status_writer(std::shared_ptr<Cluster> cluster) {
  if (!cluster->find_kind(admission_policy::validating_policy_gvk)) return nullptr;
  auto resolver = policy_schema_resolver(cluster);
  return std::make_unique<admission_policy::PolicyStatusWriter>(std::move(cluster), std::move(resolver));
}

}  // namespace rr::apiserver_detail
