// The built-in kinds' Table columns and cells against what a Kubernetes 1.35 API server prints.
#include <doctest/doctest.h>

#include "printer_columns.hpp"
#include "table.hpp"

using namespace rr;
using namespace rr::apiserver_detail;

namespace {

// 2026-01-01T00:00:00Z
const PrintClock::time_point new_year = PrintClock::time_point(std::chrono::seconds(1767225600));

const GroupVersionKind pod{"", "v1", "Pod"};
const GroupVersionKind job{"batch", "v1", "Job"};
const GroupVersionKind cron_job{"batch", "v1", "CronJob"};
const GroupVersionKind service{"", "v1", "Service"};
const GroupVersionKind pvc{"", "v1", "PersistentVolumeClaim"};

// [name, priority] of each column.
Json headers(const GroupVersionKind& gvk) {
  Json out = Json::array();
  for (const PrinterColumn& c : builtin_printer_columns(gvk)) out.push_back(Json::array({c.name, c.priority}));
  return out;
}

Json cells(const GroupVersionKind& gvk, const Json& object) {
  return make_table(builtin_printer_columns(gvk), object, TableOptions{}, new_year)["rows"][0]["cells"];
}

Json cells(const GroupVersionKind& gvk, const char* object) { return cells(gvk, Json::parse(object)); }

// A column's cell by name.
Json cell(const GroupVersionKind& gvk, const Json& object, const std::string& name) {
  const auto columns = builtin_printer_columns(gvk);
  for (const PrinterColumn& c : columns) {
    if (c.name == name) return c.cell(object, new_year);
  }
  FAIL("no column " << name);
  return nullptr;
}

Json cell(const GroupVersionKind& gvk, const char* object, const std::string& name) {
  return cell(gvk, Json::parse(object), name);
}

}  // namespace

TEST_CASE("builtin columns: Pod") {
  CHECK(headers(pod) == Json::parse(R"([["Name",0],["Ready",0],["Status",0],["Restarts",0],["Age",0],
    ["IP",1],["Node",1],["Nominated Node",1],["Readiness Gates",1]])"));
  CHECK(builtin_printer_columns(pod)[3].type == "string");
  CHECK(cells(pod, R"({"metadata": {"name": "web-1", "creationTimestamp": "2025-12-31T23:55:00Z"},
    "spec": {"nodeName": "node-a", "containers": [{"name": "a"}, {"name": "b"}],
             "readinessGates": [{"conditionType": "x/ready"}, {"conditionType": "x/synced"}]},
    "status": {"phase": "Running", "podIPs": [{"ip": "10.1.0.5"}, {"ip": "fd00::5"}],
      "conditions": [{"type": "Ready", "status": "True"}, {"type": "x/ready", "status": "True"}],
      "containerStatuses": [
        {"name": "a", "ready": true, "restartCount": 1, "state": {"running": {}},
         "lastState": {"terminated": {"exitCode": 1, "finishedAt": "2025-12-31T23:58:00Z"}}},
        {"name": "b", "ready": true, "restartCount": 0, "state": {"running": {}}}]}})") ==
        Json::array({"web-1", "2/2", "Running", "1 (2m ago)", "5m", "10.1.0.5", "node-a", "<none>", "1/2"}));

  // Unscheduled: no IP, node or container statuses.
  CHECK(cells(pod, R"({"metadata": {"name": "p"}, "spec": {"containers": [{"name": "a"}]},
    "status": {"phase": "Pending", "nominatedNodeName": "node-b"}})") ==
        Json::array({"p", "0/1", "Pending", "0", "<unknown>", "<none>", "<none>", "node-b", "<none>"}));
}

TEST_CASE("builtin columns: Pod status reasons") {
  const auto status = [](const char* object) { return cell(pod, object, "Status"); };
  // A waiting container's reason wins over the phase; restarts tell when the last one ended.
  const char* crashing = R"({"spec": {"containers": [{"name": "a"}]}, "status": {"phase": "Running",
    "containerStatuses": [{"name": "a", "ready": false, "restartCount": 4,
      "state": {"waiting": {"reason": "CrashLoopBackOff"}},
      "lastState": {"terminated": {"exitCode": 2, "finishedAt": "2025-12-31T23:59:30Z"}}}]}})";
  CHECK(status(crashing) == "CrashLoopBackOff");
  CHECK(cell(pod, crashing, "Ready") == "0/1");
  CHECK(cell(pod, crashing, "Restarts") == "4 (30s ago)");
  // Deleted while running: Terminating; deleted from a lost node: Unknown; a finished pod keeps its reason.
  CHECK(status(R"({"metadata": {"deletionTimestamp": "2025-12-31T23:59:00Z"}, "status": {"phase": "Running"}})") ==
        "Terminating");
  CHECK(status(R"({"metadata": {"deletionTimestamp": "2025-12-31T23:59:00Z"},
    "status": {"phase": "Running", "reason": "NodeLost"}})") == "Unknown");
  CHECK(status(R"({"metadata": {"deletionTimestamp": "2025-12-31T23:59:00Z"}, "status": {"phase": "Succeeded",
    "containerStatuses": [{"name": "a", "state": {"terminated": {"exitCode": 0, "reason": "Completed"}}}]}})") ==
        "Completed");
  // The pod's own reason, and scheduling gates.
  CHECK(status(R"({"status": {"phase": "Failed", "reason": "Evicted"}})") == "Evicted");
  CHECK(status(R"({"status": {"phase": "Pending",
    "conditions": [{"type": "PodScheduled", "status": "False", "reason": "SchedulingGated"}]}})") == "SchedulingGated");
  // A terminated container without a reason: its signal, else its exit code.
  CHECK(status(R"({"status": {"phase": "Running", "containerStatuses": [
    {"name": "a", "state": {"terminated": {"exitCode": 137, "signal": 9}}}]}})") == "Signal:9");
  CHECK(status(R"({"status": {"phase": "Failed", "containerStatuses": [
    {"name": "a", "state": {"terminated": {"exitCode": 3}}}]}})") == "ExitCode:3");
  // Completed, yet a container still runs: Running if the pod is Ready, else NotReady.
  const char* partly = R"({"status": {"phase": "Running", "conditions": [{"type": "Ready", "status": "False"}],
    "containerStatuses": [{"name": "a", "ready": true, "state": {"running": {}}},
                          {"name": "b", "state": {"terminated": {"exitCode": 0, "reason": "Completed"}}}]}})";
  CHECK(status(partly) == "NotReady");
}

TEST_CASE("builtin columns: Pod init containers and sidecars") {
  const auto status = [](const char* object) { return cell(pod, object, "Status"); };
  CHECK(status(R"({"spec": {"initContainers": [{"name": "i1"}, {"name": "i2"}]}, "status": {"phase": "Pending",
    "initContainerStatuses": [{"name": "i1", "state": {"terminated": {"exitCode": 0}}},
                              {"name": "i2", "state": {"waiting": {"reason": "PodInitializing"}}}]}})") == "Init:1/2");
  CHECK(status(R"({"spec": {"initContainers": [{"name": "i1"}]}, "status": {"phase": "Pending",
    "initContainerStatuses": [{"name": "i1", "state": {"waiting": {"reason": "ImagePullBackOff"}}}]}})") ==
        "Init:ImagePullBackOff");
  CHECK(status(R"({"spec": {"initContainers": [{"name": "i1"}]}, "status": {"phase": "Pending",
    "initContainerStatuses": [{"name": "i1", "state": {"terminated": {"exitCode": 1}}}]}})") == "Init:ExitCode:1");
  CHECK(status(R"({"spec": {"initContainers": [{"name": "i1"}]}, "status": {"phase": "Pending",
    "initContainerStatuses": [{"name": "i1", "state": {"terminated": {"exitCode": 1, "reason": "Error"}}}]}})") ==
        "Init:Error");
  // A started sidecar counts in READY and its restarts stay after initialization; plain init
  // containers' restarts do not.
  const char* sidecar =
      R"({"spec": {"initContainers": [{"name": "setup"}, {"name": "proxy", "restartPolicy": "Always"}],
                                     "containers": [{"name": "app"}]},
    "status": {"phase": "Running", "conditions": [{"type": "Initialized", "status": "True"}],
      "initContainerStatuses": [
        {"name": "setup", "restartCount": 3, "state": {"terminated": {"exitCode": 0, "reason": "Completed"}}},
        {"name": "proxy", "restartCount": 1, "started": true, "ready": true, "state": {"running": {}}}],
      "containerStatuses": [{"name": "app", "ready": true, "restartCount": 0, "state": {"running": {}}}]}})";
  CHECK(status(sidecar) == "Running");
  CHECK(cell(pod, sidecar, "Ready") == "2/2");
  CHECK(cell(pod, sidecar, "Restarts") == "1");
}

TEST_CASE("builtin columns: Deployment, StatefulSet, DaemonSet, ReplicaSet") {
  const GroupVersionKind deployment{"apps", "v1", "Deployment"};
  CHECK(headers(deployment) == Json::parse(R"([["Name",0],["Ready",0],["Up-to-date",0],["Available",0],["Age",0],
    ["Containers",1],["Images",1],["Selector",1]])"));
  CHECK(cells(deployment, R"({"metadata": {"name": "web"},
    "spec": {"replicas": 3, "selector": {"matchExpressions": [{"key": "tier", "operator": "In", "values": ["b", "a"]}],
                                          "matchLabels": {"app": "web"}},
             "template": {"spec": {"containers": [{"name": "c1", "image": "nginx"}, {"name": "c2", "image": "busybox"}]}}},
    "status": {"readyReplicas": 2, "updatedReplicas": 3, "availableReplicas": 1}})") ==
        Json::array({"web", "2/3", 3, 1, "<unknown>", "c1,c2", "nginx,busybox", "app=web,tier in (a,b)"}));
  // No replicas: the default, 1; an empty selector prints as nothing.
  // A float count is truncated; one no integer holds is ignored.
  CHECK(cell(deployment, R"({"spec": {"replicas": 2.0}})", "Ready") == "0/2");
  CHECK(cell(deployment, R"({"spec": {"replicas": 1e30}})", "Ready") == "0/1");
  CHECK(cells(deployment, R"({"metadata": {"name": "d"}})") ==
        Json::array({"d", "0/1", 0, 0, "<unknown>", "", "", ""}));

  const GroupVersionKind stateful_set{"apps", "v1", "StatefulSet"};
  CHECK(headers(stateful_set) == Json::parse(R"([["Name",0],["Ready",0],["Age",0],["Containers",1],["Images",1]])"));
  CHECK(cells(stateful_set, R"({"metadata": {"name": "db", "creationTimestamp": "2025-12-29T00:00:00Z"},
    "spec": {"replicas": 3, "template": {"spec": {"containers": [{"name": "pg", "image": "postgres:16"}]}}},
    "status": {"readyReplicas": 2}})") == Json::array({"db", "2/3", "3d", "pg", "postgres:16"}));

  const GroupVersionKind daemon_set{"apps", "v1", "DaemonSet"};
  CHECK(headers(daemon_set) == Json::parse(R"([["Name",0],["Desired",0],["Current",0],["Ready",0],["Up-to-date",0],
    ["Available",0],["Node Selector",0],["Age",0],["Containers",1],["Images",1],["Selector",1]])"));
  CHECK(builtin_printer_columns(daemon_set)[1].type == "integer");
  CHECK(cells(daemon_set, R"({"metadata": {"name": "agent"},
    "spec": {"selector": {"matchLabels": {"app": "agent"}},
             "template": {"spec": {"nodeSelector": {"kubernetes.io/os": "linux"}, "containers": [{"name": "a", "image": "agent:1"}]}}},
    "status": {"desiredNumberScheduled": 3, "currentNumberScheduled": 3, "numberReady": 2,
               "updatedNumberScheduled": 3, "numberAvailable": 2}})") ==
        Json::array({"agent", 3, 3, 2, 3, 2, "kubernetes.io/os=linux", "<unknown>", "a", "agent:1", "app=agent"}));

  const GroupVersionKind replica_set{"apps", "v1", "ReplicaSet"};
  CHECK(headers(replica_set) == Json::parse(R"([["Name",0],["Desired",0],["Current",0],["Ready",0],["Age",0],
    ["Containers",1],["Images",1],["Selector",1]])"));
  CHECK(cells(replica_set, R"({"metadata": {"name": "web-5d8"},
    "spec": {"selector": {"matchExpressions": [{"key": "canary", "operator": "DoesNotExist"},
                                               {"key": "app", "operator": "Exists"}]}},
    "status": {"replicas": 1}})") == Json::array({"web-5d8", 1, 1, 0, "<unknown>", "", "", "app,!canary"}));
}

TEST_CASE("builtin columns: Job running, complete, failed") {
  CHECK(headers(job) == Json::parse(R"([["Name",0],["Status",0],["Completions",0],["Duration",0],["Age",0],
    ["Containers",1],["Images",1],["Selector",1]])"));
  CHECK(
      cells(job, R"({"metadata": {"name": "migrate", "creationTimestamp": "2025-12-31T23:58:00Z"},
    "spec": {"completions": 3, "selector": {"matchLabels": {"batch.kubernetes.io/job-name": "migrate"}},
             "template": {"spec": {"containers": [{"name": "m", "image": "migrate:2"}]}}},
    "status": {"startTime": "2025-12-31T23:58:00Z", "succeeded": 1, "active": 1}})") ==
      Json::array({"migrate", "Running", "1/3", "2m", "2m", "m", "migrate:2", "batch.kubernetes.io/job-name=migrate"}));
  const char* complete = R"({"spec": {"completions": 1}, "status": {"succeeded": 1,
    "startTime": "2025-12-31T23:55:00Z", "completionTime": "2025-12-31T23:55:42Z",
    "conditions": [{"type": "SuccessCriteriaMet", "status": "True"}, {"type": "Complete", "status": "True"}]}})";
  CHECK(cell(job, complete, "Status") == "Complete");
  CHECK(cell(job, complete, "Completions") == "1/1");
  CHECK(cell(job, complete, "Duration") == "42s");
  const char* failed = R"({"spec": {"parallelism": 2}, "status": {"failed": 7,
    "conditions": [{"type": "FailureTarget", "status": "True"}, {"type": "Failed", "status": "True"}]}})";
  CHECK(cell(job, failed, "Status") == "Failed");
  CHECK(cell(job, failed, "Completions") == "0/1 of 2");
  CHECK(cell(job, failed, "Duration") == "");  // never started
  CHECK(cell(job, R"({"status": {"conditions": [{"type": "Suspended", "status": "True"}]}})", "Status") == "Suspended");
  CHECK(cell(job, R"({"metadata": {"deletionTimestamp": "2025-12-31T23:59:00Z"}})", "Status") == "Terminating");
  CHECK(cell(job, R"({"status": {"conditions": [{"type": "Complete", "status": "False"}]}})", "Status") == "Running");
}

TEST_CASE("builtin columns: CronJob") {
  CHECK(headers(cron_job) == Json::parse(R"([["Name",0],["Schedule",0],["Timezone",0],["Suspend",0],["Active",0],
    ["Last Schedule",0],["Age",0],["Containers",1],["Images",1],["Selector",1]])"));
  CHECK(builtin_printer_columns(cron_job)[3].type == "boolean");
  // Never scheduled.
  CHECK(cells(cron_job, R"({"metadata": {"name": "nightly", "creationTimestamp": "2025-12-31T00:00:00Z"},
    "spec": {"schedule": "0 3 * * *", "jobTemplate": {"spec": {"template": {"spec": {
      "containers": [{"name": "backup", "image": "backup:1"}]}}}}}})") ==
        Json::array({"nightly", "0 3 * * *", "<none>", "False", 0, "<none>", "24h", "backup", "backup:1", "<none>"}));
  const char* busy = R"({"spec": {"schedule": "*/5 * * * *", "timeZone": "Europe/Paris", "suspend": true},
    "status": {"active": [{"name": "j1"}], "lastScheduleTime": "2025-12-31T23:55:00Z"}})";
  CHECK(cell(cron_job, busy, "Timezone") == "Europe/Paris");
  CHECK(cell(cron_job, busy, "Suspend") == "True");
  CHECK(cell(cron_job, busy, "Active") == 1);
  CHECK(cell(cron_job, busy, "Last Schedule") == "5m");
}

TEST_CASE("builtin columns: Service") {
  CHECK(headers(service) == Json::parse(R"j([["Name",0],["Type",0],["Cluster-IP",0],["External-IP",0],["Port(s)",0],
    ["Age",0],["Selector",1]])j"));
  CHECK(cells(service, R"({"metadata": {"name": "s"}, "spec": {"type": "NodePort", "clusterIP": "10.0.0.7",
    "clusterIPs": ["10.0.0.7", "fd00::7"], "selector": {"app": "web"},
    "ports": [{"port": 80, "protocol": "TCP"}, {"port": 443, "nodePort": 30443}, {"port": 53, "protocol": "UDP"}]}})") ==
        Json::array({"s", "NodePort", "10.0.0.7", "<none>", "80/TCP,443:30443/TCP,53/UDP", "<unknown>", "app=web"}));
  // Defaults: type ClusterIP; no cluster IP, ports or selector.
  CHECK(cells(service, R"({"metadata": {"name": "bare"}})") ==
        Json::array({"bare", "ClusterIP", "<none>", "<none>", "<none>", "<unknown>", "<none>"}));
  // A LoadBalancer: pending until the status has ingress; addresses sorted, then external IPs.
  CHECK(cell(service, R"({"spec": {"type": "LoadBalancer", "ports": [{"port": 80, "nodePort": 30080}]}})",
             "External-IP") == "<pending>");
  CHECK(cell(service, R"({"spec": {"type": "LoadBalancer", "externalIPs": ["198.51.100.9"]},
    "status": {"loadBalancer": {"ingress": [{"ip": "203.0.113.2"}, {"hostname": "lb.example.com"}, {"ip": "203.0.113.1"}]}}})",
             "External-IP") == "203.0.113.1,203.0.113.2,lb.example.com,198.51.100.9");
  CHECK(cell(service, R"({"spec": {"type": "ClusterIP", "externalIPs": ["198.51.100.9", "198.51.100.10"]}})",
             "External-IP") == "198.51.100.9,198.51.100.10");
  CHECK(cell(service, R"({"spec": {"type": "ExternalName", "externalName": "db.example.com"}})", "External-IP") ==
        "db.example.com");
}

TEST_CASE("builtin columns: Ingress, Endpoints, EndpointSlice") {
  const GroupVersionKind ingress{"networking.k8s.io", "v1", "Ingress"};
  CHECK(headers(ingress) == Json::parse(R"([["Name",0],["Class",0],["Hosts",0],["Address",0],["Ports",0],["Age",0]])"));
  CHECK(cells(ingress, R"({"metadata": {"name": "web"}, "spec": {"ingressClassName": "nginx",
    "rules": [{"host": "a.example.com"}, {}, {"host": "b.example.com"}], "tls": [{"hosts": ["a.example.com"]}]},
    "status": {"loadBalancer": {"ingress": [{"ip": "192.0.2.4"}]}}})") ==
        Json::array({"web", "nginx", "a.example.com,b.example.com", "192.0.2.4", "80, 443", "<unknown>"}));
  CHECK(cells(ingress, R"({"metadata": {"name": "any"}, "spec": {"defaultBackend": {}}})") ==
        Json::array({"any", "<none>", "*", "", "80", "<unknown>"}));
  CHECK(cell(ingress,
             R"({"spec": {"rules": [{"host": "a"}, {"host": "b"}, {"host": "c"}, {"host": "d"}, {"host": "e"}]}})",
             "Hosts") == "a,b,c + 2 more...");

  const GroupVersionKind endpoints{"", "v1", "Endpoints"};
  CHECK(headers(endpoints) == Json::parse(R"([["Name",0],["Endpoints",0],["Age",0]])"));
  CHECK(cell(endpoints, R"({"subsets": [{"addresses": [{"ip": "10.0.0.1"}, {"ip": "10.0.0.2"}],
    "ports": [{"port": 80}, {"port": 443}]}]})",
             "Endpoints") == "10.0.0.1:80,10.0.0.2:80,10.0.0.1:443 + 1 more...");
  CHECK(cell(endpoints, R"({"subsets": [{"addresses": [{"ip": "fd00::1"}], "ports": [{"port": 80}]},
    {"addresses": [{"ip": "10.0.0.3"}]}]})",
             "Endpoints") == "[fd00::1]:80,10.0.0.3");
  CHECK(cell(endpoints, R"({})", "Endpoints") == "<none>");

  const GroupVersionKind slice{"discovery.k8s.io", "v1", "EndpointSlice"};
  CHECK(headers(slice) == Json::parse(R"([["Name",0],["AddressType",0],["Ports",0],["Endpoints",0],["Age",0]])"));
  CHECK(cells(slice, R"({"metadata": {"name": "web-x"}, "addressType": "IPv4",
    "ports": [{"port": 80}, {"name": "metrics"}, {}],
    "endpoints": [{"addresses": ["10.0.0.1", "10.0.0.2"]}, {"addresses": ["10.0.0.3"]}, {"addresses": ["10.0.0.4"]}]})") ==
        Json::array({"web-x", "IPv4", "80,metrics,*", "10.0.0.1,10.0.0.2,10.0.0.3 + 1 more...", "<unknown>"}));
  CHECK(cells(slice, R"({"metadata": {"name": "empty"}, "addressType": "IPv6"})") ==
        Json::array({"empty", "IPv6", "<unset>", "<unset>", "<unknown>"}));
}

TEST_CASE("builtin columns: PersistentVolumeClaim and PersistentVolume") {
  CHECK(headers(pvc) == Json::parse(R"([["Name",0],["Status",0],["Volume",0],["Capacity",0],["Access Modes",0],
    ["StorageClass",0],["VolumeAttributesClass",0],["Age",0],["VolumeMode",1]])"));
  // Pending: no volume, so no capacity or access modes.
  CHECK(cells(pvc, R"({"metadata": {"name": "data"}, "spec": {"storageClassName": "standard",
    "accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}}, "status": {"phase": "Pending"}})") ==
        Json::array({"data", "Pending", "", "", "", "standard", "<unset>", "<unknown>", "Filesystem"}));
  CHECK(cells(pvc, R"({"metadata": {"name": "data"}, "spec": {"volumeName": "pv-1", "volumeMode": "Block",
    "volumeAttributesClassName": "gold"},
    "status": {"phase": "Bound", "capacity": {"storage": "10Gi"}, "accessModes": ["ReadWriteMany", "ReadWriteOnce"]}})") ==
        Json::array({"data", "Bound", "pv-1", "10Gi", "RWO,RWX", "", "gold", "<unknown>", "Block"}));
  CHECK(cell(pvc, R"({"metadata": {"deletionTimestamp": "2025-12-31T23:59:00Z"}, "status": {"phase": "Bound"}})",
             "Status") == "Terminating");

  const GroupVersionKind pv{"", "v1", "PersistentVolume"};
  CHECK(headers(pv) == Json::parse(R"([["Name",0],["Capacity",0],["Access Modes",0],["Reclaim Policy",0],["Status",0],
    ["Claim",0],["StorageClass",0],["VolumeAttributesClass",0],["Reason",0],["Age",0],["VolumeMode",1]])"));
  CHECK(cells(pv, R"({"metadata": {"name": "pv-1", "annotations": {"volume.beta.kubernetes.io/storage-class": "slow"}},
    "spec": {"capacity": {"storage": "10Gi"}, "accessModes": ["ReadWriteOncePod", "ReadOnlyMany", "ReadOnlyMany"],
             "storageClassName": "fast", "claimRef": {"namespace": "default", "name": "data"}},
    "status": {"phase": "Bound"}})") == Json::array({"pv-1", "10Gi", "ROX,RWOP", "Retain", "Bound", "default/data",
                                                     "slow", "<unset>", "", "<unknown>", "Filesystem"}));
}

TEST_CASE("builtin columns: ConfigMap, Secret, ServiceAccount, Namespace, Lease") {
  const GroupVersionKind config_map{"", "v1", "ConfigMap"};
  CHECK(headers(config_map) == Json::parse(R"([["Name",0],["Data",0],["Age",0]])"));
  CHECK(cells(config_map, R"({"metadata": {"name": "c", "creationTimestamp": "2025-12-31T00:00:00Z"},
    "data": {"a": "1", "b": "2"}, "binaryData": {"c": "AA=="}})") == Json::array({"c", 3, "24h"}));

  const GroupVersionKind secret{"", "v1", "Secret"};
  CHECK(headers(secret) == Json::parse(R"([["Name",0],["Type",0],["Data",0],["Age",0]])"));
  CHECK(cells(secret, R"({"metadata": {"name": "tls"}, "type": "kubernetes.io/tls",
    "data": {"tls.crt": "", "tls.key": ""}})") == Json::array({"tls", "kubernetes.io/tls", 2, "<unknown>"}));
  // stringData is merged into data on write; type defaults to Opaque.
  CHECK(cells(secret, R"({"metadata": {"name": "s"}, "data": {"a": ""}, "stringData": {"a": "x", "b": "y"}})") ==
        Json::array({"s", "Opaque", 2, "<unknown>"}));

  const GroupVersionKind service_account{"", "v1", "ServiceAccount"};
  CHECK(headers(service_account) == Json::parse(R"([["Name",0],["Secrets",0],["Age",0]])"));
  CHECK(cells(service_account, R"({"metadata": {"name": "default"}})") == Json::array({"default", 0, "<unknown>"}));

  const GroupVersionKind ns{"", "v1", "Namespace"};
  CHECK(headers(ns) == Json::parse(R"([["Name",0],["Status",0],["Age",0]])"));
  CHECK(cells(ns, R"({"metadata": {"name": "old"}, "status": {"phase": "Terminating"}})") ==
        Json::array({"old", "Terminating", "<unknown>"}));
  CHECK(cell(ns, R"({})", "Status") == "Active");

  const GroupVersionKind lease{"coordination.k8s.io", "v1", "Lease"};
  CHECK(cells(lease, R"({"metadata": {"name": "leader"}, "spec": {"holderIdentity": "pod-a"}})") ==
        Json::array({"leader", "pod-a", "<unknown>"}));
}

TEST_CASE("builtin columns: Node") {
  const GroupVersionKind node{"", "v1", "Node"};
  CHECK(headers(node) == Json::parse(R"([["Name",0],["Status",0],["Roles",0],["Age",0],["Version",0],["Internal-IP",1],
    ["External-IP",1],["OS-Image",1],["Kernel-Version",1],["Container-Runtime",1]])"));
  CHECK(cells(node, R"({"metadata": {"name": "n1", "labels": {"node-role.kubernetes.io/control-plane": "",
      "kubernetes.io/role": "worker", "node-role.kubernetes.io/": "x"}},
    "spec": {"unschedulable": true},
    "status": {"conditions": [{"type": "MemoryPressure", "status": "False"}, {"type": "Ready", "status": "True"}],
      "addresses": [{"type": "Hostname", "address": "n1"}, {"type": "InternalIP", "address": "10.0.0.10"}],
      "nodeInfo": {"kubeletVersion": "v1.35.0", "osImage": "Ubuntu 24.04", "containerRuntimeVersion": "containerd://2.0.0"}}})") ==
        Json::array({"n1", "Ready,SchedulingDisabled", "control-plane,worker", "<unknown>", "v1.35.0", "10.0.0.10",
                     "<none>", "Ubuntu 24.04", "<unknown>", "containerd://2.0.0"}));
  CHECK(cell(node, R"({"status": {"conditions": [{"type": "Ready", "status": "Unknown"}]}})", "Status") == "NotReady");
  CHECK(cell(node, R"({})", "Status") == "Unknown");
  CHECK(cell(node, R"({})", "Roles") == "<none>");
}

TEST_CASE("builtin columns: Event, core and events.k8s.io") {
  const GroupVersionKind event{"", "v1", "Event"};
  CHECK(headers(event) == Json::parse(R"([["Last Seen",0],["Type",0],["Reason",0],["Object",0],["Subobject",1],
    ["Source",1],["Message",0],["First Seen",1],["Count",1],["Name",1]])"));
  CHECK(builtin_printer_columns(event).back().format == "name");
  CHECK(cells(event, R"({"metadata": {"name": "web-1.17a"}, "type": "Warning", "reason": "BackOff",
    "involvedObject": {"kind": "Pod", "name": "web-1", "fieldPath": "spec.containers{app}"},
    "source": {"component": "kubelet", "host": "node-a"}, "message": "  Back-off restarting failed container\n",
    "firstTimestamp": "2025-12-31T23:50:00Z", "lastTimestamp": "2025-12-31T23:59:50Z", "count": 5})") ==
        Json::array({"10s", "Warning", "BackOff", "pod/web-1", "spec.containers{app}", "kubelet, node-a",
                     "Back-off restarting failed container", "10m", 5, "web-1.17a"}));
  // Written with the new API: eventTime and a series, the reporting controller as the source.
  const char* series = R"({"metadata": {"name": "e"}, "type": "Normal", "reason": "Synced",
    "involvedObject": {"kind": "Gizmo"}, "eventTime": "2025-12-31T23:59:00.250000Z",
    "series": {"count": 3, "lastObservedTime": "2025-12-31T23:59:58.000000Z"},
    "reportingComponent": "gizmo-controller", "reportingInstance": "gizmo-controller-0"})";
  CHECK(cells(event, series) == Json::array({"2s", "Normal", "Synced", "gizmo", "",
                                             "gizmo-controller, gizmo-controller-0", "", "59s", 3, "e"}));
  // No timestamps at all; a count of 0 prints as 1.
  CHECK(cells(event, R"({"metadata": {"name": "x"}})") ==
        Json::array({"<unknown>", "", "", "", "", "", "", "<unknown>", 1, "x"}));

  const GroupVersionKind events_v1{"events.k8s.io", "v1", "Event"};
  CHECK(headers(events_v1) == headers(event));
  CHECK(cells(events_v1, R"({"metadata": {"name": "web-1.17a"}, "type": "Normal", "reason": "Pulled",
    "regarding": {"kind": "Pod", "name": "web-1", "fieldPath": "spec.containers{app}"},
    "note": "Image pulled", "reportingController": "kubelet", "reportingInstance": "node-a",
    "deprecatedFirstTimestamp": "2025-12-31T23:58:00Z", "deprecatedLastTimestamp": "2025-12-31T23:59:00Z",
    "deprecatedCount": 2})") == Json::array({"60s", "Normal", "Pulled", "pod/web-1", "spec.containers{app}",
                                             "kubelet, node-a", "Image pulled", "2m", 2, "web-1.17a"}));
}

TEST_CASE("builtin columns: RBAC, CRDs and other kinds") {
  for (const char* kind : {"RoleBinding", "ClusterRoleBinding"}) {
    const GroupVersionKind binding{"rbac.authorization.k8s.io", "v1", kind};
    CHECK(headers(binding) ==
          Json::parse(R"([["Name",0],["Role",0],["Age",0],["Users",1],["Groups",1],["ServiceAccounts",1]])"));
    CHECK(cells(binding, R"({"metadata": {"name": "read"}, "roleRef": {"kind": "ClusterRole", "name": "view"},
      "subjects": [{"kind": "User", "name": "alice"}, {"kind": "Group", "name": "devs"},
                   {"kind": "ServiceAccount", "namespace": "ci", "name": "bot"}, {"kind": "User", "name": "bob"}]})") ==
          Json::array({"read", "ClusterRole/view", "<unknown>", "alice, bob", "devs", "ci/bot"}));
  }
  // No printer upstream: the default convertor's Name and Created At (an RFC 3339 time in UTC).
  for (const GroupVersionKind& gvk : {GroupVersionKind{"rbac.authorization.k8s.io", "v1", "Role"},
                                      GroupVersionKind{"rbac.authorization.k8s.io", "v1", "ClusterRole"},
                                      GroupVersionKind{"apiextensions.k8s.io", "v1", "CustomResourceDefinition"}}) {
    CHECK(headers(gvk) == Json::parse(R"([["Name",0],["Created At",0]])"));
    CHECK(builtin_printer_columns(gvk)[1].type == "date");
    CHECK(cells(gvk, R"({"metadata": {"name": "r", "creationTimestamp": "2025-12-31T18:55:00-05:00"}})") ==
          Json::array({"r", "2025-12-31T23:55:00Z"}));
  }
  CHECK(cell({"rbac.authorization.k8s.io", "v1", "Role"}, R"({})", "Created At") == "0001-01-01T00:00:00Z");
  // A kind without its printer here: Name and Age.
  CHECK(headers({"node.k8s.io", "v1", "RuntimeClass"}) == Json::parse(R"([["Name",0],["Age",0]])"));
}

TEST_CASE("builtin columns: PodDisruptionBudget") {
  const GroupVersionKind pdb{"policy", "v1", "PodDisruptionBudget"};
  CHECK(headers(pdb) ==
        Json::parse(R"([["Name",0],["Min Available",0],["Max Unavailable",0],["Allowed Disruptions",0],["Age",0]])"));
  CHECK(cells(pdb, R"({"metadata": {"name": "db"}, "spec": {"maxUnavailable": 1},
    "status": {"disruptionsAllowed": 1}})") == Json::array({"db", "N/A", "1", 1, "<unknown>"}));
  CHECK(cells(pdb, R"({"metadata": {"name": "web"}, "spec": {"minAvailable": "50%"}})") ==
        Json::array({"web", "50%", "N/A", 0, "<unknown>"}));
}
