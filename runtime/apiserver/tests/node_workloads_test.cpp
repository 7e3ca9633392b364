// Deployments, ReplicaSets, StatefulSets and Jobs of node images with real pods: the workload
// simulator makes the ReplicaSets and Pods, the node agent runs them as processes (root and umoci;
// skipped otherwise).
#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <thread>

#include "k8s/apps/v1/deployment.hpp"
#include "k8s/apps/v1/replica_set.hpp"
#include "k8s/apps/v1/stateful_set.hpp"
#include "k8s/batch/v1/job.hpp"
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
const rr::KindInfo stateful_sets = rr::kind_info_of<k8s::apps::v1::StatefulSet>();
const rr::KindInfo jobs = rr::kind_info_of<k8s::batch::v1::Job>();

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
    cluster->register_kind<k8s::apps::v1::StatefulSet>();
    cluster->register_kind<k8s::batch::v1::Job>();
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
    for (const rr::KindInfo* kind : {&deployments, &replica_sets, &stateful_sets, &jobs, &pods}) {
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

  // Updates `name` with `change` applied to the stored object (retried on a conflict).
  void change(const rr::KindInfo& kind, const std::string& name, const std::function<void(Json&)>& edit) {
    for (int attempt = 0; attempt < 20; ++attempt) {
      Json stored = get(kind, name);
      edit(stored);
      try {
        cluster->update(kind, stored);
        return;
      } catch (const rr::ApiError&) {
        std::this_thread::sleep_for(20ms);
      }
    }
    FAIL(name << " could not be updated");
  }
  void change_deployment(const std::function<void(Json&)>& edit) { change(deployments, "web", edit); }

  std::string logs(const Json& pod) const {
    auto stream = agent->open(pod, {});
    if (!stream) return "<no stream>";
    std::string out;
    while (stream->next(out, 200ms)) {
    }
    return out;
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

namespace {

Json stateful_set(const Json& pod_template, int replicas) {
  return {{"apiVersion", "apps/v1"},
          {"kind", "StatefulSet"},
          {"metadata", {{"name", "db"}, {"namespace", "default"}}},
          {"spec",
           {{"replicas", replicas},
            {"serviceName", "db"},
            {"selector", {{"matchLabels", {{"app", "web"}}}}},
            {"updateStrategy", {{"type", "RollingUpdate"}}},
            {"template", pod_template}}}};
}

Json job(const std::string& name, Json spec, const Json& args) {
  spec["template"] = {{"spec",
                       {{"restartPolicy", "Never"},
                        {"terminationGracePeriodSeconds", 2},
                        {"containers", Json::array({{{"name", "main"}, {"image", "app:v1"}, {"args", args}}})}}}};
  return {{"apiVersion", "batch/v1"},
          {"kind", "Job"},
          {"metadata", {{"name", name}, {"namespace", "default"}}},
          {"spec", std::move(spec)}};
}

std::string phase_of(const Json& pod) { return pod.value("/status/phase"_json_pointer, std::string()); }

bool terminating(const Json& pod) { return pod["metadata"].contains("deletionTimestamp"); }

// The pods of `owner` by name.
std::map<std::string, Json> owned_by(const Json& items, const std::string& owner) {
  std::map<std::string, Json> out;
  for (const Json& pod : items) {
    const Json refs = pod["metadata"].value("ownerReferences", Json::array());
    if (!refs.empty() && refs[0]["name"] == owner) out[pod["metadata"]["name"].get<std::string>()] = pod;
  }
  return out;
}

}  // namespace

TEST_CASE("a StatefulSet of a node image: OrderedReady waits for real readiness, rolls and scales down in order") {
  SKIP_WITHOUT_CONTAINERS();
  NodeCluster node;
  REQUIRE(node.start());
  // Each pod serves its health check only after 300 ms: Ready comes from the probe, not at once.
  const int port = node_test::free_port();
  auto pod_template = [&](const std::string& image) {
    Json t = node.pod_template(image);
    Json& container = t["spec"]["containers"][0];
    container["args"] = Json::array(
        {"print:" + node.token, "term:0", "sleep:300", "serve:" + std::to_string(port), "wait"});
    container["readinessProbe"] = {{"httpGet", {{"path", "/healthz"}, {"port", port}}}, {"periodSeconds", 1}};
    return t;
  };
  node.cluster->create(stateful_sets, stateful_set(pod_template("app:v1"), 3));

  // Ordinal i+1 is made only once i is Ready, and ordinals count up.
  std::string broken;
  auto watch_order = [&](const std::map<std::string, Json>& now) {
    for (int i = 1; i < 3; ++i) {
      const auto next = now.find("db-" + std::to_string(i));
      const auto previous = now.find("db-" + std::to_string(i - 1));
      if (next != now.end() && !terminating(next->second) && (previous == now.end() || !pod_ready(previous->second)) &&
          broken.empty()) {
        broken = "db-" + std::to_string(i) + " exists while db-" + std::to_string(i - 1) + " is not Ready";
      }
    }
  };
  bool up = eventually([&] {
    watch_order(owned_by(node.items(pods), "db"));
    const Json set = node.get(stateful_sets, "db");
    return count(set, "readyReplicas") == 3 && node.processes() == 3;
  });
  if (!up) MESSAGE(node.dump());
  REQUIRE(up);
  CHECK(broken == "");
  Json set = node.get(stateful_sets, "db");
  const std::string revision1 = set["status"]["updateRevision"];
  CHECK(set["status"]["currentRevision"] == revision1);
  CHECK(count(set, "availableReplicas") == 3);
  for (const auto& [name, pod] : owned_by(node.items(pods), "db")) {
    CHECK(pod["spec"]["nodeName"] == "rrgen-node");  // the agent runs it
    CHECK(pod["spec"]["hostname"] == name);
    CHECK(pod["status"]["containerStatuses"][0]["containerID"].get<std::string>().rfind("rrgen://", 0) == 0);
    CHECK(pod["metadata"]["labels"]["controller-revision-hash"] == revision1);
  }

  // A new image: pods replaced from the highest ordinal down, one at a time, each Ready before the next goes.
  node.change(stateful_sets, "db", [](Json& s) { s["spec"]["template"]["spec"]["containers"][0]["image"] = "app:v2"; });
  std::size_t most_going = 0;
  const bool rolled = eventually([&] {
    const auto now = owned_by(node.items(pods), "db");
    std::size_t going = 0;
    for (const auto& [name, pod] : now) going += terminating(pod) || !pod_ready(pod) ? 1 : 0;
    most_going = std::max(most_going, going + (3 - std::min<std::size_t>(3, now.size())));
    set = node.get(stateful_sets, "db");
    return set["status"].value("currentRevision", "") == set["status"].value("updateRevision", "") &&
           set["status"]["updateRevision"] != revision1 && count(set, "readyReplicas") == 3 &&
           count(set, "updatedReplicas") == 3 && node.processes() == 3;
  });
  if (!rolled) MESSAGE(node.dump());
  REQUIRE(rolled);
  CHECK(most_going == 1);  // never two replicas down at once
  for (const auto& [name, pod] : owned_by(node.items(pods), "db")) {
    CHECK(pod["status"]["containerStatuses"][0]["image"] == "docker.io/library/app:v2");
  }

  // Scale to 1: db-2 goes before db-1, each only once it stopped.
  node.change(stateful_sets, "db", [](Json& s) { s["spec"]["replicas"] = 1; });
  bool out_of_order = false;
  const bool scaled = eventually([&] {
    const auto now = owned_by(node.items(pods), "db");
    if (now.contains("db-2") && now.contains("db-1") && terminating(now.at("db-1"))) out_of_order = true;
    set = node.get(stateful_sets, "db");
    return now.size() == 1 && now.contains("db-0") && count(set, "replicas") == 1 && node.processes() == 1;
  });
  if (!scaled) MESSAGE(node.dump());
  REQUIRE(scaled);
  CHECK_FALSE(out_of_order);
}

TEST_CASE("a Job of a node image: completions from real exit codes, parallelism, indexes, the backoff limit") {
  SKIP_WITHOUT_CONTAINERS();
  NodeCluster node;
  REQUIRE(node.start());

  // Indexed, 3 completions, 2 at a time: each pod learns its index and hostname as the controller sets them.
  node.cluster->create(jobs, job("idx", {{"completions", 3}, {"parallelism", 2}, {"completionMode", "Indexed"}},
                                 {"print:" + node.token, "env:JOB_COMPLETION_INDEX", "hostname", "sleep:300"}));
  std::size_t most_active = 0;
  Json done;
  const bool completed = eventually([&] {
    std::size_t active = 0;
    for (const auto& [name, pod] : owned_by(node.items(pods), "idx")) {
      const std::string phase = phase_of(pod);
      active += phase != "Succeeded" && phase != "Failed" ? 1 : 0;
    }
    most_active = std::max(most_active, active);
    done = node.get(jobs, "idx");
    return condition(done, "Complete") == "True CompletionsReached";
  });
  if (!completed) MESSAGE(node.dump());
  REQUIRE(completed);
  CHECK(most_active == 2);
  CHECK(condition(done, "SuccessCriteriaMet") == "True CompletionsReached");
  CHECK(count(done, "succeeded") == 3);
  CHECK_FALSE(done["status"].contains("active"));
  CHECK(done["status"]["completedIndexes"] == "0-2");
  CHECK(done["status"].contains("completionTime"));
  const auto idx_pods = owned_by(node.items(pods), "idx");
  CHECK(idx_pods.size() == 3);
  std::set<std::string> outputs;
  for (const auto& [name, pod] : idx_pods) {
    CHECK(phase_of(pod) == "Succeeded");
    const std::string index = pod["metadata"]["annotations"]["batch.kubernetes.io/job-completion-index"];
    CHECK(name.rfind("idx-" + index + "-", 0) == 0);
    CHECK(pod["status"]["containerStatuses"][0]["state"]["terminated"]["exitCode"] == 0);
    outputs.insert(node.logs(pod));
  }
  CHECK(outputs == std::set<std::string>{node.token + "\nJOB_COMPLETION_INDEX=0\nhostname=idx-0 HOSTNAME=idx-0\n",
                                         node.token + "\nJOB_COMPLETION_INDEX=1\nhostname=idx-1 HOSTNAME=idx-1\n",
                                         node.token + "\nJOB_COMPLETION_INDEX=2\nhostname=idx-2 HOSTNAME=idx-2\n"});

  // Every pod exits 3: failed pods are replaced until more than backoffLimit (1) failed, then the job fails.
  node.cluster->create(jobs, job("fails", {{"backoffLimit", 1}}, {"print:" + node.token, "exit:3"}));
  Json failed;
  const bool gave_up = eventually([&] {
    failed = node.get(jobs, "fails");
    return condition(failed, "Failed") == "True BackoffLimitExceeded";
  });
  if (!gave_up) MESSAGE(node.dump());
  REQUIRE(gave_up);
  CHECK(condition(failed, "FailureTarget") == "True BackoffLimitExceeded");
  CHECK(condition(failed, "Complete") == "<none>");
  CHECK(count(failed, "failed") == 2);
  CHECK_FALSE(failed["status"].contains("succeeded"));
  CHECK_FALSE(failed["status"].contains("completionTime"));
  std::this_thread::sleep_for(300ms);  // no third attempt follows
  const auto failed_pods = owned_by(node.items(pods), "fails");
  CHECK(failed_pods.size() == 2);
  for (const auto& [name, pod] : failed_pods) {
    CHECK(phase_of(pod) == "Failed");
    CHECK(pod["status"]["containerStatuses"][0]["state"]["terminated"]["exitCode"] == 3);
  }

  // Not Indexed, 2 completions one at a time: two pods in turn, each succeeding.
  node.cluster->create(jobs, job("twice", {{"completions", 2}}, {"print:" + node.token, "sleep:200"}));
  std::size_t most_running = 0;
  const bool twice = eventually([&] {
    std::size_t running = 0;
    for (const auto& [name, pod] : owned_by(node.items(pods), "twice")) running += phase_of(pod) == "Succeeded" ? 0 : 1;
    most_running = std::max(most_running, running);
    return condition(node.get(jobs, "twice"), "Complete") == "True CompletionsReached";
  });
  REQUIRE(twice);
  CHECK(most_running == 1);
  CHECK(owned_by(node.items(pods), "twice").size() == 2);
  CHECK(count(node.get(jobs, "twice"), "succeeded") == 2);
  CHECK(node.processes() == 0);
}
