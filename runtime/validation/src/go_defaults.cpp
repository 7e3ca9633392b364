#include "rr/validation/defaults.hpp"

#include <string_view>

namespace rr::validation {

namespace {

// `object[key]` when absent or null, as Go's `if x == nil` / `if x == ""` checks do.
void set_default(Json& object, const char* key, Json value) {
  auto it = object.find(key);
  if (it == object.end() || it->is_null() || (it->is_string() && it->get_ref<const std::string&>().empty())) {
    object[key] = std::move(value);
  }
}

// The object at `key`, created empty when absent (a Go struct value is always there).
Json& member(Json& object, const char* key) {
  Json& m = object[key];
  if (!m.is_object()) m = Json::object();
  return m;
}

Json* object_at(Json& object, std::initializer_list<const char*> path) {
  Json* at = &object;
  for (const char* key : path) {
    auto it = at->find(key);
    if (it == at->end() || !it->is_object()) return nullptr;
    at = &*it;
  }
  return at;
}

// An image without a tag, or tagged latest, is pulled Always; otherwise IfNotPresent.
std::string pull_policy_of(std::string_view image) {
  if (image.find('@') != std::string_view::npos) return "IfNotPresent";
  const auto slash = image.rfind('/');
  const auto colon = image.rfind(':');
  const bool tagged = colon != std::string_view::npos && (slash == std::string_view::npos || colon > slash);
  return !tagged || image.substr(colon + 1) == "latest" ? "Always" : "IfNotPresent";
}

void container_defaults(Json& container) {
  if (!container.is_object()) return;
  set_default(container, "terminationMessagePath", "/dev/termination-log");
  set_default(container, "terminationMessagePolicy", "File");
  if (auto image = container.find("image"); image != container.end() && image->is_string()) {
    set_default(container, "imagePullPolicy", pull_policy_of(image->get<std::string>()));
  }
}

void pod_spec_defaults(Json* spec) {
  if (!spec) return;
  set_default(*spec, "restartPolicy", "Always");
  set_default(*spec, "dnsPolicy", "ClusterFirst");
  set_default(*spec, "schedulerName", "default-scheduler");
  set_default(*spec, "terminationGracePeriodSeconds", 30);
  set_default(*spec, "enableServiceLinks", true);
  member(*spec, "securityContext");
  for (const char* list : {"initContainers", "containers"}) {
    if (auto it = spec->find(list); it != spec->end() && it->is_array()) {
      for (Json& container : *it) container_defaults(container);
    }
  }
}

void rolling_update(Json& spec, const char* strategy_key, Json rolling) {
  Json& strategy = member(spec, strategy_key);
  set_default(strategy, "type", "RollingUpdate");
  if (strategy["type"] == "RollingUpdate") {
    Json& update = member(strategy, "rollingUpdate");
    for (auto& [key, value] : rolling.items()) set_default(update, key.c_str(), value);
  }
}

void deployment_defaults(Json& spec) {
  set_default(spec, "replicas", 1);
  rolling_update(spec, "strategy", {{"maxUnavailable", "25%"}, {"maxSurge", "25%"}});
  set_default(spec, "revisionHistoryLimit", 10);
  set_default(spec, "progressDeadlineSeconds", 600);
}

void stateful_set_defaults(Json& spec) {
  set_default(spec, "replicas", 1);
  set_default(spec, "podManagementPolicy", "OrderedReady");
  rolling_update(spec, "updateStrategy", {{"partition", 0}});
  Json& retention = member(spec, "persistentVolumeClaimRetentionPolicy");
  set_default(retention, "whenDeleted", "Retain");
  set_default(retention, "whenScaled", "Retain");
  set_default(spec, "revisionHistoryLimit", 10);
}

void job_defaults(Json& spec) {
  const bool neither = !spec.contains("completions") && !spec.contains("parallelism");
  if (neither) spec["completions"] = 1;
  set_default(spec, "parallelism", 1);
  set_default(spec, "backoffLimit", 6);
  set_default(spec, "completionMode", "NonIndexed");
  set_default(spec, "suspend", false);
}

// The Job strategy's generateSelector on create (not a Go default, but kubectl's `logs job/`,
// `describe` and the job controller rely on it): unless spec.manualSelector, the pods are selected
// by the job's uid, and the template carries the labels that match.
void job_selector(Json& job, Json& spec) {
  const Json uid = job.value("/metadata/uid"_json_pointer, Json());
  if (!uid.is_string() || spec.value("manualSelector", false) || spec.contains("selector")) return;
  if (!spec.contains("template") || !spec["template"].is_object()) return;
  Json& labels = member(member(spec["template"], "metadata"), "labels");
  const Json name = job.value("/metadata/name"_json_pointer, Json(""));
  labels["batch.kubernetes.io/controller-uid"] = uid;
  labels["batch.kubernetes.io/job-name"] = name;
  labels["controller-uid"] = uid;
  labels["job-name"] = name;
  spec["selector"] = {{"matchLabels", {{"batch.kubernetes.io/controller-uid", uid}}}};
}

void service_defaults(Json& spec) {
  set_default(spec, "type", "ClusterIP");
  set_default(spec, "sessionAffinity", "None");
  const Json type = spec["type"];
  if (type != "ExternalName") set_default(spec, "internalTrafficPolicy", "Cluster");
  const bool external_ips = spec.contains("externalIPs") && spec["externalIPs"].is_array() && !spec["externalIPs"].empty();
  if (type == "NodePort" || type == "LoadBalancer" || (type == "ClusterIP" && external_ips)) {
    set_default(spec, "externalTrafficPolicy", "Cluster");
  }
  if (type == "LoadBalancer") set_default(spec, "allocateLoadBalancerNodePorts", true);
  if (spec["sessionAffinity"] == "ClientIP") {
    Json& client_ip = member(member(spec, "sessionAffinityConfig"), "clientIP");
    set_default(client_ip, "timeoutSeconds", 10800);
  }
  if (auto ports = spec.find("ports"); ports != spec.end() && ports->is_array()) {
    for (Json& port : *ports) {
      if (!port.is_object() || !port.contains("port")) continue;
      set_default(port, "protocol", "TCP");
      // An unset, zero or empty targetPort is the port (SetDefaults_Service).
      const auto target = port.find("targetPort");
      if (target == port.end() || *target == 0 || *target == "") port["targetPort"] = port["port"];
    }
  }
}

// rbac/v1 SetDefaults_Subject and the bindings' roleRef: the API group the kind implies.
void binding_defaults(Json& binding) {
  if (binding.contains("roleRef") && binding["roleRef"].is_object()) {
    Json& ref = binding["roleRef"];
    if (ref.value("apiGroup", std::string()).empty()) ref["apiGroup"] = "rbac.authorization.k8s.io";
  }
  if (!binding.contains("subjects") || !binding["subjects"].is_array()) return;
  for (Json& subject : binding["subjects"]) {
    if (!subject.is_object() || subject.contains("apiGroup")) continue;
    const std::string kind = subject.value("kind", std::string());
    if (kind == "ServiceAccount") subject["apiGroup"] = "";
    else if (kind == "User" || kind == "Group") subject["apiGroup"] = "rbac.authorization.k8s.io";
  }
}

}  // namespace

void apply_builtin_defaults(std::string_view g, std::string_view version, std::string_view k, Json& object) {
  if (!object.is_object()) return;
  if (version != "v1") return;
  Json* spec = object_at(object, {"spec"});
  if (g.empty()) {
    if (k == "Pod") pod_spec_defaults(spec);
    else if (k == "ReplicationController" && spec) {
      set_default(*spec, "replicas", 1);
      pod_spec_defaults(object_at(*spec, {"template", "spec"}));
    } else if (k == "PodTemplate") pod_spec_defaults(object_at(object, {"template", "spec"}));
    else if (k == "Service" && spec) {
      service_defaults(*spec);
      // ServiceStatus.LoadBalancer is a struct, never omitted: a new Service reads {"loadBalancer": {}}.
      if (!object.contains("status") || !object["status"].is_object()) object["status"] = Json::object();
      if (!object["status"].contains("loadBalancer")) object["status"]["loadBalancer"] = Json::object();
    } else if (k == "Secret") set_default(object, "type", "Opaque");
    else if (k == "PersistentVolumeClaim" && spec) set_default(*spec, "volumeMode", "Filesystem");
    else if (k == "PersistentVolume" && spec) {
      set_default(*spec, "persistentVolumeReclaimPolicy", "Retain");
      set_default(*spec, "volumeMode", "Filesystem");
    }
    return;
  }
  if (g == "rbac.authorization.k8s.io" && (k == "RoleBinding" || k == "ClusterRoleBinding")) {
    binding_defaults(object);
    return;
  }
  if (!spec) return;
  if (g == "apps") {
    if (k == "Deployment") deployment_defaults(*spec);
    else if (k == "StatefulSet") stateful_set_defaults(*spec);
    else if (k == "ReplicaSet") set_default(*spec, "replicas", 1);
    else if (k == "DaemonSet") {
      rolling_update(*spec, "updateStrategy", {{"maxUnavailable", 1}, {"maxSurge", 0}});
      set_default(*spec, "revisionHistoryLimit", 10);
    } else {
      return;
    }
    pod_spec_defaults(object_at(*spec, {"template", "spec"}));
  } else if (g == "batch") {
    if (k == "Job") {
      job_defaults(*spec);
      job_selector(object, *spec);
      pod_spec_defaults(object_at(*spec, {"template", "spec"}));
    } else if (k == "CronJob") {
      set_default(*spec, "concurrencyPolicy", "Allow");
      set_default(*spec, "suspend", false);
      set_default(*spec, "successfulJobsHistoryLimit", 3);
      set_default(*spec, "failedJobsHistoryLimit", 1);
      // The template is a JobSpec, not a Job: only its pod spec is defaulted (Go's generated
      // defaulters recurse into every PodSpec).
      pod_spec_defaults(object_at(*spec, {"jobTemplate", "spec", "template", "spec"}));
    }
  }
}

}  // namespace rr::validation
