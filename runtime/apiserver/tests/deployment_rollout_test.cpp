// The deployment and replicaset controllers of the simulator without real containers: a fake
// node "runs" the pods of images under node/ (the predicate), and the test reports them Ready by
// hand, so each step of a rollout waits for what the test allows.
#include <doctest/doctest.h>

#include <functional>
#include <map>
#include <set>

#include "k8s/apps/v1/replica_set.hpp"
#include "simulated_cluster.hpp"

using namespace rr;
using namespace rr::apiserver_test;

namespace {

const KindInfo replica_set_kind = kind_info_of<k8s::apps::v1::ReplicaSet>();

struct FakeNode {
  std::shared_ptr<Cluster> cluster = std::make_shared<Cluster>();
  std::unique_ptr<WorkloadSimulator> simulator;

  FakeNode() {
    cluster->register_kind<k8s::apps::v1::Deployment>();
    cluster->register_kind<k8s::apps::v1::ReplicaSet>();
    cluster->register_kind<k8s::core::v1::Pod>();
    simulator = std::make_unique<WorkloadSimulator>(cluster, [](const Json& pod) {
      for (const Json& c : pod.value("/spec/containers"_json_pointer, Json::array())) {
        if (c.value("image", "").rfind("node/", 0) != 0) return false;
      }
      return true;
    });
  }

  Json items(const KindInfo& kind) const {
    return cluster->list(kind, {.namespace_ = "default"}).value("items", Json::array());
  }
  Json get(const KindInfo& kind, const std::string& name) const { return cluster->get(kind, {"default", name}); }

  // Reports every pod not yet reported Running and Ready, as the agent would once it ran it.
  int make_ready() {
    int made = 0;
    for (Json pod : items(pod_kind)) {
      if (pod.contains("status") && pod["status"].value("phase", "") == "Running") continue;
      pod["status"] = {{"phase", "Running"}, {"conditions", Json::array({{{"type", "Ready"}, {"status", "True"}}})}};
      cluster->update_status(pod_kind, pod);
      ++made;
    }
    return made;
  }

  // Pods by the image of their first container.
  std::multiset<std::string> images() const {
    std::multiset<std::string> out;
    for (const Json& pod : items(pod_kind)) out.insert(pod["spec"]["containers"][0]["image"].get<std::string>());
    return out;
  }

  // Updates the deployment (again on a conflict with the simulator's own writes).
  void change(const std::function<void(Json&)>& edit) {
    for (int attempt = 0;; ++attempt) {
      Json d = get(deployment_kind, "web");
      edit(d);
      try {
        cluster->update(deployment_kind, d);
        return;
      } catch (const ApiError&) {
        if (attempt == 20) throw;
      }
    }
  }
  void set_image(const std::string& image) {
    change([&](Json& d) { d["spec"]["template"]["spec"]["containers"][0]["image"] = image; });
  }

  // Whether the simulator made no write for `ms` milliseconds (within 10 s).
  bool settled_for(int ms) const {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    long long seen = simulator->updates();
    auto since = std::chrono::steady_clock::now();
    while (std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      if (simulator->updates() != seen) {
        seen = simulator->updates();
        since = std::chrono::steady_clock::now();
      } else if (std::chrono::steady_clock::now() - since >= std::chrono::milliseconds(ms)) {
        return true;
      }
    }
    return false;
  }
};

Json node_deployment(int replicas, const std::string& image, Json strategy = nullptr) {
  Json d = {{"apiVersion", "apps/v1"},
            {"kind", "Deployment"},
            {"metadata", {{"name", "web"}, {"namespace", "default"}}},
            {"spec",
             {{"replicas", replicas},
              {"selector", {{"matchLabels", {{"app", "web"}}}}},
              {"template",
               {{"metadata", {{"labels", {{"app", "web"}}}}},
                {"spec", {{"containers", Json::array({{{"name", "main"}, {"image", image}}})}}}}}}}};
  if (!strategy.is_null()) d["spec"]["strategy"] = strategy;
  return d;
}

std::multiset<std::string> copies(int n, const std::string& image) {
  std::multiset<std::string> out;
  for (int i = 0; i < n; ++i) out.insert(image);
  return out;
}

std::int64_t status_count(const Json& object, const char* field) {
  return object.value("status", Json::object()).value(field, std::int64_t{0});
}

std::string condition_of(const Json& object, const std::string& type) {
  for (const Json& c : object.value("/status/conditions"_json_pointer, Json::array())) {
    if (c.value("type", "") == type) return c.value("status", "") + " " + c.value("reason", "");
  }
  return "<none>";
}

}  // namespace

TEST_CASE("a node-image Deployment waits for its pods' Ready condition, then rolls within its bounds") {
  FakeNode node;
  node.cluster->create(deployment_kind, node_deployment(4, "node/app:v1"));
  REQUIRE(eventually([&] { return node.images().size() == 4; }));
  CHECK(node.settled_for(200));
  Json d = node.get(deployment_kind, "web");
  CHECK(status_count(d, "replicas") == 4);
  CHECK(status_count(d, "availableReplicas") == 0);
  CHECK(condition_of(d, "Available") == "False MinimumReplicasUnavailable");
  CHECK(condition_of(d, "Progressing").rfind("True ", 0) == 0);

  node.make_ready();
  REQUIRE(eventually([&] { return status_count(node.get(deployment_kind, "web"), "availableReplicas") == 4; }));
  d = node.get(deployment_kind, "web");
  CHECK(condition_of(d, "Available") == "True MinimumReplicasAvailable");
  CHECK(condition_of(d, "Progressing") == "True NewReplicaSetAvailable");

  // 4 replicas: maxSurge 1, maxUnavailable 1. Without new pods Ready, at most 5 pods and 3 old ones.
  node.set_image("node/app:v2");
  REQUIRE(eventually([&] { return node.images().count("node/app:v2") == 2; }));
  CHECK(node.settled_for(300));
  CHECK(node.images() ==
        std::multiset<std::string>{"node/app:v1", "node/app:v1", "node/app:v1", "node/app:v2", "node/app:v2"});
  d = node.get(deployment_kind, "web");
  CHECK(status_count(d, "availableReplicas") == 3);
  CHECK(status_count(d, "updatedReplicas") == 2);
  CHECK(condition_of(d, "Progressing") == "True ReplicaSetUpdated");
  CHECK(node.items(replica_set_kind).size() == 2);

  // Each round of Ready new pods lets the rollout move on.
  REQUIRE(eventually([&] {
    node.make_ready();
    d = node.get(deployment_kind, "web");
    return node.images() == copies(4, "node/app:v2") && status_count(d, "availableReplicas") == 4 &&
           condition_of(d, "Progressing") == "True NewReplicaSetAvailable";
  }));
  CHECK(d["metadata"]["annotations"]["deployment.kubernetes.io/revision"] == "2");

  // Back to v1: the old set is the new one again, at revision 3.
  node.set_image("node/app:v1");
  REQUIRE(eventually([&] {
    node.make_ready();
    return node.images() == copies(4, "node/app:v1") &&
           status_count(node.get(deployment_kind, "web"), "availableReplicas") == 4;
  }));
  CHECK(node.items(replica_set_kind).size() == 2);
  d = node.get(deployment_kind, "web");
  CHECK(d["metadata"]["annotations"]["deployment.kubernetes.io/revision"] == "3");
}

TEST_CASE("Recreate: the old pods go before any new one is made") {
  FakeNode node;
  node.cluster->create(deployment_kind, node_deployment(2, "node/app:v1", {{"type", "Recreate"}}));
  REQUIRE(eventually([&] {
    node.make_ready();
    return status_count(node.get(deployment_kind, "web"), "availableReplicas") == 2;
  }));
  // Every pod event in order: never a v2 pod while a v1 pod is there.
  auto events = node.cluster->watch(pod_kind, {.namespace_ = "default"});  // the v1 pods first
  node.set_image("node/app:v2");
  REQUIRE(eventually([&] { return node.images() == copies(2, "node/app:v2"); }));
  std::map<std::string, std::string> live;  // name: image
  bool both = false;
  while (auto event = events->next(std::chrono::milliseconds(0))) {
    if (event->type != WatchEventType::Added && event->type != WatchEventType::Modified &&
        event->type != WatchEventType::Deleted) {
      continue;
    }
    const std::string name = event->object["metadata"]["name"];
    if (event->type == WatchEventType::Deleted) live.erase(name);
    else live[name] = event->object["spec"]["containers"][0]["image"];
    std::set<std::string> images;
    for (const auto& [pod, image] : live) images.insert(image);
    both = both || images.size() > 1;
  }
  CHECK_FALSE(both);
}

TEST_CASE("scale up and down: surplus pods not ready go first; a deleted pod is replaced") {
  FakeNode node;
  node.cluster->create(deployment_kind, node_deployment(2, "node/app:v1"));
  REQUIRE(eventually([&] {
    node.make_ready();
    return status_count(node.get(deployment_kind, "web"), "availableReplicas") == 2;
  }));
  node.change([](Json& d) { d["spec"]["replicas"] = 3; });
  REQUIRE(eventually([&] { return node.images().size() == 3; }));
  std::string unready;
  for (const Json& pod : node.items(pod_kind)) {
    if (!pod.contains("status")) unready = pod["metadata"]["name"];
  }
  REQUIRE_FALSE(unready.empty());
  node.change([](Json& d) { d["spec"]["replicas"] = 2; });
  REQUIRE(eventually([&] { return node.images().size() == 2; }));
  for (const Json& pod : node.items(pod_kind)) CHECK(pod["metadata"]["name"] != unready);

  const std::string victim = node.items(pod_kind)[0]["metadata"]["name"];
  node.cluster->remove(pod_kind, {"default", victim});
  REQUIRE(eventually([&] {
    const Json now = node.items(pod_kind);
    return now.size() == 2 && now[0]["metadata"]["name"] != victim && now[1]["metadata"]["name"] != victim;
  }));
}

TEST_CASE("a Deployment of other images keeps the simulation without ReplicaSets") {
  FakeNode node;
  node.cluster->create(deployment_kind, node_deployment(2, "nginx:1.25"));
  REQUIRE(eventually([&] { return status_count(node.get(deployment_kind, "web"), "availableReplicas") == 2; }));
  CHECK(node.settled_for(200));
  CHECK(node.items(replica_set_kind).empty());
  CHECK(node.items(pod_kind).empty());
}
