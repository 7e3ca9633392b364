// Real pods: the agent over an in-memory cluster runs containers from an image made with umoci
// (root only: namespaces, overlay, chroot). Each case waits on the statuses the agent writes.
#include <arpa/inet.h>
#include <doctest/doctest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <memory>
#include <thread>

#include "agent_options.hpp"
#include "rr/client/api_error.hpp"
#include "rr/cluster/cluster.hpp"
#include "rr/node/node_agent.hpp"
#include "test_image.hpp"

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using rr::Json;

namespace {

const rr::KindInfo pods{{"", "v1", "Pod"}, "pods", "PodList", rr::Scope::Namespaced, true};
const rr::KindInfo config_maps{{"", "v1", "ConfigMap"}, "configmaps", "ConfigMapList", rr::Scope::Namespaced, false};
const rr::KindInfo secrets{{"", "v1", "Secret"}, "secrets", "SecretList", rr::Scope::Namespaced, false};

struct Node {
  fs::path dir;
  std::shared_ptr<rr::Cluster> cluster = std::make_shared<rr::Cluster>();
  std::unique_ptr<rr::node::NodeAgent> agent;

  Node() {
    std::string pattern = (fs::temp_directory_path() / "rr-node-run-XXXXXX").string();
    dir = ::mkdtemp(pattern.data());
    cluster->register_kind(pods);
    cluster->register_kind(config_maps);
    cluster->register_kind(secrets);
  }
  ~Node() {
    agent.reset();
    fs::remove_all(dir);
  }

  // `namespaces` false: plain processes, the image holding a dynamic program and its libraries.
  bool start(bool namespaces = true) {
    auto made = node_test::test_agent_options(dir, namespaces);
    if (!made) return false;
    rr::node::NodeAgentOptions options = *made;
    options.service_port = 6443;
    options.backoff_base = 300ms;
    options.backoff_max = 1200ms;
    options.log = [](const std::string&) {};
    agent = std::make_unique<rr::node::NodeAgent>(cluster, options);
    return true;
  }

  Json pod(const std::string& name, Json container, const std::string& restart_policy = "Never",
           Json extra = Json::object()) {
    container["name"] = "main";
    if (!container.contains("image")) container["image"] = "app:v1";
    Json spec = {{"restartPolicy", restart_policy}, {"containers", Json::array({container})}};
    spec.update(extra);
    return cluster->create(pods, Json{{"apiVersion", "v1"},
                                      {"kind", "Pod"},
                                      {"metadata", {{"name", name}, {"namespace", "default"}}},
                                      {"spec", spec}});
  }

  // The pod once `ready(pod)` holds (polls for up to `timeout`); the last seen pod otherwise.
  Json wait(const std::string& name, const std::function<bool(const Json&)>& ready,
            std::chrono::milliseconds timeout = 10s) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    Json last;
    while (std::chrono::steady_clock::now() < deadline) {
      try {
        last = cluster->get(pods, {"default", name});
        if (ready(last)) return last;
      } catch (const rr::ApiError&) {
        last = nullptr;
        if (ready(last)) return last;
      }
      std::this_thread::sleep_for(20ms);
    }
    FAIL_CHECK("timed out waiting for pod " << name << "; last seen: " << last.dump());
    return last;
  }

  std::string logs(const Json& pod, rr::node::PodLogOptions options = {}) {
    auto stream = agent->open(pod, options);
    if (!stream) return "<no stream>";
    std::string out;
    while (stream->next(out, 200ms)) {
    }
    return out;
  }
};

using node_test::free_port;

bool condition_is(const Json& pod, const std::string& type, const std::string& status) {
  for (const Json& c : pod.value("/status/conditions"_json_pointer, Json::array())) {
    if (c.value("type", "") == type) return c.value("status", "") == status;
  }
  return false;
}

std::function<bool(const Json&)> phase(const std::string& p) {
  return
      [p](const Json& pod) { return pod.is_object() && pod.value("/status/phase"_json_pointer, std::string()) == p; };
}

Json status_of(const Json& pod) { return pod.at("/status/containerStatuses/0"_json_pointer); }

}  // namespace

TEST_CASE("a pod of a node image runs to completion in its own namespaces, as the kubelet reports it") {
  SKIP_WITHOUT_CONTAINERS();
  Node node;
  REQUIRE(node.start());
  const Json created = node.pod(
      "hello", {{"args",
                 {"print:hello", "env:IMAGE_VAR", "env:POD", "env:KUBERNETES_SERVICE_PORT", "pwd", "pid", "id",
                  "hostname", "err:to-stderr", "sleep:300"}},
                {"env", {{{"name", "POD"}, {"valueFrom", {{"fieldRef", {{"fieldPath", "metadata.name"}}}}}}}}});
  CHECK(node.agent->runs(created));
  const Json running = node.wait("hello", phase("Running"));
  CHECK(status_of(running).contains("/state/running/startedAt"_json_pointer));
  CHECK(running.value("/spec/nodeName"_json_pointer, std::string()) == "rrgen-node");
  const Json pod = node.wait("hello", phase("Succeeded"));
  const Json s = status_of(pod);
  CHECK(s["state"]["terminated"]["exitCode"] == 0);
  CHECK(s["state"]["terminated"]["reason"] == "Completed");
  CHECK(s["ready"] == false);
  CHECK(s["restartCount"] == 0);
  CHECK(s["image"] == "docker.io/library/app:v1");
  CHECK(s["imageID"].get<std::string>().rfind("docker.io/library/app@sha256:", 0) == 0);
  CHECK(s["containerID"].get<std::string>().rfind("rrgen://", 0) == 0);
  CHECK(pod["status"]["podIP"].get<std::string>().rfind("10.88.", 0) == 0);  // its own (node_network_test.cpp)
  for (const Json& c : pod["status"]["conditions"]) {
    if (c["type"] == "Ready") CHECK(c["reason"] == "PodCompleted");
  }
  CHECK(node.logs(pod) ==
        "hello\nIMAGE_VAR=from-image\nPOD=hello\nKUBERNETES_SERVICE_PORT=6443\n/work\npid=1\nuid=0 gid=0\n"
        "hostname=hello HOSTNAME=hello\nto-stderr\n");
  rr::node::PodLogOptions tail;
  tail.tail_lines = 2;
  CHECK(node.logs(pod, tail) == "hostname=hello HOSTNAME=hello\nto-stderr\n");
  rr::node::PodLogOptions stamped;
  stamped.timestamps = true;
  stamped.tail_lines = 1;
  const std::string line = node.logs(pod, stamped);
  CHECK(line.size() > 31);
  CHECK(line.substr(line.size() - 10) == "to-stderr\n");
  CHECK(line[4] == '-');
}

TEST_CASE("exit codes: a failed container fails a Never pod") {
  SKIP_WITHOUT_CONTAINERS();
  Node node;
  REQUIRE(node.start());
  node.pod("fails", {{"args", {"exit:3"}}});
  const Json s = status_of(node.wait("fails", phase("Failed")));
  CHECK(s["state"]["terminated"]["exitCode"] == 3);
  CHECK(s["state"]["terminated"]["reason"] == "Error");
}

TEST_CASE("restartPolicy Always: restarts with the kubelet's back-off, CrashLoopBackOff between, previous logs") {
  SKIP_WITHOUT_CONTAINERS();
  Node node;
  REQUIRE(node.start());
  node.pod("crash", {{"args", {"print:run", "exit:1"}}}, "Always");
  const Json looping = node.wait("crash", [](const Json& pod) {
    return pod.value("/status/containerStatuses/0/state/waiting/reason"_json_pointer, std::string()) ==
           "CrashLoopBackOff";
  });
  const Json s = status_of(looping);
  CHECK(s["restartCount"].get<int>() >= 1);
  CHECK(s["lastState"]["terminated"]["exitCode"] == 1);
  CHECK(s["state"]["waiting"]["message"].get<std::string>().find(
            "restarting failed container=main pod=crash_default(") != std::string::npos);
  CHECK(looping["status"]["phase"] == "Running");
  const auto started = std::chrono::steady_clock::now();
  node.wait("crash",
            [](const Json& pod) { return pod.value("/status/containerStatuses/0/restartCount"_json_pointer, 0) >= 3; });
  // Restarts 1, 2, 3 come after 0 + 300 ms + 600 ms of back-off at least.
  CHECK(std::chrono::steady_clock::now() - started >= 500ms);
  rr::node::PodLogOptions previous;
  previous.previous = true;
  CHECK(node.logs(node.cluster->get(pods, {"default", "crash"}), previous) == "run\n");
}

TEST_CASE("OnFailure restarts a failing container, not a succeeding one; Never restarts none") {
  SKIP_WITHOUT_CONTAINERS();
  Node node;
  REQUIRE(node.start());
  node.pod("ok", {{"args", {"exit:0"}}}, "OnFailure");
  CHECK(status_of(node.wait("ok", phase("Succeeded")))["restartCount"] == 0);
  node.pod("retried", {{"args", {"exit:1"}}}, "OnFailure");
  const Json retried = node.wait("retried", [](const Json& pod) {
    return pod.value("/status/containerStatuses/0/restartCount"_json_pointer, 0) >= 1;
  });
  CHECK(retried["status"]["phase"] == "Running");  // restarting: the kubelet's getPhase
  node.pod("once", {{"args", {"exit:1"}}}, "Never");
  CHECK(status_of(node.wait("once", phase("Failed")))["restartCount"] == 0);
}

TEST_CASE("deleting a pod: SIGTERM, the grace period, then the object goes") {
  SKIP_WITHOUT_CONTAINERS();
  Node node;
  REQUIRE(node.start());
  node.pod("graceful", {{"args", {"term:0", "print:up", "wait"}}}, "Always", {{"terminationGracePeriodSeconds", 10}});
  node.wait("graceful", phase("Running"));
  std::this_thread::sleep_for(200ms);  // the program installs its handler
  const Json before = node.cluster->get(pods, {"default", "graceful"});
  const auto started = std::chrono::steady_clock::now();
  node.cluster->remove(pods, {"default", "graceful"});
  // Terminating until the container stopped: the agent's finalizer holds it.
  node.wait(
      "graceful", [](const Json& pod) { return pod.is_null(); }, 8s);
  CHECK(std::chrono::steady_clock::now() - started < 5s);
  rr::node::PodLogOptions options;
  // The worker is gone with the pod: the log went with it.
  CHECK(node.agent->open(before, options) == nullptr);

  // A program that ignores SIGTERM (PID 1 without a handler) is killed once the grace period ends.
  node.pod("stubborn", {{"args", {"wait"}}}, "Always", {{"terminationGracePeriodSeconds", 1}});
  node.wait("stubborn", phase("Running"));
  const auto t0 = std::chrono::steady_clock::now();
  node.cluster->remove(pods, {"default", "stubborn"});
  CHECK(node.cluster->get(pods, {"default", "stubborn"}).contains("/metadata/deletionTimestamp"_json_pointer));
  node.wait(
      "stubborn", [](const Json& pod) { return pod.is_null(); }, 8s);
  CHECK(std::chrono::steady_clock::now() - t0 >= 900ms);
}

TEST_CASE("errors as the kubelet reports them: image pull, missing command, runAsNonRoot, config") {
  SKIP_WITHOUT_CONTAINERS();
  Node node;
  REQUIRE(node.start());
  node.pod("nopull", {{"image", "app:v2"}});
  const Json pulled = node.wait("nopull", [](const Json& pod) {
    return pod.value("/status/containerStatuses/0/state/waiting/reason"_json_pointer, std::string()) ==
           "ImagePullBackOff";
  });
  CHECK(pulled["status"]["phase"] == "Pending");
  CHECK(status_of(pulled)["state"]["waiting"]["message"] ==
        "Back-off pulling image \"app:v2\": ErrImagePull: rpc error: code = NotFound desc = failed to pull and unpack "
        "image \"docker.io/library/app:v2\": failed to resolve reference \"docker.io/library/app:v2\": "
        "docker.io/library/app:v2: not found");

  node.pod("nocommand", {{"command", {"/bin/nope"}}});
  const Json created = node.wait("nocommand", [](const Json& pod) {
    return pod.value("/status/containerStatuses/0/state/waiting/reason"_json_pointer, std::string()) ==
           "CreateContainerError";
  });
  CHECK(status_of(created)["state"]["waiting"]["message"] ==
        "exec: \"/bin/nope\": stat /bin/nope: no such file or directory");

  node.pod("nonroot", {{"securityContext", {{"runAsNonRoot", true}}}});
  const Json refused = node.wait("nonroot", [](const Json& pod) {
    return pod.value("/status/containerStatuses/0/state/waiting/reason"_json_pointer, std::string()) ==
           "CreateContainerConfigError";
  });
  const std::string uid = refused["metadata"]["uid"];
  CHECK(status_of(refused)["state"]["waiting"]["message"] ==
        "container has runAsNonRoot and image will run as root (pod: \"nonroot_default(" + uid +
            ")\", container: main)");

  node.pod("nokey",
           {{"env", {{{"name", "X"}, {"valueFrom", {{"configMapKeyRef", {{"name", "absent"}, {"key", "k"}}}}}}}}});
  const Json config = node.wait("nokey", [](const Json& pod) {
    return pod.value("/status/containerStatuses/0/state/waiting/reason"_json_pointer, std::string()) ==
           "CreateContainerConfigError";
  });
  CHECK(status_of(config)["state"]["waiting"]["message"] == "configmap \"absent\" not found");
}

TEST_CASE("users and the read-only root filesystem") {
  SKIP_WITHOUT_CONTAINERS();
  Node node;
  REQUIRE(node.start());
  node.pod("user", {{"args", {"id", "write:/made"}}, {"securityContext", {{"runAsUser", 1234}, {"runAsGroup", 4321}}}});
  CHECK(node.logs(node.wait("user", phase("Succeeded"))) == "uid=1234 gid=4321\nwrite-failed\n");  // / is root's
  node.pod("named", {{"args", {"id"}}, {"securityContext", {{"runAsNonRoot", false}}}}, "Never");
  CHECK(node.logs(node.wait("named", phase("Succeeded"))) == "uid=0 gid=0\n");
  node.pod("readonly", {{"args", {"write:/tmp-file"}}, {"securityContext", {{"readOnlyRootFilesystem", true}}}});
  CHECK(node.logs(node.wait("readonly", phase("Succeeded"))) == "write-failed\n");
  node.pod("writable", {{"args", {"write:/tmp-file"}}});
  CHECK(node.logs(node.wait("writable", phase("Succeeded"))) == "write-ok\n");
}

TEST_CASE("pods of other images are not the agent's") {
  SKIP_WITHOUT_CONTAINERS();
  Node node;
  REQUIRE(node.start());
  const Json other = node.pod("nginx", {{"image", "nginx:1.25"}});
  CHECK_FALSE(node.agent->runs(other));
  CHECK(node.agent->predicate()(other) == false);
  std::this_thread::sleep_for(300ms);
  CHECK_FALSE(node.cluster->get(pods, {"default", "nginx"}).contains("status"));
  CHECK(node.agent->open(other, {}) == nullptr);
  // A workload's pod of a node image is the agent's too, whoever its controller is.
  Json owned = {{"apiVersion", "v1"},
                {"kind", "Pod"},
                {"metadata",
                 {{"name", "web-0"},
                  {"namespace", "default"},
                  {"ownerReferences", Json::array({{{"apiVersion", "apps/v1"},
                                                    {"kind", "StatefulSet"},
                                                    {"name", "web"},
                                                    {"uid", "u"},
                                                    {"controller", true}}})}}},
                {"spec", {{"containers", Json::array({{{"name", "main"}, {"image", "app:v1"}}})}}}};
  CHECK(node.agent->runs(owned));
  owned["metadata"]["ownerReferences"][0]["kind"] = "Database";
  owned["metadata"]["ownerReferences"][0]["apiVersion"] = "example.com/v1";
  CHECK(node.agent->runs(owned));
  owned["spec"]["containers"].push_back({{"name", "side"}, {"image", "nginx:1.25"}});
  CHECK_FALSE(node.agent->runs(owned));  // one image the node does not hold
}

TEST_CASE("without namespaces: a dynamic program runs through the image's own loader and libraries") {
  SKIP_WITHOUT_CONTAINERS();
  Node node;
  REQUIRE(node.start(false));
  node.pod("plain", {{"args", {"print:plain", "env:IMAGE_VAR", "exit:4"}}});
  const Json pod = node.wait("plain", phase("Failed"));
  CHECK(status_of(pod)["state"]["terminated"]["exitCode"] == 4);
  CHECK(node.logs(pod) == "plain\nIMAGE_VAR=from-image\n");
  CHECK(pod["status"]["podIP"] == "127.0.0.1");  // no network namespace: the host's network
  // The working directory was made inside the unpacked image.
  node.pod("where", {{"args", {"pwd", "exe"}}});
  const std::string out = node.logs(node.wait("where", phase("Succeeded")));
  CHECK(out.find("/rootfs/work\n") != std::string::npos);
  CHECK(out.find("/rootfs/lib64/ld-linux-x86-64.so.2\n") != std::string::npos);  // the image's loader, not the host's
}

TEST_CASE("probes: readiness gates Ready, a startup probe holds the others, a failing liveness probe restarts") {
  SKIP_WITHOUT_CONTAINERS();
  Node node;
  REQUIRE(node.start());
  const int port = free_port();
  const Json http = {{"httpGet", {{"path", "/healthz"}, {"port", "web"}}}, {"periodSeconds", 1}};
  // Serves only after 1.5 s: not ready, then ready; the startup probe holds `started` until then.
  node.pod("ready",
           {{"args", {"sleep:1500", "serve:" + std::to_string(port), "wait"}},
            {"ports", {{{"name", "web"}, {"containerPort", port}}}},
            {"readinessProbe", http},
            {"startupProbe", http}},
           "Always");
  const Json early = node.wait("ready", phase("Running"));
  CHECK(status_of(early)["ready"] == false);
  CHECK(status_of(early)["started"] == false);
  CHECK(condition_is(early, "Ready", "False"));
  const Json ready = node.wait("ready", [](const Json& pod) { return condition_is(pod, "Ready", "True"); });
  CHECK(status_of(ready)["ready"] == true);
  CHECK(status_of(ready)["started"] == true);
  CHECK(condition_is(ready, "ContainersReady", "True"));

  // A readiness probe on a path that answers 500 never makes the container ready.
  node.pod("unready",
           {{"args", {"serve:" + std::to_string(free_port()), "wait"}},
            {"readinessProbe", {{"httpGet", {{"path", "/broken"}, {"port", port}}}, {"periodSeconds", 1}}}},
           "Always");
  node.wait("unready", phase("Running"));
  std::this_thread::sleep_for(2500ms);
  const Json unready = node.cluster->get(pods, {"default", "unready"});
  CHECK(status_of(unready)["ready"] == false);
  CHECK(condition_is(unready, "Ready", "False"));

  // Nothing listens on the liveness port: after failureThreshold failures the container is killed
  // and restarted.
  node.pod("dead",
           {{"args", {"wait"}},
            {"livenessProbe", {{"tcpSocket", {{"port", free_port()}}}, {"periodSeconds", 1}, {"failureThreshold", 2}}}},
           "Always", {{"terminationGracePeriodSeconds", 1}});
  const Json restarted = node.wait(
      "dead",
      [](const Json& pod) { return pod.value("/status/containerStatuses/0/restartCount"_json_pointer, 0) >= 1; }, 15s);
  CHECK(status_of(restarted)["lastState"]["terminated"]["exitCode"] == 137);  // PID 1 ignores SIGTERM: SIGKILL
}
