// The name rule of each stored built-in resource of Kubernetes 1.35, as its group's validation
// (k8s.io/kubernetes pkg/apis/<group>/validation) passes it to ValidateObjectMeta. The sources read
// for each row are listed in docs/runtime/35-validation.md.
#include "rr/validation/resource_rules.hpp"

#include <algorithm>
#include <array>

#include "rr/validation/object_meta.hpp"

namespace rr::validation {
namespace {

// {name rule, strategy validates metadata, built-in finalizer names, kind-specific name rule}
constexpr MetadataRules kSubdomain{NameRule::DNSSubdomain, true, true, false};
constexpr MetadataRules kLabel{NameRule::DNSLabel, true, true, false};
constexpr MetadataRules kDNS1035{NameRule::DNS1035Label, true, true, false};
constexpr MetadataRules kPathSegment{NameRule::PathSegment, true, true, false};
constexpr MetadataRules kUnconstrained{NameRule::Unconstrained, true, true, false};
// The strategy validates no ObjectMeta: only rest.BeforeCreate's generic path-segment check.
constexpr MetadataRules kGenericOnly{NameRule::PathSegment, false, false, false};
// A name rule of the kind's own that is not applied yet; the generic subdomain rule stands in.
constexpr MetadataRules kSubdomainAndMore{NameRule::DNSSubdomain, true, true, true};
constexpr MetadataRules kPathSegmentAndMore{NameRule::PathSegment, true, true, true};

constexpr std::array kTable = {
    // core
    NameTableEntry{"", "configmaps", kSubdomain},
    NameTableEntry{"", "endpoints", kSubdomain},
    NameTableEntry{"", "events", kGenericOnly},  // core/v1 Events keep the legacy checks only
    NameTableEntry{"", "limitranges", kSubdomain},
    NameTableEntry{"", "namespaces", kLabel},
    NameTableEntry{"", "nodes", kSubdomain},
    NameTableEntry{"", "persistentvolumeclaims", kSubdomain},
    NameTableEntry{"", "persistentvolumes", kSubdomain},
    NameTableEntry{"", "pods", kSubdomain},
    NameTableEntry{"", "podtemplates", kSubdomain},
    NameTableEntry{"", "replicationcontrollers", kSubdomain},
    NameTableEntry{"", "resourcequotas", kSubdomain},
    NameTableEntry{"", "secrets", kSubdomain},
    NameTableEntry{"", "serviceaccounts", kSubdomain},
    NameTableEntry{"", "services", kDNS1035},
    // admissionregistration.k8s.io
    NameTableEntry{"admissionregistration.k8s.io", "mutatingadmissionpolicies", kSubdomain},
    NameTableEntry{"admissionregistration.k8s.io", "mutatingadmissionpolicybindings", kSubdomain},
    NameTableEntry{"admissionregistration.k8s.io", "mutatingwebhookconfigurations", kSubdomain},
    NameTableEntry{"admissionregistration.k8s.io", "validatingadmissionpolicies", kSubdomain},
    NameTableEntry{"admissionregistration.k8s.io", "validatingadmissionpolicybindings", kSubdomain},
    NameTableEntry{"admissionregistration.k8s.io", "validatingwebhookconfigurations", kSubdomain},
    // apiextensions.k8s.io: the name must also be <plural>.<group>
    NameTableEntry{"apiextensions.k8s.io", "customresourcedefinitions", kSubdomainAndMore},
    // apiregistration.k8s.io: the name must be <version>.<group>
    NameTableEntry{"apiregistration.k8s.io", "apiservices", kPathSegmentAndMore},
    // apps
    NameTableEntry{"apps", "controllerrevisions", kSubdomain},
    NameTableEntry{"apps", "daemonsets", kSubdomain},
    NameTableEntry{"apps", "deployments", kSubdomain},
    NameTableEntry{"apps", "replicasets", kSubdomain},
    NameTableEntry{"apps", "statefulsets", kSubdomain},
    // autoscaling
    NameTableEntry{"autoscaling", "horizontalpodautoscalers", kSubdomain},
    // batch: a CronJob's name is also limited to 52 characters
    NameTableEntry{"batch", "cronjobs", kSubdomainAndMore},
    NameTableEntry{"batch", "jobs", kSubdomain},
    // certificates.k8s.io
    NameTableEntry{"certificates.k8s.io", "certificatesigningrequests", kUnconstrained},
    NameTableEntry{"certificates.k8s.io", "clustertrustbundles", kPathSegmentAndMore},  // signer-prefixed names
    // coordination.k8s.io
    NameTableEntry{"coordination.k8s.io", "leasecandidates", kSubdomain},
    NameTableEntry{"coordination.k8s.io", "leases", kSubdomain},
    // discovery.k8s.io
    NameTableEntry{"discovery.k8s.io", "endpointslices", kSubdomain},
    // events.k8s.io: the strict validation of Events created through this group
    NameTableEntry{"events.k8s.io", "events", kSubdomain},
    // flowcontrol.apiserver.k8s.io
    NameTableEntry{"flowcontrol.apiserver.k8s.io", "flowschemas", kSubdomain},
    NameTableEntry{"flowcontrol.apiserver.k8s.io", "prioritylevelconfigurations", kSubdomain},
    // networking.k8s.io
    NameTableEntry{"networking.k8s.io", "ingressclasses", kSubdomain},
    NameTableEntry{"networking.k8s.io", "ingresses", kSubdomain},
    NameTableEntry{"networking.k8s.io", "ipaddresses", kPathSegmentAndMore},  // named by the canonical address
    NameTableEntry{"networking.k8s.io", "networkpolicies", kSubdomain},
    NameTableEntry{"networking.k8s.io", "servicecidrs", kSubdomain},
    // node.k8s.io
    NameTableEntry{"node.k8s.io", "runtimeclasses", kSubdomain},
    // policy
    NameTableEntry{"policy", "poddisruptionbudgets", kGenericOnly},
    // rbac.authorization.k8s.io: ValidateRBACName is path.IsValidPathSegmentName
    NameTableEntry{"rbac.authorization.k8s.io", "clusterrolebindings", kPathSegment},
    NameTableEntry{"rbac.authorization.k8s.io", "clusterroles", kPathSegment},
    NameTableEntry{"rbac.authorization.k8s.io", "rolebindings", kPathSegment},
    NameTableEntry{"rbac.authorization.k8s.io", "roles", kPathSegment},
    // resource.k8s.io
    NameTableEntry{"resource.k8s.io", "deviceclasses", kSubdomain},
    NameTableEntry{"resource.k8s.io", "resourceclaims", kSubdomain},
    NameTableEntry{"resource.k8s.io", "resourceclaimtemplates", kSubdomain},
    NameTableEntry{"resource.k8s.io", "resourceslices", kSubdomain},
    // scheduling.k8s.io: a "system-" PriorityClass must also be a known one
    NameTableEntry{"scheduling.k8s.io", "priorityclasses", kSubdomainAndMore},
    // storage.k8s.io
    NameTableEntry{"storage.k8s.io", "csidrivers", kSubdomainAndMore},  // also at most 63 characters
    NameTableEntry{"storage.k8s.io", "csinodes", kSubdomain},
    NameTableEntry{"storage.k8s.io", "csistoragecapacities", kSubdomain},
    NameTableEntry{"storage.k8s.io", "storageclasses", kSubdomain},
    NameTableEntry{"storage.k8s.io", "volumeattachments", kSubdomain},
    NameTableEntry{"storage.k8s.io", "volumeattributesclasses", kSubdomain},
};

void append_new(ErrorList& to, ErrorList more) {
  for (FieldError& e : more) {
    if (std::find(to.begin(), to.end(), e) == to.end()) to.push_back(std::move(e));
  }
}

const Json& finalizers_of(const Json& metadata) {
  static const Json kNull;
  if (!metadata.is_object()) return kNull;
  const auto it = metadata.find("finalizers");
  return it == metadata.end() ? kNull : *it;
}

}  // namespace

std::span<const NameTableEntry> builtin_name_table() { return kTable; }

std::optional<MetadataRules> builtin_metadata_rules(std::string_view group, std::string_view resource) {
  for (const NameTableEntry& e : kTable) {
    if (e.group == group && e.resource == resource) return e.rules;
  }
  return std::nullopt;
}

MetadataRules custom_resource_metadata_rules() { return MetadataRules{NameRule::DNSSubdomain, true, false, false}; }

ErrorList validate_create_metadata(const Json& metadata, bool namespaced, const MetadataRules& rules) {
  if (rules.strategy_validates_metadata) {
    ErrorList errs = validate_object_meta(metadata, namespaced, rules.name);
    if (rules.kube_finalizer_names)
      append_new(errs, validate_kube_finalizer_names(finalizers_of(metadata), "metadata.finalizers"));
    if (!errs.empty()) return errs;
  }
  return validate_object_meta(metadata, namespaced, NameRule::PathSegment);
}

ErrorList validate_update_metadata(const Json& new_metadata, const Json& old_metadata, bool namespaced,
                                   const MetadataRules& rules) {
  ErrorList errs = validate_object_meta(new_metadata, namespaced, NameRule::PathSegment);
  append_new(errs, validate_object_meta_update(new_metadata, old_metadata));
  if (rules.kube_finalizer_names)
    append_new(errs, validate_kube_finalizer_names(finalizers_of(new_metadata), "metadata.finalizers"));
  return errs;
}

}  // namespace rr::validation
