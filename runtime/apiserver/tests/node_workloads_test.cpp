// Deployments and ReplicaSets of node images with real pods: the workload simulator makes the
// ReplicaSets and Pods, the node agent runs them as processes (root and umoci; skipped otherwise).
#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <memory>
#include <set>
#include <string>
#include <thread>

#include "k8s/apps/v1/deployment.hpp"
#include "k8s/apps/v1/replica_set.hpp"
#include "k8s/core/v1/config_map.hpp"
#include "k8s/core/v1/pod.hpp"
#include "k8s/core/v1/secret.hpp"
#include "replica_set_objects.hpp"
#include "rr/apiserver/workload_simulator.hpp"
#include "rr/client/api_error.hpp"
#include "rr/cluster/cluster.hpp"
#include "rr/node/node_agent.hpp"
#include "test_image.hpp"

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using rr::Json;

namespace {

const rr::KindInfo deployments = rr::kind_info_of<k8s::apps::v1::Deployment>();
const rr::KindInfo replica_sets = rr::kind_info_of<k8s::apps::v1::ReplicaSet>();
const rr::KindInfo pods = rr::kind_info_of<k8s::core::v1::Pod>();

// The agent over the cluster, and the simulator asking it which pods it runs.
struct NodeCluster {
  fs::path dir;
  std::shared_ptr<rr::Cluster> cluster = std::make_shared<rr::Cluster>();
  std::unique_ptr<rr::node::NodeAgent> agent;
  std::unique_ptr<rr::WorkloadSimulator> simulator;  // after the agent: stops first
  // In every container's arguments, so the test finds its processes (and only its own).
  std::string token = "rr-node-workloads-" + std::to_string(::getpid());

  NodeCluster() {
    std::string pattern = (fs::temp_directory_path() / "rr-node-workloads-XXXXXX").string();
    dir = ::mkdtemp(pattern.data());
    cluster->register_kind<k8s::apps::v1::Deployment>();
    cluster->register_kind<k8s::apps::v1::ReplicaSet>();
    cluster->register_kind<k8s::core::v1::Pod>();
    cluster->register_kind<k8s::core::v1::ConfigMap>();
    cluster->register_kind<k8s::core::v1::Secret>();
  }
  ~NodeCluster() {
    simulator.reset();
    agent.reset();
    fs::remove_all(dir);
  }

  // The image app:v1 and the same program as app:v2.
  bool start() {
    if (!node_test::make_test_image(dir / "images", RR_NODE_TEST_PROGRAM)) return false;
    const fs::path layout = dir / "images" / "app";
    if (std::system(("umoci tag --image " + layout.string() + ":v1 v2 > /dev/null 2>&1").c_str()) != 0) {
      MESSAGE("umoci tag failed");
      return false;
    }
    rr::node::NodeAgentOptions options;
    options.image_dirs = {dir / "images"};
    options.state_dir = dir / "state";
    options.backoff_base = 300ms;
    options.backoff_max = 1200ms;
    options.log = [](const std::string&) {};
    agent = std::make_unique<rr::node::NodeAgent>(cluster, options);
    simulator = std::make_unique<rr::WorkloadSimulator>(cluster, agent->predicate());
    return true;
  }

  Json pod_template(const std::string& image) const {
    return {
        {"metadata", {{"labels", {{"app", "web"}}}}},
        {"spec",
         {{"terminationGracePeriodSeconds", 2},
          {"containers",
           Json::array(
               {{{"name", "main"}, {"image", image}, {"args", Json::array({"print:" + token, "term:0", "wait"})}}})}}}};
  }

  Json deployment(int replicas, const std::string& image) const {
    return {{"apiVersion", "apps/v1"},
            {"kind", "Deployment"},
            {"metadata", {{"name", "web"}, {"namespace", "default"}}},
            {"spec",
             {{"replicas", replicas},
              {"selector", {{"matchLabels", {{"app", "web"}}}}},
              {"template", pod_template(image)}}}};
  }

  Json get(const rr::KindInfo& kind, const std::string& name) const { return cluster->get(kind, {"default", name}); }
  Json items(const rr::KindInfo& kind) const {
    return cluster->list(kind, {.namespace_ = "default"}).value("items", Json::array());
  }

  // What the cluster holds, for a failed wait's message.
  std::string dump() const {
    std::string out;
    for (const rr::KindInfo* kind : {&deployments, &replica_sets, &pods}) {
      for (Json item : items(*kind)) {
        item["metadata"].erase("managedFields");
        out += item.dump() + "\n";
      }
    }
    return out;
  }

  // The processes of this test's containers, by /proc's command lines.
  int processes() const {
    int count = 0;
    for (const auto& entry : fs::directory_iterator("/proc")) {
      const std::string name = entry.path().filename().string();
      if (name.find_first_not_of("0123456789") != std::string::npos) continue;
      std::ifstream in(entry.path() / "cmdline");
      const std::string cmdline((std::istreambuf_iterator<char>(in)), {});
      if (cmdline.find("print:" + token) != std::string::npos) ++count;
    }
    return count;
  }

  // Updates the deployment with `change` applied to the stored one (retried on a conflict).
  void change_deployment(const std::function<void(Json&)>& change) {
    for (int attempt = 0; attempt < 20; ++attempt) {
      Json stored = get(deployments, "web");
      change(stored);
      try {
        cluster->update(deployments, stored);
        return;
      } catch (const rr::ApiError&) {
        std::this_thread::sleep_for(20ms);
      }
    }
    FAIL("the deployment could not be updated");
  }
};

bool eventually(const std::function<bool()>& done, std::chrono::milliseconds timeout = 30s) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!done()) {
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(20ms);
  }
  return true;
}

std::int64_t count(const Json& object, const char* field) {
  return object.value("status", Json::object()).value(field, std::int64_t{0});
}

bool available(const Json& deployment, std::int64_t replicas) {
  return count(deployment, "availableReplicas") == replicas && count(deployment, "updatedReplicas") == replicas &&
         count(deployment, "replicas") == replicas &&
         count(deployment, "observedGeneration") == deployment["metadata"].value("generation", std::int64_t{0});
}

std::string condition(const Json& object, const std::string& type) {
  for (const Json& c : object.value("/status/conditions"_json_pointer, Json::array())) {
    if (c.value("type", "") == type) return c.value("status", "") + " " + c.value("reason", "");
  }
  return "<none>";
}

bool pod_ready(const Json& pod) {
  for (const Json& c : pod.value("/status/conditions"_json_pointer, Json::array())) {
    if (c.value("type", "") == "Ready") return c.value("status", "") == "True";
  }
  return false;
}

std::set<std::string> names(const Json& items) {
  std::set<std::string> out;
  for (const Json& item : items) out.insert(item["metadata"]["name"].get<std::string>());
  return out;
}

}  // namespace

TEST_CASE("a Deployment of a node image: real pods, a replaced pod, a rolling update, scale to 0") {
  SKIP_WITHOUT_CONTAINERS();
  NodeCluster node;
  REQUIRE(node.start());
  node.cluster->create(deployments, node.deployment(2, "app:v1"));

  // Two replicas come up as two processes, through one ReplicaSet named by the template's hash.
  REQUIRE(eventually([&] { return available(node.get(deployments, "web"), 2) && node.processes() == 2; }));
  Json deployment = node.get(deployments, "web");
  CHECK(condition(deployment, "Available") == "True MinimumReplicasAvailable");
  CHECK(condition(deployment, "Progressing") == "True NewReplicaSetAvailable");
  CHECK(deployment["metadata"]["annotations"]["deployment.kubernetes.io/revision"] == "1");
  const std::string hash1 = rr::apiserver_detail::pod_template_hash(deployment["spec"]["template"]);
  const std::string set1 = "web-" + hash1;
  CHECK(names(node.items(replica_sets)) == std::set<std::string>{set1});
  const Json replica_set = node.get(replica_sets, set1);
  CHECK(replica_set["metadata"]["annotations"]["deployment.kubernetes.io/revision"] == "1");
  CHECK(replica_set["metadata"]["ownerReferences"][0]["uid"] == deployment["metadata"]["uid"]);
  CHECK(replica_set["spec"]["selector"]["matchLabels"]["pod-template-hash"] == hash1);
  CHECK(count(replica_set, "readyReplicas") == 2);
  const Json first_pods = node.items(pods);
  REQUIRE(first_pods.size() == 2);
  for (const Json& pod : first_pods) {
    const std::string name = pod["metadata"]["name"];
    CHECK(name.size() == set1.size() + 6);
    CHECK(name.rfind(set1 + "-", 0) == 0);
    CHECK(pod["metadata"]["labels"]["pod-template-hash"] == hash1);
    CHECK(pod["metadata"]["ownerReferences"][0]["name"] == set1);
    CHECK(pod["metadata"]["ownerReferences"][0]["controller"] == true);
    CHECK(pod["spec"]["nodeName"] == "rrgen-node");  // the agent took it
    CHECK(pod_ready(pod));
    CHECK(pod["status"]["containerStatuses"][0]["containerID"].get<std::string>().rfind("rrgen://", 0) == 0);
  }

  // A deleted pod is replaced by its ReplicaSet; the old one's process goes.
  const std::string victim = first_pods[0]["metadata"]["name"];
  node.cluster->remove(pods, {"default", victim});
  REQUIRE(eventually([&] {
    const std::set<std::string> now = names(node.items(pods));
    return now.size() == 2 && !now.contains(victim) && available(node.get(deployments, "web"), 2) &&
           count(node.get(replica_sets, set1), "readyReplicas") == 2 && node.processes() == 2;
  }));

  // A new image tag: a second ReplicaSet, revision 2, rolled over while keeping 2 available.
  node.change_deployment([](Json& d) { d["spec"]["template"]["spec"]["containers"][0]["image"] = "app:v2"; });
  std::string set2;
  std::int64_t least_available = 2;
  const bool rolled = eventually([&] {
    deployment = node.get(deployments, "web");
    least_available = std::min(least_available, count(deployment, "availableReplicas"));
    set2 = "web-" + rr::apiserver_detail::pod_template_hash(deployment["spec"]["template"]);
    const Json now = node.items(pods);
    bool all_new = now.size() == 2;
    for (const Json& pod : now) all_new = all_new && pod["metadata"]["labels"]["pod-template-hash"] != hash1;
    return available(deployment, 2) && all_new && node.processes() == 2 &&
           condition(deployment, "Progressing") == "True NewReplicaSetAvailable";
  });
  if (!rolled) MESSAGE(node.dump());
  REQUIRE(rolled);
  CHECK(set2 != set1);
  CHECK(least_available >= 2);  // maxUnavailable 25% of 2 is 0: new pods were Ready before old ones went
  CHECK(deployment["metadata"]["annotations"]["deployment.kubernetes.io/revision"] == "2");
  CHECK(names(node.items(replica_sets)) == std::set<std::string>{set1, set2});
  CHECK(node.get(replica_sets, set1)["spec"]["replicas"] == 0);
  CHECK(node.get(replica_sets, set2)["metadata"]["annotations"]["deployment.kubernetes.io/revision"] == "2");
  for (const Json& pod : node.items(pods)) {
    CHECK(pod["status"]["containerStatuses"][0]["image"] == "docker.io/library/app:v2");
  }

  // Scale to 0: every pod and process goes; the status says no replicas.
  node.change_deployment([](Json& d) { d["spec"]["replicas"] = 0; });
  REQUIRE(eventually([&] {
    deployment = node.get(deployments, "web");
    return node.items(pods).empty() && node.processes() == 0 && available(deployment, 0);
  }));
  CHECK(condition(deployment, "Available") == "True MinimumReplicasAvailable");
  CHECK(count(node.get(replica_sets, set2), "replicas") == 0);
}

TEST_CASE("a ReplicaSet of a node image made by hand runs its pods; other images get none") {
  SKIP_WITHOUT_CONTAINERS();
  NodeCluster node;
  REQUIRE(node.start());
  node.cluster->create(replica_sets, Json{{"apiVersion", "apps/v1"},
                                          {"kind", "ReplicaSet"},
                                          {"metadata", {{"name", "hand"}, {"namespace", "default"}}},
                                          {"spec",
                                           {{"replicas", 1},
                                            {"selector", {{"matchLabels", {{"app", "web"}}}}},
                                            {"template", node.pod_template("app:v1")}}}});
  REQUIRE(
      eventually([&] { return count(node.get(replica_sets, "hand"), "readyReplicas") == 1 && node.processes() == 1; }));
  const Json pod = node.items(pods)[0];
  CHECK(pod["metadata"]["name"].get<std::string>().rfind("hand-", 0) == 0);
  CHECK(pod_ready(pod));

  // A Deployment of an image no node holds keeps the simulation without ReplicaSets.
  Json other = node.deployment(3, "nginx:1.25");
  other["metadata"]["name"] = "other";
  other["spec"]["selector"]["matchLabels"]["app"] = "other";
  other["spec"]["template"]["metadata"]["labels"]["app"] = "other";
  node.cluster->create(deployments, other);
  REQUIRE(eventually([&] { return count(node.get(deployments, "other"), "availableReplicas") == 3; }));
  CHECK(names(node.items(replica_sets)) == std::set<std::string>{"hand"});
  CHECK(node.items(pods).size() == 1);
}
