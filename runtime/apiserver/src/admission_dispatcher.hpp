// The API server's MutatingAdmissionWebhook and ValidatingAdmissionWebhook plugins for the local
// cluster: reads the webhook configurations from the store on each write (compiled once per
// resourceVersion, so a change takes effect at once), picks the webhooks whose rules, selectors
// and matchConditions match, calls them with an AdmissionReview v1 and applies their answers.
//
// Mutating webhooks run in order (configurations by name, webhooks as listed), patches applied in
// turn; a webhook with reinvocationPolicy IfNeeded runs once more when a later one changed the
// object. Validating webhooks run one after another (the API server runs them in parallel; the
// first refusal wins either way). Rules match the version the request named; with matchPolicy
// Equivalent a custom resource is converted to a version the rule names (and a patch back), a
// built-in kind is sent in its own version (approximated: no conversion between built-in
// versions).
#pragma once
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "crd_conversion.hpp"
#include "rr/cluster/cluster.hpp"
#include "webhook_configuration.hpp"

namespace rr::apiserver_detail {

// Calls the front end makes for itself on this thread while the scope lives (the dry run that
// shows RBAC's checks what a patch would store) are not requests: no webhook is called for them.
class WebhooksOffScope {
 public:
  WebhooksOffScope();
  ~WebhooksOffScope();
  WebhooksOffScope(const WebhooksOffScope&) = delete;
  WebhooksOffScope& operator=(const WebhooksOffScope&) = delete;
  static bool active();

 private:
  bool previous_;
};

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
  // What a write's webhooks are matched against: the stored version, the version the request
  // named (another one when the conversion handler wrote in the storage version), and for a
  // custom resource its CRD and served versions.
  struct Target {
    std::string version, requested;
    std::optional<Json> crd;  // a copy: the lock is released between webhooks
    std::vector<std::string> served;
  };
  // The object and old object in the version a webhook is called with.
  struct Versioned {
    std::string version;
    Json object, old_object;
  };
  Target target_of(const AdmissionAttributes& attributes) const;
  // The version the webhook is called with: the request's when a rule names it, otherwise (matchPolicy
  // Equivalent) one a matching rule names and the CRD serves; nullopt when no rule matches.
  std::optional<std::string> call_version(const AdmissionWebhook& hook, const AdmissionAttributes& attributes,
                                          const Target& target) const;
  Versioned versioned(const AdmissionAttributes& attributes, const Target& target, const std::string& version) const;
  std::vector<Json> convert(const CrdConversion& conversion, std::vector<Json> objects,
                            const AdmissionAttributes& attributes, const std::string& api_version) const;
  bool selected(const AdmissionWebhook& hook, const AdmissionAttributes& attributes) const;
  // matchConditions; throws the API server's Forbidden when one fails to evaluate under
  // failurePolicy Fail.
  bool conditions_match(const AdmissionWebhook& hook, const AdmissionAttributes& attributes, const Target& target,
                        const Versioned& versioned) const;
  // Matches and calls: nullopt when the webhook does not apply, else whether it changed the object.
  std::optional<bool> invoke(const AdmissionWebhook& hook, const AdmissionAttributes& attributes, const Target& target,
                             bool mutating);
  // One call; returns whether the object changed. Throws rr::ApiError as the API server refuses.
  bool call(const AdmissionWebhook& hook, const AdmissionAttributes& attributes, const Target& target,
            const Versioned& versioned, bool mutating);

  std::map<std::string, Compiled> cache_;  // by "m/" or "v/" + configuration name
  std::uint64_t next_uid_ = 0;
};

}  // namespace rr::apiserver_detail
