// The API server's MutatingAdmissionWebhook and ValidatingAdmissionWebhook plugins for the local
// cluster: reads the webhook configurations from the store on each write (compiled once per
// resourceVersion, so a change takes effect at once), picks the webhooks whose rules, selectors
// and matchConditions match, calls them with an AdmissionReview v1 and applies their answers.
//
// Mutating webhooks run in order (configurations by name, webhooks as listed), patches applied in
// turn; a webhook with reinvocationPolicy IfNeeded runs once more when a later one changed the
// object. Validating webhooks run one after another (the API server runs them in parallel; the
// first refusal wins either way). matchPolicy Equivalent is approximated: a rule matches the
// resource in any version of its group, and the object is sent in the version it was written in.
#pragma once
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "rr/cluster/cluster.hpp"
#include "webhook_configuration.hpp"

namespace rr::apiserver_detail {

class AdmissionDispatcher : public AdmissionPlugin {
 public:
  // The plugin runs under the cluster's lock, which it releases only around the HTTP call of a
  // webhook (AdmissionAttributes::unlocked): no locking of its own.
  bool mutates(const StoreReader& store) override;
  void mutate(const AdmissionAttributes& attributes) override;
  void validate(const AdmissionAttributes& attributes) override;

 private:
  struct Compiled {
    std::string resource_version;
    // Shared: a write that waits on a webhook without the lock keeps its webhooks while
    // another write refreshes the cache.
    std::vector<std::shared_ptr<const AdmissionWebhook>> webhooks;
  };
  // The webhooks of every configuration of one kind, in calling order.
  std::vector<std::shared_ptr<const AdmissionWebhook>> webhooks(const StoreReader& store, bool mutating);
  // Whether the webhook applies to this write; throws the API server's Forbidden when a
  // matchCondition fails to evaluate under failurePolicy Fail.
  bool should_call(const AdmissionWebhook& hook, const AdmissionAttributes& attributes) const;
  // One call; returns whether the object changed. Throws rr::ApiError as the API server refuses.
  bool call(const AdmissionWebhook& hook, const AdmissionAttributes& attributes, bool mutating);

  std::map<std::string, Compiled> cache_;  // by "m/" or "v/" + configuration name
  std::uint64_t next_uid_ = 0;
};

}  // namespace rr::apiserver_detail
