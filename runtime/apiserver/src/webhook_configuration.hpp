// admissionregistration.k8s.io/v1 Mutating- and ValidatingWebhookConfigurations as the dispatcher
// uses them (read, defaulted, compiled once per resourceVersion), and their admission: the
// defaults the API server writes and the checks it makes at create and update time.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "rr/cel/program.hpp"
#include "rr/client/label_selector.hpp"
#include "rr/cluster/cluster.hpp"
#include "rr/core/errors.hpp"
#include "webhook_client.hpp"

namespace rr::apiserver_detail {

inline const GroupVersionKind mutating_webhook_configuration_gvk{"admissionregistration.k8s.io", "v1",
                                                                 "MutatingWebhookConfiguration"};
inline const GroupVersionKind validating_webhook_configuration_gvk{"admissionregistration.k8s.io", "v1",
                                                                   "ValidatingWebhookConfiguration"};

struct WebhookRule {
  std::vector<std::string> operations, api_groups, api_versions, resources;
  std::string scope = "*";
};

struct MatchCondition {
  std::string name;
  std::optional<cel::Program> program;  // nullopt: the expression did not compile (refused at create)
};

struct AdmissionWebhook {
  std::string configuration;  // the configuration's name
  std::string name;
  std::string uid;  // configuration/name: tells webhooks apart for reinvocation
  std::vector<WebhookRule> rules;
  Selector namespace_selector, object_selector;
  bool fail_closed = true;   // failurePolicy Fail (the default) or Ignore
  bool exact_match = false;  // matchPolicy Exact; Equivalent (the default) otherwise
  std::vector<MatchCondition> match_conditions;
  int timeout_seconds = 10;
  std::string side_effects;
  bool reinvoke_if_needed = false;
  WebhookClientConfig client;
};

// The webhooks of one configuration, in the order written; std::invalid_argument when it cannot
// be used (admission refuses such a configuration; a seeded one is skipped by the dispatcher).
std::vector<AdmissionWebhook> webhooks_of(const Json& configuration, bool mutating);

// Admission of a configuration: the API server's defaults (failurePolicy Fail, matchPolicy
// Equivalent, empty selectors, timeoutSeconds 10, reinvocationPolicy Never, rule scope "*") and
// the field errors of its validation that are cheap to check here.
std::vector<FieldError> admit_webhook_configuration(Json& configuration, bool mutating);

}  // namespace rr::apiserver_detail
