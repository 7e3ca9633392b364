// Real kubectl against the local cluster on the built-in kinds, as a new user drives a cluster:
// the `kubectl create` generators (typed clients: protobuf bodies), expose, scale (the scale
// subresource), rollout status (the workload simulator), explain (OpenAPI v3 schemas),
// api-resources (discovery) and apply of a StatefulSet with volume claim templates.
#include <doctest/doctest.h>

#include "kubectl_support.hpp"
#include "rr/apiserver/workload_simulator.hpp"
#include "rr/kube_controllers/namespace_defaults.hpp"

using namespace rr;
using namespace rr::apiserver_test;

namespace {

// The cluster with kubectl, the workload simulator (Deployments roll out) and the `default`
// ServiceAccount of every namespace (pods need it to be admitted), as rrgen-cluster runs them.
struct SimulatedCluster {
  SimulatedCluster()
      : t(ApiServerOptions{}, GizmoCluster::with_namespaces()),
        kubectl(*t.server),
        simulator(t.cluster),
        namespace_defaults(t.cluster) {}
  Run ok(const std::string& args) const {
    Run run = kubectl(args);
    INFO("kubectl " << args << "\n" << run.output);
    REQUIRE(run.code == 0);
    return run;
  }
  TestServer t;
  Kubectl kubectl;
  WorkloadSimulator simulator;
  kube_controllers::NamespaceDefaults namespace_defaults;
};

bool has_row(const std::string& output, const std::vector<std::string>& prefix) {
  for (const auto& row : table_rows(output)) {
    if (row.size() >= prefix.size() && std::equal(prefix.begin(), prefix.end(), row.begin())) return true;
  }
  return false;
}

const char* kStatefulSet = R"(apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: kv
  namespace: shop
spec:
  serviceName: kv
  replicas: 2
  selector:
    matchLabels: {app: kv}
  template:
    metadata:
      labels: {app: kv}
    spec:
      containers:
      - name: kv
        image: registry.example/kv:1.0
        ports:
        - containerPort: 6379
        volumeMounts:
        - {name: data, mountPath: /data}
  volumeClaimTemplates:
  - metadata:
      name: data
    spec:
      accessModes: [ReadWriteOnce]
      resources:
        requests: {storage: 1Gi}
)";

}  // namespace

TEST_CASE("kubectl create namespace|configmap|secret|deployment|job|cronjob, expose, scale, rollout status") {
  SKIP_WITHOUT_KUBECTL();
  SimulatedCluster c;
  c.ok("create namespace shop");
  c.ok("-n shop create configmap settings --from-literal=mode=fast --from-literal=level=3");
  c.ok("-n shop create secret generic creds --from-literal=password=s3cret");
  c.ok("-n shop create deployment web --image=nginx:1.27 --replicas=2 --port=80");
  c.ok("-n shop create job once --image=busybox -- echo hi");
  c.ok("-n shop create cronjob nightly --image=busybox --schedule='0 3 * * *' -- echo hi");
  c.ok("-n shop expose deployment web --port=8080 --target-port=80");

  // What the typed clients sent in protobuf reads back as it was meant.
  CHECK(c.ok("-n shop get configmap settings -o jsonpath={.data.level}").output == "3");
  CHECK(c.ok("-n shop get secret creds -o jsonpath={.data.password}").output == "czNjcmV0");
  CHECK(c.ok("-n shop get service web -o jsonpath={.spec.ports[0].port}/{.spec.ports[0].targetPort}").output ==
        "8080/80");
  CHECK(c.ok("-n shop get cronjob nightly -o jsonpath={.spec.schedule}").output == "0 3 * * *");

  CHECK(c.ok("-n shop get deployment web -o jsonpath={.spec.strategy.type}").output == "RollingUpdate");
  CHECK(c.ok("-n shop get deployment web -o jsonpath={.spec.template.spec.containers[0].imagePullPolicy}").output ==
        "IfNotPresent");
  c.ok("-n shop rollout status deployment/web --timeout=20s");
  const Run scaled = c.ok("-n shop scale deployment web --replicas=4");
  CHECK(scaled.output.find("deployment.apps/web scaled") != std::string::npos);
  CHECK(c.ok("-n shop get deployment web -o jsonpath={.spec.replicas}").output == "4");
  c.ok("-n shop rollout status deployment/web --timeout=20s");
  CHECK(c.ok("-n shop get deployment web -o jsonpath={.status.availableReplicas}").output == "4");
  // --current-replicas is a precondition: a wrong one is refused.
  CHECK(c.kubectl("-n shop scale deployment web --current-replicas=2 --replicas=1").code != 0);

  const Run wide = c.ok("-n shop get deployment,configmap,secret,service,cronjob -o wide");
  INFO(wide.output);
  CHECK(has_row(wide.output, {"deployment.apps/web", "4/4", "4", "4"}));
  CHECK(has_row(wide.output, {"configmap/settings", "2"}));
  CHECK(has_row(wide.output, {"secret/creds", "Opaque", "1"}));
  CHECK(has_row(wide.output, {"service/web", "ClusterIP"}));
  CHECK(has_row(wide.output, {"cronjob.batch/nightly", "0", "3", "*", "*", "*"}));
}

TEST_CASE("kubectl api-resources lists the 1.35 kinds with their short names") {
  SKIP_WITHOUT_KUBECTL();
  SimulatedCluster c;
  const Run resources = c.ok("api-resources");
  INFO(resources.output);
  CHECK(table_rows(resources.output).size() > 60);
  CHECK(has_row(resources.output, {"statefulsets", "sts", "apps/v1", "true", "StatefulSet"}));
  CHECK(has_row(resources.output, {"poddisruptionbudgets", "pdb", "policy/v1", "true", "PodDisruptionBudget"}));
  CHECK(has_row(resources.output, {"persistentvolumeclaims", "pvc", "v1", "true", "PersistentVolumeClaim"}));
  CHECK(has_row(resources.output, {"ingresses", "ing", "networking.k8s.io/v1", "true", "Ingress"}));
  CHECK(has_row(resources.output, {"jobs", "batch/v1", "true", "Job"}));
  const Run all = c.ok("api-resources --categories=all -o name");
  CHECK(all.output.find("statefulsets.apps") != std::string::npos);
  CHECK(all.output.find("configmaps") == std::string::npos);
}

TEST_CASE("kubectl explain: built-in fields from the 1.35 schemas, custom resource fields from the CRD") {
  SKIP_WITHOUT_KUBECTL();
  GizmoCluster g;
  g.install_crd();
  const Run replicas = g.kubectl("explain deployment.spec.replicas");
  INFO(replicas.output);
  REQUIRE(replicas.code == 0);
  CHECK(replicas.output.find("FIELD: replicas <integer>") != std::string::npos);
  const Run claims = g.kubectl("explain statefulset.spec.volumeClaimTemplates");
  INFO(claims.output);
  REQUIRE(claims.code == 0);
  CHECK(claims.output.find("<[]PersistentVolumeClaim>") != std::string::npos);
  const Run pod = g.kubectl("explain pods.spec.containers --recursive");
  REQUIRE(pod.code == 0);
  CHECK(pod.output.find("image\t<string>") != std::string::npos);
  const Run gizmo = g.kubectl("explain gizmo.spec");
  INFO(gizmo.output);
  REQUIRE(gizmo.code == 0);
  CHECK(gizmo.output.find("size\t<integer>") != std::string::npos);
  CHECK(gizmo.output.find("color\t<string>") != std::string::npos);
  CHECK(g.kubectl("explain gizmo.metadata.labels").output.find("<map[string]string>") != std::string::npos);
}

TEST_CASE("kubectl apply of a StatefulSet with volume claim templates, then scale through /scale") {
  SKIP_WITHOUT_KUBECTL();
  SimulatedCluster c;
  c.ok("create namespace shop");
  const Run applied = c.ok("apply -f " + c.kubectl.write("kv.yaml", kStatefulSet));
  CHECK(applied.output.find("statefulset.apps/kv created") != std::string::npos);
  // The claim template came through whole (it has no apiVersion or kind of its own).
  CHECK(c.ok("-n shop get sts kv -o jsonpath={.spec.volumeClaimTemplates[0].spec.resources.requests.storage}").output ==
        "1Gi");
  // Applied again unchanged: nothing to do.
  CHECK(c.ok("apply -f " + c.kubectl.path("kv.yaml")).output.find("statefulset.apps/kv unchanged") !=
        std::string::npos);
  c.ok("-n shop scale statefulset kv --replicas=3");
  CHECK(c.ok("-n shop get sts kv -o jsonpath={.spec.replicas}").output == "3");
}

TEST_CASE("kubectl rollout status and kubectl wait see the WorkloadSimulator's StatefulSet and Job finish") {
  SKIP_WITHOUT_KUBECTL();
  TestServer t;
  WorkloadSimulator simulator(t.cluster);
  Kubectl kubectl(*t.server);
  // No updateStrategy: the API server's Go defaults add RollingUpdate, which rollout status needs.
  const std::string web =
      "apiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: web\nspec:\n  replicas: 2\n  serviceName: web\n"
      "  selector:\n    matchLabels: {app: web}\n  template:\n"
      "    metadata:\n      labels: {app: web}\n    spec:\n      containers:\n      - {name: main, image: nginx:1.25}\n"
      "  volumeClaimTemplates:\n  - metadata: {name: data}\n    spec:\n      accessModes: [ReadWriteOnce]\n"
      "      resources: {requests: {storage: 1Gi}}\n";
  Run applied = kubectl("apply -f " + kubectl.write("web.yaml", web));
  INFO(applied.output);
  REQUIRE(applied.code == 0);
  Run rolled = kubectl("rollout status statefulset/web --timeout=20s");
  INFO(rolled.output);
  CHECK(rolled.code == 0);
  // With the defaulted partition (0), kubectl reports a partitioned roll out, as against a real server.
  CHECK(rolled.output.find("partitioned roll out complete: 2 new pods have been updated") != std::string::npos);

  Run updated = kubectl("set image statefulset/web main=nginx:1.27");
  INFO(updated.output);
  REQUIRE(updated.code == 0);
  Run rolled_again = kubectl("rollout status statefulset/web --timeout=20s");
  INFO(rolled_again.output);
  CHECK(rolled_again.code == 0);
  CHECK(kubectl("get pod web-0 -o jsonpath={.spec.containers[0].image}").output == "nginx:1.27");
  CHECK(kubectl("get persistentvolumeclaims data-web-1 -o jsonpath={.status.phase}").output == "Bound");

  const std::string job = "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: once\nspec:\n  template:\n    spec:\n"
                          "      restartPolicy: Never\n      containers:\n      - {name: main, image: busybox}\n";
  REQUIRE(kubectl("apply -f " + kubectl.write("job.yaml", job)).code == 0);
  Run waited = kubectl("wait --for=condition=complete --timeout=20s job/once");
  INFO(waited.output);
  CHECK(waited.code == 0);
  CHECK(kubectl("get job once -o jsonpath={.status.succeeded}").output == "1");
}

namespace {

// One object of each kind whose `kubectl get` columns the server prints like a real one.
const char* kEveryKind = R"(apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent, namespace: shop}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec: {containers: [{name: agent, image: "agent:2"}]}
---
apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: rs, namespace: shop}
spec:
  replicas: 1
  selector: {matchLabels: {app: rs}}
  template:
    metadata: {labels: {app: rs}}
    spec: {containers: [{name: rs, image: "rs:1"}]}
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: web, namespace: shop}
spec:
  rules:
  - host: shop.example.com
    http:
      paths:
      - {path: /, pathType: Prefix, backend: {service: {name: web, port: {number: 80}}}}
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: disk-1}
spec:
  capacity: {storage: 5Gi}
  accessModes: [ReadWriteOnce]
  hostPath: {path: /mnt/disk-1}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: claim, namespace: shop}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
---
apiVersion: v1
kind: Node
metadata: {name: node-1, labels: {kubernetes.io/hostname: node-1}}
---
apiVersion: v1
kind: Pod
metadata: {name: lone, namespace: shop}
spec: {containers: [{name: main, image: "busybox:1.36"}]}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: kv, namespace: shop}
spec:
  maxUnavailable: 1
  selector: {matchLabels: {app: kv}}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: reader, namespace: shop}
rules: [{apiGroups: [""], resources: [pods], verbs: [get, list]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: reader, namespace: shop}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: reader}
subjects: [{kind: ServiceAccount, name: default, namespace: shop}]
)";

// The header row of `kubectl get KIND -o wide` (its words).
std::vector<std::string> header_of(const Run& run) {
  auto rows = table_rows(run.output);
  return rows.empty() ? std::vector<std::string>() : rows.front();
}

}  // namespace

TEST_CASE("kubectl get -o wide prints a real server's columns for the common built-in kinds") {
  SKIP_WITHOUT_KUBECTL();
  SimulatedCluster c;
  c.ok("create namespace shop");
  c.ok("apply -f " + c.kubectl.write("kinds.yaml", kEveryKind));
  c.ok("apply -f " + c.kubectl.write("kv.yaml", kStatefulSet));
  c.ok("-n shop create deployment web --image=nginx:1.27");
  c.ok("-n shop create job once --image=busybox -- echo hi");
  c.ok("-n shop create cronjob nightly --image=busybox --schedule='0 3 * * *' -- echo hi");
  c.ok("-n shop create configmap settings --from-literal=a=b");
  c.ok("-n shop create secret generic creds --from-literal=p=q");
  c.ok("-n shop expose deployment web --port=80");
  const std::pair<const char*, std::vector<std::string>> expected[] = {
      {"pods", {"NAME", "READY", "STATUS", "RESTARTS", "AGE", "IP", "NODE", "NOMINATED", "NODE", "READINESS", "GATES"}},
      {"deployments", {"NAME", "READY", "UP-TO-DATE", "AVAILABLE", "AGE", "CONTAINERS", "IMAGES", "SELECTOR"}},
      {"statefulsets", {"NAME", "READY", "AGE", "CONTAINERS", "IMAGES"}},
      {"daemonsets",
       {"NAME", "DESIRED", "CURRENT", "READY", "UP-TO-DATE", "AVAILABLE", "NODE", "SELECTOR", "AGE", "CONTAINERS",
        "IMAGES", "SELECTOR"}},
      {"replicasets", {"NAME", "DESIRED", "CURRENT", "READY", "AGE", "CONTAINERS", "IMAGES", "SELECTOR"}},
      {"jobs", {"NAME", "STATUS", "COMPLETIONS", "DURATION", "AGE", "CONTAINERS", "IMAGES", "SELECTOR"}},
      {"cronjobs",
       {"NAME", "SCHEDULE", "TIMEZONE", "SUSPEND", "ACTIVE", "LAST", "SCHEDULE", "AGE", "CONTAINERS", "IMAGES",
        "SELECTOR"}},
      {"services", {"NAME", "TYPE", "CLUSTER-IP", "EXTERNAL-IP", "PORT(S)", "AGE", "SELECTOR"}},
      {"ingresses", {"NAME", "CLASS", "HOSTS", "ADDRESS", "PORTS", "AGE"}},
      {"persistentvolumeclaims",
       {"NAME", "STATUS", "VOLUME", "CAPACITY", "ACCESS", "MODES", "STORAGECLASS", "VOLUMEATTRIBUTESCLASS", "AGE",
        "VOLUMEMODE"}},
      {"persistentvolumes",
       {"NAME", "CAPACITY", "ACCESS", "MODES", "RECLAIM", "POLICY", "STATUS", "CLAIM", "STORAGECLASS",
        "VOLUMEATTRIBUTESCLASS", "REASON", "AGE", "VOLUMEMODE"}},
      {"nodes",
       {"NAME", "STATUS", "ROLES", "AGE", "VERSION", "INTERNAL-IP", "EXTERNAL-IP", "OS-IMAGE", "KERNEL-VERSION",
        "CONTAINER-RUNTIME"}},
      {"namespaces", {"NAME", "STATUS", "AGE"}},
      {"configmaps", {"NAME", "DATA", "AGE"}},
      {"secrets", {"NAME", "TYPE", "DATA", "AGE"}},
      {"poddisruptionbudgets", {"NAME", "MIN", "AVAILABLE", "MAX", "UNAVAILABLE", "ALLOWED", "DISRUPTIONS", "AGE"}},
      {"roles", {"NAME", "CREATED", "AT"}},
      {"rolebindings", {"NAME", "ROLE", "AGE", "USERS", "GROUPS", "SERVICEACCOUNTS"}},
  };
  for (const auto& entry : expected) {
    const std::string kind = entry.first;  // not a structured binding: clang 14 cannot capture one
    const std::vector<std::string>& header = entry.second;
    CAPTURE(kind);
    const Run run = c.ok("-n shop get " + kind + " -o wide");
    INFO(run.output);
    CHECK(header_of(run) == header);
    CHECK(table_rows(run.output).size() >= 2);  // at least one object's row
  }
  // A few cells a stranger would look at first.
  CHECK(has_row(c.ok("-n shop get pvc claim").output, {"claim", "Pending"}));
  CHECK(has_row(c.ok("-n shop get ingress web").output, {"web", "<none>", "shop.example.com", "80"}));
  CHECK(has_row(c.ok("-n shop get statefulset kv").output, {"kv", "2/2"}));
  CHECK(has_row(c.ok("-n shop get job once").output, {"once", "Complete", "1/1"}));
}

TEST_CASE(
    "kubectl run: the ServiceAccount admission's volume and mount in get -o yaml; a missing account is Forbidden") {
  SKIP_WITHOUT_KUBECTL();
  SimulatedCluster c;
  c.ok("create namespace apps");
  // Straight after its namespace: the admission waits for the `default` account being made.
  c.ok("-n apps run web --image=nginx:1.25");
  const std::string yaml = c.ok("-n apps get pod web -o yaml").output;
  for (const char* part : {"serviceAccountName: default", "- mountPath: /var/run/secrets/kubernetes.io/serviceaccount",
                           "name: kube-api-access-", "readOnly: true", "defaultMode: 420", "expirationSeconds: 3607",
                           "name: kube-root-ca.crt", "fieldPath: metadata.namespace"}) {
    CAPTURE(part);
    CHECK(yaml.find(part) != std::string::npos);
  }
  const Run refused = c.kubectl(
      "-n apps run robot --image=nginx:1.25 --overrides='{\"spec\":{\"serviceAccountName\":\"robot\"}}'");
  INFO(refused.output);
  CHECK(refused.code != 0);
  CHECK(refused.output.find("pods \"robot\" is forbidden: error looking up service account apps/robot: serviceaccount "
                            "\"robot\" not found") != std::string::npos);
}

TEST_CASE("kubectl sees the API server's answer to a malformed resourceVersion") {
  SKIP_WITHOUT_KUBECTL();
  SimulatedCluster c;
  c.ok("create configmap settings --from-literal=mode=fast");
  const Run listed = c.kubectl("get --raw /api/v1/namespaces/default/configmaps?resourceVersion=abc");
  INFO(listed.output);
  CHECK(listed.code != 0);
  CHECK(
      listed.output.find(
          R"(Error from server: resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax)") !=
      std::string::npos);
  Json object = Json::parse(c.ok("get configmap settings -o json").output);
  object["metadata"]["resourceVersion"] = "-1";
  const Run replaced = c.kubectl("replace -f " + c.kubectl.write("cm.json", object.dump()));
  INFO(replaced.output);
  CHECK(replaced.code != 0);
  CHECK(replaced.output.find(R"(": strconv.ParseUint: parsing "-1": invalid syntax)") != std::string::npos);
}
