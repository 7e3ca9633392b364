// The WorkloadSimulator's Deployments and Jobs, and which kinds it simulates.
#include <doctest/doctest.h>

#include <algorithm>

#include "simulated_cluster.hpp"

using namespace rr;
using namespace rr::apiserver_test;

namespace {

Json deployment(const std::string& name, int replicas) {
  return Json{{"apiVersion", "apps/v1"},
              {"kind", "Deployment"},
              {"metadata", {{"name", name}, {"namespace", "default"}}},
              {"spec",
               {{"replicas", replicas},
                {"selector", {{"matchLabels", {{"app", name}}}}},
                {"template",
                 {{"metadata", {{"labels", {{"app", name}}}}},
                  {"spec", {{"containers", Json::array({{{"name", "main"}, {"image", "nginx"}}})}}}}}}}};
}

Json job(const std::string& name, Json spec = Json::object()) {
  Json j = {
      {"apiVersion", "batch/v1"},
      {"kind", "Job"},
      {"metadata", {{"name", name}, {"namespace", "default"}}},
      {"spec",
       {{"template",
         {{"metadata", {{"labels", {{"app", name}}}}},
          {"spec",
           {{"restartPolicy", "Never"}, {"containers", Json::array({{{"name", "main"}, {"image", "busybox"}}})}}}}}}}};
  j["spec"].update(spec);
  return j;
}

const Json* condition(const Json& object, const std::string& type) {
  if (!object.contains("status") || !object["status"].contains("conditions")) return nullptr;
  for (const Json& c : object["status"]["conditions"]) {
    if (c["type"] == type) return &c;
  }
  return nullptr;
}

bool condition_true(const Json& object, const std::string& type) {
  const Json* c = condition(object, type);
  return c && (*c)["status"] == "True";
}

}  // namespace

TEST_CASE("a Deployment reports every replica available, as before") {
  SimulatedCluster c;
  c.cluster->create(deployment_kind, deployment("app", 2));
  REQUIRE(eventually([&] { return condition_true(c.get(deployment_kind, "app"), "Available"); }));
  const Json status = c.get(deployment_kind, "app")["status"];
  CHECK(status["observedGeneration"] == 1);
  CHECK(status["replicas"] == 2);
  CHECK(status["updatedReplicas"] == 2);
  CHECK(status["readyReplicas"] == 2);
  CHECK(status["availableReplicas"] == 2);
  CHECK(condition_true(c.get(deployment_kind, "app"), "Progressing"));
  CHECK(c.names(pod_kind).empty());  // no ReplicaSets, no pods

  Json scaled = c.get(deployment_kind, "app");
  scaled["spec"]["replicas"] = 0;
  c.cluster->update(deployment_kind, scaled);
  REQUIRE(eventually([&] { return c.get(deployment_kind, "app")["status"]["observedGeneration"] == 2; }));
  const Json zero = c.get(deployment_kind, "app")["status"];
  CHECK(zero["replicas"] == 0);
  CHECK(!zero.contains("readyReplicas"));
  CHECK(!zero.contains("availableReplicas"));
  REQUIRE(c.settled());
}

TEST_CASE("a Job's pods succeed and it reports SuccessCriteriaMet and Complete with its counts") {
  struct Case {
    const char* name;
    Json spec;
    int pods;
  };
  for (const Case& t : {Case{"one", Json::object(), 1}, Case{"three", {{"completions", 3}, {"parallelism", 2}}, 3},
                        Case{"queue", {{"parallelism", 2}}, 2}}) {
    CAPTURE(std::string(t.name));
    SimulatedCluster c;
    c.cluster->create(job_kind, job(t.name, t.spec));
    REQUIRE(eventually([&] { return condition_true(c.get(job_kind, t.name), "Complete"); }));
    const Json done = c.get(job_kind, t.name);
    const Json& status = done["status"];
    CHECK(status["succeeded"] == t.pods);
    CHECK(!status.contains("active"));  // omitempty: no pod runs
    CHECK(status["ready"] == 0);
    CHECK(status["terminating"] == 0);
    CHECK(status["startTime"].is_string());
    CHECK(status["completionTime"].is_string());
    for (const char* type : {"SuccessCriteriaMet", "Complete"}) {
      CAPTURE(type);
      REQUIRE(condition(done, type));
      CHECK((*condition(done, type))["reason"] == "CompletionsReached");
      CHECK((*condition(done, type))["message"] == "Reached expected number of succeeded pods");
    }
    CHECK(status["conditions"][0]["type"] == "SuccessCriteriaMet");

    const auto pods = c.cluster->list(pod_kind, {.namespace_ = "default"})["items"];
    REQUIRE(pods.size() == static_cast<std::size_t>(t.pods));
    for (const Json& pod : pods) {
      const std::string name = pod["metadata"]["name"];
      CAPTURE(name);
      CHECK(name.starts_with(std::string(t.name) + "-"));
      CHECK(name.size() == std::string(t.name).size() + 6);
      CHECK(pod["metadata"]["labels"]["job-name"] == t.name);
      CHECK(pod["metadata"]["labels"]["batch.kubernetes.io/job-name"] == t.name);
      CHECK(pod["metadata"]["labels"]["controller-uid"] == done["metadata"]["uid"]);
      CHECK(pod["metadata"]["labels"]["batch.kubernetes.io/controller-uid"] == done["metadata"]["uid"]);
      CHECK(pod["metadata"]["labels"]["app"] == t.name);
      CHECK(pod["metadata"]["ownerReferences"][0]["kind"] == "Job");
      CHECK(pod["metadata"]["ownerReferences"][0]["controller"] == true);
      CHECK(pod["status"]["phase"] == "Succeeded");
      CHECK(pod["status"]["containerStatuses"][0]["state"]["terminated"]["exitCode"] == 0);
    }
    REQUIRE(c.settled());
  }
}

TEST_CASE("an Indexed Job names its pods by index and reports completedIndexes") {
  SimulatedCluster c;
  c.cluster->create(job_kind, job("idx", {{"completions", 3}, {"completionMode", "Indexed"}}));
  REQUIRE(eventually([&] { return condition_true(c.get(job_kind, "idx"), "Complete"); }));
  CHECK(c.get(job_kind, "idx")["status"]["completedIndexes"] == "0-2");
  std::vector<std::string> indexes;  // in name order
  const Json pods = c.cluster->list(pod_kind, {.namespace_ = "default"});
  for (const Json& pod : pods["items"]) {
    const std::string index = pod["metadata"]["annotations"]["batch.kubernetes.io/job-completion-index"];
    CHECK(pod["metadata"]["name"].get<std::string>().starts_with("idx-" + index + "-"));
    indexes.push_back(index);
  }
  std::sort(indexes.begin(), indexes.end());
  CHECK(indexes == std::vector<std::string>{"0", "1", "2"});
}

TEST_CASE("a suspended Job gets no pods and a Suspended condition; resumed, it completes") {
  SimulatedCluster c;
  c.cluster->create(job_kind, job("later", {{"suspend", true}}));
  REQUIRE(eventually([&] { return condition_true(c.get(job_kind, "later"), "Suspended"); }));
  REQUIRE(c.settled());
  Json suspended = c.get(job_kind, "later");
  CHECK((*condition(suspended, "Suspended"))["reason"] == "JobSuspended");
  CHECK(!suspended["status"].contains("startTime"));
  CHECK(!condition(suspended, "Complete"));
  CHECK(c.names(pod_kind).empty());

  suspended["spec"]["suspend"] = false;
  c.cluster->update(job_kind, suspended);
  REQUIRE(eventually([&] { return condition_true(c.get(job_kind, "later"), "Complete"); }));
  const Json resumed = c.get(job_kind, "later");
  CHECK((*condition(resumed, "Suspended"))["status"] == "False");
  CHECK((*condition(resumed, "Suspended"))["reason"] == "JobResumed");
  CHECK(resumed["status"]["succeeded"] == 1);
  CHECK(c.names(pod_kind).starts_with("later-"));
}

TEST_CASE("without a Pod kind a Job completes without pods") {
  SimulatedCluster c({.pods = false, .claims = false});
  c.cluster->create(job_kind, job("bare", {{"completions", 2}}));
  REQUIRE(eventually([&] { return condition_true(c.get(job_kind, "bare"), "Complete"); }));
  CHECK(c.get(job_kind, "bare")["status"]["succeeded"] == 2);
}

TEST_CASE("the simulator takes whichever workload kinds are registered, none included") {
  auto bare = std::make_shared<Cluster>();
  CHECK_NOTHROW(WorkloadSimulator{bare});

  auto jobs_only = std::make_shared<Cluster>();
  register_once<k8s::batch::v1::Job>(*jobs_only);
  register_once<k8s::core::v1::Pod>(*jobs_only);
  WorkloadSimulator simulator(jobs_only);
  jobs_only->create(job_kind, job("solo"));
  REQUIRE(eventually([&] { return condition_true(jobs_only->get(job_kind, {"default", "solo"}), "Complete"); }));
  CHECK(jobs_only->list(pod_kind, {.namespace_ = "default"})["items"].size() == 1);
}

TEST_CASE("a bare pod is reported Running unless the node agent's predicate claims it") {
  auto cluster = std::make_shared<Cluster>();
  register_once<k8s::core::v1::Pod>(*cluster);
  // The node agent's predicate: it runs the pods of its own images.
  WorkloadSimulator simulator(cluster, [](const Json& pod) {
    return pod.value("/spec/containers/0/image"_json_pointer, std::string()) == "node-image:v1";
  });
  auto bare_pod = [](const std::string& name, const std::string& image) {
    return Json{{"apiVersion", "v1"},
                {"kind", "Pod"},
                {"metadata", {{"name", name}, {"namespace", "default"}}},
                {"spec", {{"containers", Json::array({{{"name", "main"}, {"image", image}}})}}}};
  };
  cluster->create(pod_kind, bare_pod("simulated", "nginx:1.25"));
  cluster->create(pod_kind, bare_pod("on-node", "node-image:v1"));
  REQUIRE(eventually([&] {
    return cluster->get(pod_kind, {"default", "simulated"}).value("/status/phase"_json_pointer, std::string()) ==
           "Running";
  }));
  const Json simulated = cluster->get(pod_kind, {"default", "simulated"});
  CHECK(simulated["status"]["containerStatuses"][0]["ready"] == true);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  CHECK(cluster->get(pod_kind, {"default", "on-node"}).value("/status/phase"_json_pointer, std::string("Pending")) ==
        "Pending");
}
