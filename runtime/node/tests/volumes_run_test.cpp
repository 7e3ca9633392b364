// Volumes in real containers (root: bind mounts inside the container's mount namespace):
// configMap and secret files, an emptyDir two containers share, readOnly mounts, FailedMount,
// and the ServiceAccount token volume at /var/run/secrets/kubernetes.io/serviceaccount.
#include <doctest/doctest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <mutex>
#include <thread>

#include "agent_options.hpp"
#include "rr/client/api_error.hpp"
#include "rr/cluster/cluster.hpp"
#include "rr/kube_controllers/service_account_admission.hpp"
#include "rr/node/node_agent.hpp"
#include "test_image.hpp"

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using rr::Json;

namespace volumes_run_test {

const rr::KindInfo pod_kind{{"", "v1", "Pod"}, "pods", "PodList", rr::Scope::Namespaced, true};

// An agent over an in-memory cluster that also serves ConfigMaps, Secrets and Events.
struct VolumeNode {
  fs::path dir;
  std::shared_ptr<rr::Cluster> cluster = std::make_shared<rr::Cluster>();
  std::unique_ptr<rr::node::NodeAgent> agent;
  std::mutex mutex;
  std::vector<std::string> lines;  // the agent's log

  VolumeNode() {
    std::string pattern = (fs::temp_directory_path() / "rr-node-volumes-run-XXXXXX").string();
    dir = ::mkdtemp(pattern.data());
    cluster->register_kind(pod_kind);
    for (const auto& [kind, plural] : {std::pair{"ConfigMap", "configmaps"}, std::pair{"Secret", "secrets"},
                                       std::pair{"Event", "events"}, std::pair{"ServiceAccount", "serviceaccounts"}}) {
      cluster->register_kind(
          rr::KindInfo{{"", "v1", kind}, plural, std::string(kind) + "List", rr::Scope::Namespaced, false});
    }
  }
  ~VolumeNode() {
    agent.reset();
    fs::remove_all(dir);
  }

  bool start(rr::node::TokenMinter minter = {}, bool namespaces = true) {
    auto made = node_test::test_agent_options(dir, namespaces);
    if (!made) return false;
    rr::node::NodeAgentOptions options = *made;
    options.mint_token = std::move(minter);
    options.ca_pem = "test CA";
    options.log = [this](const std::string& line) {
      std::lock_guard lock(mutex);
      lines.push_back(line);
    };
    agent = std::make_unique<rr::node::NodeAgent>(cluster, options);
    return true;
  }

  void object(const char* kind, const std::string& name, Json fields) {
    Json o = {{"apiVersion", "v1"}, {"kind", kind}, {"metadata", {{"name", name}, {"namespace", "default"}}}};
    o.update(fields);
    cluster->create(*cluster->find_kind({"", "v1", kind}), o);
  }

  void pod(const std::string& name, Json spec) {
    spec["restartPolicy"] = "Never";
    for (Json& c : spec["containers"]) c["image"] = "app:v1";
    cluster->create(pod_kind, Json{{"apiVersion", "v1"},
                                   {"kind", "Pod"},
                                   {"metadata", {{"name", name}, {"namespace", "default"}}},
                                   {"spec", spec}});
  }

  Json wait(const std::string& name, const std::function<bool(const Json&)>& ready) {
    const auto deadline = std::chrono::steady_clock::now() + 10s;
    Json last;
    while (std::chrono::steady_clock::now() < deadline) {
      try {
        last = cluster->get(pod_kind, {"default", name});
      } catch (const rr::ApiError&) {
        last = nullptr;  // gone
      }
      if (ready(last)) return last;
      std::this_thread::sleep_for(20ms);
    }
    FAIL_CHECK("timed out waiting for pod " << name << "; last seen: " << last.dump());
    return last;
  }

  std::string logs(const std::string& name, const std::string& container) {
    rr::node::PodLogOptions options;
    options.container = container;
    auto stream = agent->open(cluster->get(pod_kind, {"default", name}), options);
    if (!stream) return "<no stream>";
    std::string out;
    while (stream->next(out, 200ms)) {
    }
    return out;
  }

  bool logged(const std::string& part) {
    std::lock_guard lock(mutex);
    for (const auto& l : lines) {
      if (l.find(part) != std::string::npos) return true;
    }
    return false;
  }
};

bool has_phase(const Json& pod, const char* phase) {
  return pod.value("/status/phase"_json_pointer, std::string()) == phase;
}

}  // namespace volumes_run_test

using namespace volumes_run_test;

TEST_CASE("volumes in containers: configMap and secret files and modes, a shared emptyDir, readOnly refuses writes, "
          "nested mounts") {
  SKIP_WITHOUT_CONTAINERS();
  VolumeNode node;
  REQUIRE(node.start());
  node.object("ConfigMap", "settings", {{"data", {{"mode", "fast"}, {"level", "3"}}}});
  node.object("Secret", "creds", {{"data", {{"password", "aHVudGVyMg=="}}}});
  node.pod("vols", Json::parse(R"J({
    "automountServiceAccountToken": false,
    "volumes": [
      {"name": "cfg", "configMap": {"name": "settings"}},
      {"name": "sec", "secret": {"secretName": "creds", "items": [{"key": "password", "path": "pw", "mode": 256}]}},
      {"name": "scratch", "emptyDir": {}}
    ],
    "containers": [
      {"name": "a", "args": ["cat:/etc/app/mode", "mode:/etc/app/mode", "cat:/etc/creds/pw", "mode:/etc/creds/pw",
                             "write:/shared/from-a", "write:/etc/app/new", "write:/ro/x", "cat:/one/level",
                             "cat:/shared/cfg/level"],
       "volumeMounts": [{"name": "cfg", "mountPath": "/shared/cfg"}, {"name": "cfg", "mountPath": "/etc/app"}, {"name": "sec", "mountPath": "/etc/creds"},
                        {"name": "scratch", "mountPath": "/shared"},
                        {"name": "scratch", "mountPath": "/ro", "readOnly": true},
                        {"name": "cfg", "mountPath": "/one/level", "subPath": "level"}]},
      {"name": "b", "args": ["sleep:1500", "mode:/data/from-a", "mode:/var/run/secrets/kubernetes.io/serviceaccount"],
       "volumeMounts": [{"name": "scratch", "mountPath": "/data"}]}
    ]})J"));
  const Json done = node.wait("vols",
                              [](const Json& p) { return has_phase(p, "Succeeded") || has_phase(p, "Failed"); });
  CHECK(node.logs("vols", "a") == "fast\n644\nhunter2\n400\nwrite-ok\nwrite-failed\nwrite-failed\n3\n3\n");
  const std::string b = node.logs("vols", "b");
  CHECK(b.rfind("missing\n") == b.size() - 8);  // no token volume: automount is off
  CHECK(b.substr(0, 7) != "missing");           // a's file, through the shared emptyDir
  // The emptyDir goes with the pod.
  const fs::path scratch = node.dir / "state" / "pods" /
                           ("default_vols_" + done["metadata"]["uid"].get<std::string>()) / "volumes" / "scratch";
  CHECK(fs::exists(scratch / "from-a"));
  node.cluster->remove(pod_kind, {"default", "vols"});
  node.wait("vols", [](const Json& p) { return p.is_null(); });
  CHECK_FALSE(fs::exists(scratch));
}

TEST_CASE("a missing ConfigMap: ContainerCreating with a FailedMount event until it exists") {
  SKIP_WITHOUT_CONTAINERS();
  VolumeNode node;
  REQUIRE(node.start());
  node.pod("waits", Json::parse(R"J({"volumes": [{"name": "cfg", "configMap": {"name": "later"}}],
    "containers": [{"name": "main", "args": ["cat:/cfg/k"], "volumeMounts": [{"name": "cfg", "mountPath": "/cfg"}]}]})J"));
  std::this_thread::sleep_for(500ms);
  const Json waiting = node.cluster->get(pod_kind, {"default", "waits"});
  CHECK(waiting["status"]["phase"] == "Pending");
  CHECK(waiting["status"]["containerStatuses"][0]["state"] == Json{{"waiting", {{"reason", "ContainerCreating"}}}});
  const auto events = node.cluster->list(*node.cluster->find_kind({"", "v1", "Event"}), {});
  REQUIRE(events["items"].size() >= 1);
  const Json& event = events["items"][0];
  CHECK(event["reason"] == "FailedMount");
  CHECK(event["type"] == "Warning");
  CHECK(event["involvedObject"]["name"] == "waits");
  CHECK(event["message"] == "MountVolume.SetUp failed for volume \"cfg\" : configmap \"later\" not found");
  node.object("ConfigMap", "later", {{"data", {{"k", "v"}}}});
  node.wait("waits", [](const Json& p) { return has_phase(p, "Succeeded"); });
  CHECK(node.logs("waits", "main") == "v\n");
}

TEST_CASE("the ServiceAccount token volume: token, ca.crt and namespace under /var/run/secrets/kubernetes.io") {
  SKIP_WITHOUT_CONTAINERS();
  VolumeNode node;
  Json request;
  std::mutex mutex;
  REQUIRE(node.start([&](const std::string& ns, const std::string& account, const Json& r) {
    std::lock_guard lock(mutex);
    request = r;
    return Json{{"spec", r["spec"]}, {"status", {{"token", "minted-for-" + ns + "-" + account}}}};
  }));
  node.object("ServiceAccount", "default", Json::object());
  node.pod("sa", Json::parse(R"J({"containers": [{"name": "main", "args": [
    "cat:/var/run/secrets/kubernetes.io/serviceaccount/token", "cat:/var/run/secrets/kubernetes.io/serviceaccount/ca.crt",
    "cat:/var/run/secrets/kubernetes.io/serviceaccount/namespace", "write:/var/run/secrets/kubernetes.io/serviceaccount/x"]}]})J"));
  const Json done = node.wait("sa", [](const Json& p) { return has_phase(p, "Succeeded"); });
  CHECK(node.logs("sa", "main") == "minted-for-default-default\ntest CA\ndefault\nwrite-failed\n");
  std::lock_guard lock(mutex);
  CHECK(request["spec"]["boundObjectRef"]["uid"] == done["metadata"]["uid"]);
}

TEST_CASE(
    "a pod admitted by the ServiceAccount plugin reads its token and namespace from its own kube-api-access volume") {
  SKIP_WITHOUT_CONTAINERS();
  VolumeNode node;
  node.cluster->set_admission_plugin(std::make_shared<rr::kube_controllers::ServiceAccountAdmission>());
  std::mutex mutex;
  int minted = 0;
  REQUIRE(node.start([&](const std::string& ns, const std::string& account, const Json& r) {
    std::lock_guard lock(mutex);
    ++minted;
    return Json{{"spec", r["spec"]}, {"status", {{"token", "minted-for-" + ns + "-" + account}}}};
  }));
  node.object("ServiceAccount", "default", Json::object());
  node.pod("admitted", Json::parse(R"J({"containers": [{"name": "main", "args": [
    "cat:/var/run/secrets/kubernetes.io/serviceaccount/token",
    "cat:/var/run/secrets/kubernetes.io/serviceaccount/namespace"]}]})J"));
  const Json done = node.wait("admitted", [](const Json& p) { return has_phase(p, "Succeeded"); });
  // The mount is the admission's: its volume in the pod, mounted read-only at the standard path.
  REQUIRE(done["spec"]["volumes"].size() == 1);
  const std::string volume = done["spec"]["volumes"][0]["name"];
  CHECK(volume.rfind("kube-api-access-", 0) == 0);
  CHECK(done["spec"]["containers"][0]["volumeMounts"] ==
        Json::array(
            {{{"name", volume}, {"readOnly", true}, {"mountPath", "/var/run/secrets/kubernetes.io/serviceaccount"}}}));
  CHECK(node.logs("admitted", "main") == "minted-for-default-default\ndefault\n");
  std::lock_guard lock(mutex);
  CHECK(minted == 1);  // the agent added no token volume of its own
}

TEST_CASE("not root (no namespaces): volumes are written but not mounted, and the agent says so") {
  SKIP_WITHOUT_CONTAINERS();
  VolumeNode node;
  REQUIRE(node.start({}, false));
  node.pod("plain", Json::parse(R"J({"volumes": [{"name": "scratch", "emptyDir": {}}],
    "containers": [{"name": "main", "args": ["mode:/scratch"], "volumeMounts": [{"name": "scratch", "mountPath": "/scratch"}]}]})J"));
  node.wait("plain", [](const Json& p) { return has_phase(p, "Succeeded"); });
  CHECK(node.logs("plain", "main") == "missing\n");
  CHECK(node.logged("volumes are written under"));
}
