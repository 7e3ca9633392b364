// The patch metadata of Kubernetes built-in kinds: the x-kubernetes-patch-strategy /
// x-kubernetes-patch-merge-key of their OpenAPI schemas (= the Go struct tags patchStrategy /
// patchMergeKey). Fields not listed have no tag: their lists are replaced whole (tolerations,
// args, command, envFrom, RBAC rules and subjects...). retainKeys strategies (Deployment
// spec.strategy, volumes) are left out: they only shape the patches a client creates; the
// $retainKeys directive is honoured wherever a patch carries it.
#include <string>
#include <string_view>

#include "rr/client/strategic_merge.hpp"

namespace rr {
namespace {

FieldPatch set_of_primitives() { return FieldPatch{PatchStrategy::Merge, ""}; }

FieldPatch keyed(std::string key) { return FieldPatch{PatchStrategy::Merge, std::move(key)}; }

std::string join(std::string_view prefix, std::string_view name) {
  std::string path(prefix);
  if (!path.empty()) path += '.';
  path += name;
  return path;
}

// Declares fields of one kind under a path prefix; the helpers below mirror the Go types.
class KindTree {
 public:
  KindTree(StrategicSchema& schema, std::string_view group, std::string_view kind)
      : schema_(schema), group_(group), kind_(kind) {}

  void field(std::string_view prefix, std::string_view name, FieldPatch patch) {
    schema_.add(group_, kind_, join(prefix, name), std::move(patch));
  }

  void object_meta(std::string_view prefix) {
    field(prefix, "finalizers", set_of_primitives());
    field(prefix, "ownerReferences", keyed("uid"));
  }

  void conditions(std::string_view status_prefix) { field(status_prefix, "conditions", keyed("type")); }

  void container(std::string_view prefix) {
    field(prefix, "ports", keyed("containerPort"));
    field(prefix, "env", keyed("name"));
    field(prefix, "volumeMounts", keyed("mountPath"));
    field(prefix, "volumeDevices", keyed("devicePath"));
  }

  void pod_spec(std::string_view prefix) {
    for (const char* list : {"containers", "initContainers", "ephemeralContainers"}) {
      field(prefix, list, keyed("name"));
      container(join(prefix, list));
    }
    field(prefix, "volumes", keyed("name"));
    field(prefix, "imagePullSecrets", keyed("name"));
    field(prefix, "hostAliases", keyed("ip"));
    field(prefix, "topologySpreadConstraints", keyed("topologyKey"));
    field(prefix, "schedulingGates", keyed("name"));
    field(prefix, "resourceClaims", keyed("name"));
  }

  void pod_template(std::string_view prefix) {
    object_meta(join(prefix, "metadata"));
    pod_spec(join(prefix, "spec"));
  }

 private:
  StrategicSchema& schema_;
  std::string group_;
  std::string kind_;
};

void add_core(StrategicSchema& s) {
  for (const char* kind : {"ConfigMap", "Secret", "Endpoints", "Event", "LimitRange", "ResourceQuota",
                           "PersistentVolume"}) {
    KindTree(s, "", kind).object_meta("metadata");
  }
  KindTree pod(s, "", "Pod");
  pod.object_meta("metadata");
  pod.pod_spec("spec");
  pod.conditions("status");
  pod.field("status", "podIPs", keyed("ip"));
  pod.field("status", "hostIPs", keyed("ip"));

  KindTree pod_template(s, "", "PodTemplate");
  pod_template.object_meta("metadata");
  pod_template.pod_template("template");

  KindTree rc(s, "", "ReplicationController");
  rc.object_meta("metadata");
  rc.pod_template("spec.template");
  rc.conditions("status");

  KindTree service(s, "", "Service");
  service.object_meta("metadata");
  service.field("spec", "ports", keyed("port"));
  service.conditions("status");

  KindTree namespace_(s, "", "Namespace");
  namespace_.object_meta("metadata");
  namespace_.conditions("status");

  KindTree service_account(s, "", "ServiceAccount");
  service_account.object_meta("metadata");
  service_account.field("", "secrets", keyed("name"));

  KindTree node(s, "", "Node");
  node.object_meta("metadata");
  node.field("spec", "podCIDRs", set_of_primitives());
  node.field("status", "addresses", keyed("type"));
  node.conditions("status");

  KindTree pvc(s, "", "PersistentVolumeClaim");
  pvc.object_meta("metadata");
  pvc.conditions("status");
}

void add_apps(StrategicSchema& s) {
  for (const char* kind : {"Deployment", "ReplicaSet", "DaemonSet", "StatefulSet"}) {
    KindTree workload(s, "apps", kind);
    workload.object_meta("metadata");
    workload.pod_template("spec.template");
    workload.conditions("status");
  }
  KindTree stateful_set(s, "apps", "StatefulSet");
  stateful_set.object_meta("spec.volumeClaimTemplates.metadata");
  stateful_set.conditions("spec.volumeClaimTemplates.status");
  KindTree(s, "apps", "ControllerRevision").object_meta("metadata");
}

void add_batch(StrategicSchema& s) {
  KindTree job(s, "batch", "Job");
  job.object_meta("metadata");
  job.pod_template("spec.template");
  job.conditions("status");

  KindTree cron_job(s, "batch", "CronJob");
  cron_job.object_meta("metadata");
  cron_job.object_meta("spec.jobTemplate.metadata");
  cron_job.pod_template("spec.jobTemplate.spec.template");
}

void add_others(StrategicSchema& s) {
  for (const char* kind : {"Role", "ClusterRole", "RoleBinding", "ClusterRoleBinding"}) {
    KindTree(s, "rbac.authorization.k8s.io", kind).object_meta("metadata");
  }
  KindTree(s, "coordination.k8s.io", "Lease").object_meta("metadata");
  KindTree(s, "discovery.k8s.io", "EndpointSlice").object_meta("metadata");
  for (const char* kind : {"ValidatingWebhookConfiguration", "MutatingWebhookConfiguration"}) {
    KindTree webhooks(s, "admissionregistration.k8s.io", kind);
    webhooks.object_meta("metadata");
    webhooks.field("", "webhooks", keyed("name"));
  }
}

StrategicSchema make_builtin() {
  StrategicSchema s;
  add_core(s);
  add_apps(s);
  add_batch(s);
  add_others(s);
  s.add_fallback("metadata.finalizers", set_of_primitives());
  s.add_fallback("metadata.ownerReferences", keyed("uid"));
  return s;
}

}  // namespace

const StrategicSchema& builtin_strategic_schema() {
  static const StrategicSchema schema = make_builtin();
  return schema;
}

}  // namespace rr
