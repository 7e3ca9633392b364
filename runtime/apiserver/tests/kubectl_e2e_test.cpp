// Real kubectl (v1.32 on the machine image) against the local cluster. Each test serves its own
// cluster on an ephemeral port and points kubectl at a kubeconfig and cache in a temp directory.
#include <doctest/doctest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "kubectl_support.hpp"
#include "rr/apiserver/dev_certificates.hpp"
#include "test_server.hpp"

using namespace rr;
using namespace rr::apiserver_test;
using namespace std::chrono_literals;

TEST_CASE("kubectl applies a CRD and a custom resource (validation on), and reads it back as JSON") {
  SKIP_WITHOUT_KUBECTL();
  GizmoCluster g;
  g.install_crd();
  Run applied = g.kubectl("apply -f " + g.kubectl.write("g1.yaml", gizmo_yaml("g1", 3)));
  INFO(applied.output);
  REQUIRE(applied.code == 0);
  CHECK(applied.output.find("gizmo.test.rrgen.dev/g1 created") != std::string::npos);
  Run got = g.kubectl("get gz g1 -o json");
  REQUIRE(got.code == 0);
  const Json object = Json::parse(got.output);
  CHECK(object["spec"]["size"] == 3);
  CHECK(object["spec"]["color"] == "blue");
  CHECK(object["metadata"]["namespace"] == "default");
  CHECK(object["metadata"]["annotations"].contains("kubectl.kubernetes.io/last-applied-configuration"));
  // A second apply with a change goes through kubectl's merge patch.
  Run changed = g.kubectl("apply -f " + g.kubectl.write("g1.yaml", gizmo_yaml("g1", 5)));
  INFO(changed.output);
  CHECK(changed.code == 0);
  CHECK(Json::parse(g.kubectl("get gizmo g1 -o json").output)["spec"]["size"] == 5);
  Run listed = g.kubectl("get gizmos");
  CHECK(listed.output.find("g1") != std::string::npos);
}

namespace {

// Installs the CRD, applies gizmo g1, starts `kubectl <watch_args>` writing watch.out in the
// background, then sets g1's status through the C++ cluster.
void watch_then_update_status(GizmoCluster& g, const std::string& watch_args, const Json& status) {
  g.install_crd();
  REQUIRE(g.kubectl("apply -f " + g.kubectl.write("g1.yaml", gizmo_yaml("g1", 3))).code == 0);
  g.kubectl.background(watch_args, "watch.out", 10);
  std::this_thread::sleep_for(1500ms);  // kubectl has listed and is watching
  Json object = g.t.cluster->get(gizmo_kind(), {"default", "g1"});
  object["status"] = status;
  g.t.cluster->update_status(gizmo_kind(), object);
}

}  // namespace

TEST_CASE("kubectl get -w sees a status update made through the C++ cluster") {
  SKIP_WITHOUT_KUBECTL();
  GizmoCluster g;
  watch_then_update_status(g, "get gz g1 -w -o 'jsonpath={.status.phase}{\"\\n\"}'", {{"phase", "Ready"}});
  CHECK(eventually([&] { return g.kubectl.read("watch.out").find("Ready") != std::string::npos; }, 8s));
  INFO(g.kubectl.read("watch.out"));
}

TEST_CASE("kubectl get prints a CRD's printer columns from the server's Table") {
  SKIP_WITHOUT_KUBECTL();
  GizmoCluster g;
  g.install_crd();
  REQUIRE(g.kubectl("apply -f " + g.kubectl.write("g1.yaml", gizmo_yaml("g1", 3))).code == 0);
  REQUIRE(g.kubectl("apply -f " + g.kubectl.write("g2.yaml", gizmo_yaml("g2", 12))).code == 0);
  Json object = g.t.cluster->get(gizmo_kind(), {"default", "g1"});
  object["status"] = {{"conditions", Json::array({{{"type", "Synced"}, {"status", "False"}},
                                                  {{"type", "Ready"}, {"status", "True"}}})}};
  g.t.cluster->update_status(gizmo_kind(), object);

  Run listed = g.kubectl("get gizmos");
  INFO(listed.output);
  REQUIRE(listed.code == 0);
  const auto rows = table_rows(listed.output);
  REQUIRE(rows.size() == 3);
  // Color has priority 1: only with -o wide. A missing value is a null cell: kubectl prints nothing.
  CHECK(rows[0] == std::vector<std::string>{"NAME", "SIZE", "READY", "AGE"});
  REQUIRE(rows[1].size() == 4);
  CHECK(rows[1][0] == "g1");
  CHECK(rows[1][1] == "3");
  CHECK(rows[1][2] == "True");
  CHECK(rows[1][3].back() == 's');  // an age in seconds
  REQUIRE(rows[2].size() == 3);
  CHECK(rows[2][0] == "g2");
  CHECK(rows[2][1] == "12");
  CHECK(rows[2][2].back() == 's');

  Run wide = g.kubectl("get gz g1 -o wide");
  INFO(wide.output);
  CHECK(wide.output.find("COLOR") != std::string::npos);
  CHECK(wide.output.find("blue") != std::string::npos);
  // -A prints the namespace from the rows' PartialObjectMetadata; --sort-by asks for whole objects.
  Run all = g.kubectl("get gizmos -A --sort-by=.spec.size");
  INFO(all.output);
  CHECK(all.code == 0);
  CHECK(all.output.find("NAMESPACE") != std::string::npos);
  CHECK(all.output.find("default") != std::string::npos);
  CHECK(all.output.find("g1") < all.output.find("g2"));
  Run namespaces = g.kubectl("get namespaces");
  INFO(namespaces.output);
  const auto namespace_rows = table_rows(namespaces.output);
  REQUIRE_FALSE(namespace_rows.empty());
  CHECK(namespace_rows[0] == std::vector<std::string>{"NAME", "STATUS", "AGE"});
  CHECK(namespaces.output.find("kube-system") != std::string::npos);
}

const char* builtin_objects = R"(apiVersion: v1
kind: ConfigMap
metadata: {name: settings}
data: {a: "1", b: "2"}
---
apiVersion: v1
kind: Secret
metadata: {name: creds}
type: kubernetes.io/basic-auth
data: {username: YWRtaW4=, password: czNjcjN0}
---
apiVersion: v1
kind: Pod
metadata: {name: web-1}
spec:
  containers: [{name: app, image: nginx}]
---
apiVersion: v1
kind: Event
metadata: {name: web-1.backoff}
involvedObject: {kind: Pod, name: web-1, namespace: default}
type: Warning
reason: BackOff
message: Back-off restarting failed container
firstTimestamp: "2025-01-01T00:00:00Z"
lastTimestamp: "2025-01-01T00:00:00Z"
count: 4
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: reader}
rules: [{apiGroups: [""], resources: [pods], verbs: [get]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: read-pods}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: reader}
subjects:
- {kind: User, name: alice, apiGroup: rbac.authorization.k8s.io}
- {kind: ServiceAccount, name: bot, namespace: default}
)";

TEST_CASE("kubectl get prints the built-in kinds' columns from the server's Table") {
  SKIP_WITHOUT_KUBECTL();
  GizmoCluster g;
  Run applied = g.kubectl("apply -f " + g.kubectl.write("objects.yaml", builtin_objects));
  INFO(applied.output);
  REQUIRE(applied.code == 0);
  // The kubelet's report of a crashing container.
  const auto pod_kind = g.t.cluster->find_kind({"", "v1", "Pod"});
  REQUIRE(pod_kind);
  Json pod = g.t.cluster->get(*pod_kind, {"default", "web-1"});
  pod["status"] = Json::parse(R"({"phase": "Running", "containerStatuses": [{"name": "app", "ready": false,
    "restartCount": 3, "state": {"waiting": {"reason": "CrashLoopBackOff"}}}]})");
  g.t.cluster->update_status(*pod_kind, pod);

  const auto table = [&](const std::string& args) {
    Run run = g.kubectl(args);
    INFO(args << "\n" << run.output);
    CHECK(run.code == 0);
    return table_rows(run.output);
  };
  // Two kinds: a table each, names prefixed with the kind.
  const auto data = table("get configmap,secret -o wide");
  REQUIRE(data.size() >= 5);
  CHECK(data[0] == std::vector<std::string>{"NAME", "DATA", "AGE"});
  CHECK(data[1].at(0) == "configmap/settings");
  CHECK(data[1].at(1) == "2");
  CHECK(std::find(data.begin(), data.end(), std::vector<std::string>{"NAME", "TYPE", "DATA", "AGE"}) != data.end());
  CHECK(data.back().at(0) == "secret/creds");
  CHECK(data.back().at(1) == "kubernetes.io/basic-auth");
  CHECK(data.back().at(2) == "2");

  const auto pods = table("get pods -o wide");
  REQUIRE(pods.size() == 2);
  CHECK(pods[0] == std::vector<std::string>{"NAME", "READY", "STATUS", "RESTARTS", "AGE", "IP", "NODE", "NOMINATED",
                                            "NODE", "READINESS", "GATES"});
  REQUIRE(pods[1].size() == 9);
  CHECK(pods[1][1] == "0/1");
  CHECK(pods[1][2] == "CrashLoopBackOff");
  CHECK(pods[1][3] == "3");
  CHECK(pods[1][5] == "<none>");

  const auto events = table("get events");
  REQUIRE(events.size() == 2);
  CHECK(events[0] == std::vector<std::string>{"LAST", "SEEN", "TYPE", "REASON", "OBJECT", "MESSAGE"});
  CHECK(std::vector<std::string>(events[1].begin() + 1, events[1].end()) ==
        std::vector<std::string>{"Warning", "BackOff", "pod/web-1", "Back-off", "restarting", "failed", "container"});

  const auto roles = table("get roles");
  REQUIRE(roles.size() == 2);
  CHECK(roles[0] == std::vector<std::string>{"NAME", "CREATED", "AT"});
  CHECK(roles[1].at(0) == "reader");
  CHECK(roles[1].at(1).back() == 'Z');  // an RFC 3339 time, not an age

  const auto bindings = table("get rolebindings -o wide");
  REQUIRE(bindings.size() == 2);
  CHECK(bindings[0] == std::vector<std::string>{"NAME", "ROLE", "AGE", "USERS", "GROUPS", "SERVICEACCOUNTS"});
  REQUIRE(bindings[1].size() == 5);  // no groups: an empty cell
  CHECK(bindings[1][1] == "Role/reader");
  CHECK(bindings[1][3] == "alice");
  CHECK(bindings[1][4] == "default/bot");
}

TEST_CASE("kubectl get -w prints Table rows as objects change") {
  SKIP_WITHOUT_KUBECTL();
  GizmoCluster g;
  watch_then_update_status(g, "get gizmos -w", {{"conditions", Json::array({{{"type", "Ready"}, {"status", "True"}}})}});
  CHECK(eventually([&] { return g.kubectl.read("watch.out").find("True") != std::string::npos; }, 8s));
  const std::string out = g.kubectl.read("watch.out");
  INFO(out);
  // The header once, then a row per event.
  CHECK(out.find("READY") != std::string::npos);
  CHECK(out.find("READY") == out.rfind("READY"));
  CHECK(out.find("g1") != out.rfind("g1"));
}

TEST_CASE("kubectl apply --server-side") {
  SKIP_WITHOUT_KUBECTL();
  GizmoCluster g;
  g.install_crd();
  Run applied = g.kubectl("apply --server-side -f " + g.kubectl.write("g1.yaml", gizmo_yaml("g1", 3)));
  INFO(applied.output);
  CHECK(applied.code == 0);
  CHECK(applied.output.find("serverside-applied") != std::string::npos);
  const Json object = Json::parse(g.kubectl("get gz g1 -o json --show-managed-fields").output);
  CHECK(object["spec"]["size"] == 3);
  bool kubectl_manages = false;
  if (object["metadata"].contains("managedFields")) {
    for (const Json& entry : object["metadata"]["managedFields"]) kubectl_manages |= entry["manager"] == "kubectl";
  }
  CHECK(kubectl_manages);
}

TEST_CASE("kubectl delete waits until a finalizer is removed") {
  SKIP_WITHOUT_KUBECTL();
  GizmoCluster g;
  g.install_crd();
  REQUIRE(g.kubectl("apply -f " + g.kubectl.write("g2.yaml", gizmo_yaml("g2", 1, "  finalizers: [test.rrgen.dev/hold]\n"))).code == 0);
  std::thread release([&] {
    std::this_thread::sleep_for(1500ms);
    g.t.cluster->patch(gizmo_kind(), {"default", "g2"}, PatchType::Merge, R"({"metadata":{"finalizers":null}})");
  });
  const auto started = std::chrono::steady_clock::now();
  Run deleted = g.kubectl("delete gz g2 --timeout=20s");
  const auto took = std::chrono::steady_clock::now() - started;
  release.join();
  INFO(deleted.output);
  CHECK(deleted.code == 0);
  CHECK(took >= 1400ms);
  Run after = g.kubectl("get gz g2");
  CHECK(after.code != 0);
  CHECK(after.output.find("NotFound") != std::string::npos);
}

TEST_CASE("kubectl delete of an owner: its children are garbage-collected") {
  SKIP_WITHOUT_KUBECTL();
  GizmoCluster g;
  g.install_crd();
  REQUIRE(g.kubectl("apply -f " + g.kubectl.write("parent.yaml", gizmo_yaml("parent", 1))).code == 0);
  const Json parent = g.t.cluster->get(gizmo_kind(), {"default", "parent"});
  const KindInfo cm = *g.t.cluster->find_kind({"", "v1", "ConfigMap"});
  g.t.cluster->create(cm, Json{{"apiVersion", "v1"},
                               {"kind", "ConfigMap"},
                               {"metadata",
                                {{"name", "child"},
                                 {"namespace", "default"},
                                 {"ownerReferences", Json::array({{{"apiVersion", "test.rrgen.dev/v1"},
                                                                   {"kind", "Gizmo"},
                                                                   {"name", "parent"},
                                                                   {"uid", parent["metadata"]["uid"]},
                                                                   {"controller", true}}})}}}});
  REQUIRE(g.kubectl("get cm child").code == 0);
  Run deleted = g.kubectl("delete gizmo parent");
  INFO(deleted.output);
  CHECK(deleted.code == 0);
  CHECK(eventually([&] { return g.kubectl("get cm child").output.find("NotFound") != std::string::npos; }, 5s));
}

TEST_CASE("kubectl over TLS with the generated CA and a client certificate") {
  SKIP_WITHOUT_KUBECTL();
  const DevCertificates certs = make_dev_certificates();
  ApiServerOptions options;
  options.tls = tls_options(certs);
  options.kubeconfig_user = kubeconfig_user(certs);
  TestServer t(options);
  Kubectl kubectl(*t.server);
  Run namespaces = kubectl("get ns -o name");
  INFO(namespaces.output);
  CHECK(namespaces.code == 0);
  CHECK(namespaces.output.find("namespace/kube-system") != std::string::npos);
  const std::string cm = kubectl.write("cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: tls-cm\ndata:\n  a: b\n");
  Run applied = kubectl("apply -f " + cm);
  INFO(applied.output);
  CHECK(applied.code == 0);
  CHECK(kubectl("get cm tls-cm -o jsonpath={.data.a}").output == "b");

  KubeconfigUser nobody;
  nobody.name = "nobody";
  Kubectl anonymous(*t.server, &nobody);
  Run refused = anonymous("get ns < /dev/null");
  CHECK(refused.code != 0);
}

// kubectl sends credentials only over TLS (clientcmd ignores a user's auth info for http://).
TEST_CASE("kubectl with a bearer token over TLS") {
  SKIP_WITHOUT_KUBECTL();
  const DevCertificates certs = make_dev_certificates();
  ApiServerOptions options;
  options.tls = token_only_tls(certs);
  options.bearer_tokens = {"e2e-token"};
  TestServer t(options);
  Kubectl kubectl(*t.server);
  Run namespaces = kubectl("get ns default -o name");
  INFO(namespaces.output);
  CHECK(namespaces.code == 0);
  CHECK(namespaces.output == "namespace/default\n");
  KubeconfigUser wrong;
  wrong.token = "not-the-token";
  Kubectl stranger(*t.server, &wrong);
  Run refused = stranger("get ns < /dev/null");
  CHECK(refused.code != 0);
}
