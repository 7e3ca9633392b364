// Several cluster-wide admission plugins behind rr::Cluster's one plugin point, run in the API
// server's order: every plugin's mutation in list order, then every plugin's validation in list
// order (MutatingAdmissionPolicy, MutatingAdmissionWebhook, ..., ValidatingAdmissionPolicy,
// ValidatingAdmissionWebhook: give the policy plugin before the webhook dispatcher).
#pragma once
#include <memory>
#include <vector>

#include "rr/cluster/cluster.hpp"

namespace rr::admission_policy {

class AdmissionChain : public AdmissionPlugin {
 public:
  explicit AdmissionChain(std::vector<std::shared_ptr<AdmissionPlugin>> plugins);
  bool mutates(const StoreReader& store) override;
  bool mutates_kind(const StoreReader& store, const GroupVersionKind& gvk) override;
  void mutate(const AdmissionAttributes& attributes) override;
  void validate(const AdmissionAttributes& attributes) override;

 private:
  std::vector<std::shared_ptr<AdmissionPlugin>> plugins_;
};

}  // namespace rr::admission_policy
