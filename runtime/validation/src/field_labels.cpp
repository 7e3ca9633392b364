#include "rr/validation/field_labels.hpp"

#include <algorithm>
#include <initializer_list>

#include "rr/core/go_quote.hpp"

namespace rr::validation {

namespace {

struct KindLabels {
  std::string_view group, kind;
  std::initializer_list<std::string_view> labels;  // metadata.* included where the kind accepts them
};

// Kubernetes 1.35's AddFieldLabelConversionFunc registrations.
const KindLabels kKindLabels[] = {
    {"",
     "Pod",
     {"metadata.name", "metadata.namespace", "spec.nodeName", "spec.restartPolicy", "spec.schedulerName",
      "spec.serviceAccountName", "spec.hostNetwork", "status.phase", "status.podIP", "status.podIPs",
      "status.nominatedNodeName", "spec.host"}},
    {"", "Node", {"metadata.name", "spec.unschedulable"}},
    {"", "ReplicationController", {"metadata.name", "metadata.namespace", "status.replicas"}},
    {"",
     "Event",
     {"involvedObject.kind", "involvedObject.namespace", "involvedObject.name", "involvedObject.uid",
      "involvedObject.apiVersion", "involvedObject.resourceVersion", "involvedObject.fieldPath", "reason",
      "reportingComponent", "source", "type", "metadata.namespace", "metadata.name"}},
    {"", "Namespace", {"status.phase", "metadata.name"}},
    {"", "Secret", {"type", "metadata.namespace", "metadata.name"}},
    {"", "Service", {"metadata.namespace", "metadata.name", "spec.clusterIP", "spec.type"}},
    {"apps", "ReplicaSet", {"metadata.name", "metadata.namespace", "status.replicas"}},
    {"batch", "Job", {"metadata.name", "metadata.namespace", "status.successful"}},
    {"certificates.k8s.io", "CertificateSigningRequest", {"metadata.name", "spec.signerName"}},
};

std::string not_supported(std::string_view label) { return "field label not supported: " + std::string(label); }

}  // namespace

std::optional<std::string> builtin_field_label_error(std::string_view group, std::string_view kind,
                                                     std::string_view label) {
  for (const KindLabels& k : kKindLabels) {
    if (k.group != group || k.kind != kind) continue;
    if (std::find(k.labels.begin(), k.labels.end(), label) != k.labels.end()) return std::nullopt;
    return not_supported(label);
  }
  if (label == "metadata.name" || label == "metadata.namespace") return std::nullopt;
  return go_quote(label) + " is not a known field selector: only \"metadata.name\", \"metadata.namespace\"";
}

std::string_view builtin_field_label(std::string_view group, std::string_view kind, std::string_view label) {
  if (group.empty() && kind == "Pod" && label == "spec.host") return "spec.nodeName";
  return label;
}

std::optional<std::string> custom_resource_field_label_error(bool namespaced, std::span<const std::string> selectable,
                                                             std::string_view label) {
  if (label == "metadata.name" || (namespaced && label == "metadata.namespace")) return std::nullopt;
  if (std::find(selectable.begin(), selectable.end(), label) != selectable.end()) return std::nullopt;
  return not_supported(label);
}

}  // namespace rr::validation
