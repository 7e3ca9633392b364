// The WorkloadSimulator's StatefulSets: ordered pods, their claims, scaling, rolling updates.
#include <doctest/doctest.h>

#include <algorithm>

#include "simulated_cluster.hpp"

using namespace rr;
using namespace rr::apiserver_test;

namespace {

Json stateful_set(const std::string& name, int replicas, const std::string& image = "nginx:1.25") {
  return Json{{"apiVersion", "apps/v1"},
              {"kind", "StatefulSet"},
              {"metadata", {{"name", name}, {"namespace", "default"}}},
              {"spec",
               {{"replicas", replicas},
                {"serviceName", name},
                {"selector", {{"matchLabels", {{"app", name}}}}},
                {"template",
                 {{"metadata", {{"labels", {{"app", name}}}}},
                  {"spec", {{"containers", Json::array({{{"name", "main"}, {"image", image}}})}}}}},
                {"volumeClaimTemplates", Json::array({{{"metadata", {{"name", "data"}}},
                                                       {"spec",
                                                        {{"accessModes", Json::array({"ReadWriteOnce"})},
                                                         {"resources", {{"requests", {{"storage", "1Gi"}}}}}}}}})}}}};
}

// The set reports `replicas` ready at one revision for its current generation.
bool converged(const SimulatedCluster& c, const std::string& name, int replicas) {
  const Json set = c.get(stateful_set_kind, name);
  const Json status = set.value("status", Json::object());
  return status.value("observedGeneration", -1) == set["metadata"].value("generation", 0) &&
         status.value("replicas", -1) == replicas && status.value("readyReplicas", 0) == replicas &&
         status.value("updatedReplicas", 0) == replicas && status.value("currentRevision", "") != "" &&
         status.value("currentRevision", "") == status.value("updateRevision", "");
}

void scale(SimulatedCluster& c, const std::string& name, int replicas) {
  Json set = c.get(stateful_set_kind, name);
  set["spec"]["replicas"] = replicas;
  c.cluster->update(stateful_set_kind, set);
}

std::size_t index_of(const std::vector<std::string>& history, const std::string& line) {
  return static_cast<std::size_t>(std::find(history.begin(), history.end(), line) - history.begin());
}

}  // namespace

TEST_CASE("a StatefulSet gets its pods web-0..N-1, Running and Ready, with the controller's identity") {
  SimulatedCluster c;
  c.cluster->create(stateful_set_kind, stateful_set("web", 3));
  REQUIRE(eventually([&] { return converged(c, "web", 3); }));
  const Json set = c.get(stateful_set_kind, "web");
  const std::string revision = set["status"]["updateRevision"];
  CHECK(revision.starts_with("web-"));
  CHECK(revision.size() == 14);
  CHECK(set["status"]["currentReplicas"] == 3);
  CHECK(set["status"]["availableReplicas"] == 3);
  CHECK(set["status"]["collisionCount"] == 0);
  CHECK(c.names(pod_kind) == "web-0 web-1 web-2");
  for (int ordinal = 0; ordinal < 3; ++ordinal) {
    const std::string name = "web-" + std::to_string(ordinal);
    CAPTURE(name);
    const Json pod = c.get(pod_kind, name);
    const Json& labels = pod["metadata"]["labels"];
    CHECK(labels["app"] == "web");
    CHECK(labels["statefulset.kubernetes.io/pod-name"] == name);
    CHECK(labels["apps.kubernetes.io/pod-index"] == std::to_string(ordinal));
    CHECK(labels["controller-revision-hash"] == revision);
    const Json& owner = pod["metadata"]["ownerReferences"][0];
    CHECK(owner["apiVersion"] == "apps/v1");
    CHECK(owner["kind"] == "StatefulSet");
    CHECK(owner["name"] == "web");
    CHECK(owner["uid"] == set["metadata"]["uid"]);
    CHECK(owner["controller"] == true);
    CHECK(owner["blockOwnerDeletion"] == true);
    CHECK(pod["spec"]["hostname"] == name);
    CHECK(pod["spec"]["subdomain"] == "web");
    CHECK(pod["spec"]["volumes"][0] ==
          Json{{"name", "data"}, {"persistentVolumeClaim", {{"claimName", "data-" + name}}}});
    CHECK(pod["status"]["phase"] == "Running");
    CHECK(pod["status"]["podIP"].get<std::string>().starts_with("10.244."));
    const Json& conditions = pod["status"]["conditions"];
    CHECK(std::any_of(conditions.begin(), conditions.end(),
                      [](const Json& x) { return x["type"] == "Ready" && x["status"] == "True"; }));
    CHECK(pod["status"]["containerStatuses"][0]["ready"] == true);
  }
}

TEST_CASE("every pod gets a Bound claim named <template>-<pod>, labelled with the selector's labels") {
  SimulatedCluster c;
  c.cluster->create(stateful_set_kind, stateful_set("db", 2));
  REQUIRE(eventually([&] { return converged(c, "db", 2); }));
  CHECK(c.names(claim_kind) == "data-db-0 data-db-1");
  const Json claim = c.get(claim_kind, "data-db-1");
  CHECK(claim["metadata"]["labels"]["app"] == "db");
  CHECK(!claim["metadata"].contains("ownerReferences"));  // Retain: nothing owns it
  CHECK(claim["spec"]["resources"]["requests"]["storage"] == "1Gi");
  CHECK(claim["status"]["phase"] == "Bound");
  CHECK(claim["status"]["capacity"]["storage"] == "1Gi");
  CHECK(claim["status"]["accessModes"] == Json::array({"ReadWriteOnce"}));
}

TEST_CASE("OrderedReady makes web-<i> only once web-<i-1> is ready; Parallel does not wait") {
  struct Case {
    const char* policy;
    bool ordered;
  };
  for (const Case& t : {Case{"OrderedReady", true}, Case{"Parallel", false}}) {
    const std::string policy = t.policy;
    CAPTURE(policy);
    SimulatedCluster c;
    Json set = stateful_set("web", 3);
    set["spec"]["podManagementPolicy"] = t.policy;
    c.cluster->create(stateful_set_kind, set);
    REQUIRE(eventually([&] { return converged(c, "web", 3); }));
    const auto history = c.pod_history();
    CAPTURE(history);
    for (int ordinal = 1; ordinal < 3; ++ordinal) {
      const std::size_t previous_ready = index_of(history, "MODIFIED web-" + std::to_string(ordinal - 1) + " ready");
      const std::size_t added = index_of(history, "ADDED web-" + std::to_string(ordinal));
      REQUIRE(previous_ready < history.size());
      REQUIRE(added < history.size());
      CHECK((previous_ready < added) == t.ordered);
    }
  }
}

TEST_CASE("scaling down removes the highest ordinals first and keeps their claims; scaling up reuses them") {
  SimulatedCluster c;
  c.cluster->create(stateful_set_kind, stateful_set("web", 3));
  REQUIRE(eventually([&] { return converged(c, "web", 3); }));
  const std::string claim_uid = c.get(claim_kind, "data-web-2")["metadata"]["uid"];

  scale(c, "web", 1);
  REQUIRE(eventually([&] { return converged(c, "web", 1); }));
  CHECK(c.names(pod_kind) == "web-0");
  const auto history = c.pod_history();
  CHECK(index_of(history, "DELETED web-2 ready") < index_of(history, "DELETED web-1 ready"));
  CHECK(c.names(claim_kind) == "data-web-0 data-web-1 data-web-2");

  scale(c, "web", 3);
  REQUIRE(eventually([&] { return converged(c, "web", 3); }));
  CHECK(c.names(pod_kind) == "web-0 web-1 web-2");
  CHECK(c.get(claim_kind, "data-web-2")["metadata"]["uid"] == claim_uid);
}

TEST_CASE("persistentVolumeClaimRetentionPolicy: which claims go on scale-down and on deletion") {
  struct Case {
    const char* when_scaled;
    const char* when_deleted;
    std::string after_scale_down;
    std::string after_delete;
  };
  const std::string all = "data-web-0 data-web-1 data-web-2";
  for (const Case& t : {Case{"Retain", "Retain", all, all}, Case{"Delete", "Retain", "data-web-0", "data-web-0"},
                        Case{"Retain", "Delete", all, ""}, Case{"Delete", "Delete", "data-web-0", ""}}) {
    const std::string policy = std::string(t.when_scaled) + "/" + t.when_deleted;
    CAPTURE(policy);
    SimulatedCluster c;
    Json set = stateful_set("web", 3);
    set["spec"]["persistentVolumeClaimRetentionPolicy"] = {{"whenScaled", t.when_scaled},
                                                           {"whenDeleted", t.when_deleted}};
    c.cluster->create(stateful_set_kind, set);
    REQUIRE(eventually([&] { return converged(c, "web", 3); }));
    CHECK(c.names(claim_kind) == all);
    scale(c, "web", 1);
    REQUIRE(eventually([&] { return converged(c, "web", 1); }));
    CHECK(c.names(claim_kind) == t.after_scale_down);
    c.cluster->remove(stateful_set_kind, {"default", "web"});
    REQUIRE(c.settled());              // a pass that read the set before it went undoes what it made
    CHECK(c.names(pod_kind).empty());  // the garbage collector takes the pods
    CHECK(c.names(claim_kind) == t.after_delete);
  }
}

TEST_CASE("an image update: a new updateRevision, pods replaced from the highest ordinal, then current") {
  SimulatedCluster c;
  c.cluster->create(stateful_set_kind, stateful_set("web", 3, "nginx:1.25"));
  REQUIRE(eventually([&] { return converged(c, "web", 3); }));
  const std::string old_revision = c.get(stateful_set_kind, "web")["status"]["updateRevision"];
  c.pod_history();
  const auto replaced_from = c.history.size();

  Json set = c.get(stateful_set_kind, "web");
  set["spec"]["template"]["spec"]["containers"][0]["image"] = "nginx:1.27";
  c.cluster->update(stateful_set_kind, set);
  REQUIRE(eventually([&] {
    return converged(c, "web", 3) && c.get(stateful_set_kind, "web")["status"]["updateRevision"] != old_revision;
  }));
  const Json status = c.get(stateful_set_kind, "web")["status"];
  CHECK(status["currentRevision"] == status["updateRevision"]);
  CHECK(status["currentReplicas"] == 3);
  for (const std::string name : {"web-0", "web-1", "web-2"}) {
    const Json pod = c.get(pod_kind, name);
    CHECK(pod["spec"]["containers"][0]["image"] == "nginx:1.27");
    CHECK(pod["metadata"]["labels"]["controller-revision-hash"] == status["updateRevision"]);
  }
  const auto all = c.pod_history();
  const std::vector<std::string> rollout(all.begin() + static_cast<std::ptrdiff_t>(replaced_from), all.end());
  CAPTURE(rollout);
  CHECK(index_of(rollout, "DELETED web-2 ready") < index_of(rollout, "DELETED web-1 ready"));
  CHECK(index_of(rollout, "DELETED web-1 ready") < index_of(rollout, "DELETED web-0 ready"));
  CHECK(index_of(rollout, "DELETED web-0 ready") < rollout.size());
}

TEST_CASE("a pod deleted by hand is made again; a settled set is written no more") {
  SimulatedCluster c;
  c.cluster->create(stateful_set_kind, stateful_set("web", 2));
  REQUIRE(eventually([&] { return converged(c, "web", 2); }));
  const std::string uid = c.get(pod_kind, "web-1")["metadata"]["uid"];
  c.cluster->remove(pod_kind, {"default", "web-1"});
  REQUIRE(
      eventually([&] { return c.exists(pod_kind, "web-1") && c.get(pod_kind, "web-1")["metadata"]["uid"] != uid; }));
  REQUIRE(eventually([&] { return converged(c, "web", 2); }));
  REQUIRE(c.settled());
  const std::string version = c.cluster->resource_version();
  const long long writes = c.simulator->updates();
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  CHECK(c.cluster->resource_version() == version);
  CHECK(c.simulator->updates() == writes);
}

TEST_CASE("without a Pod kind a StatefulSet is reported ready as Deployments are") {
  SimulatedCluster c({.pods = false, .claims = false});
  c.cluster->create(stateful_set_kind, stateful_set("web", 2));
  REQUIRE(eventually([&] { return converged(c, "web", 2); }));
  CHECK(c.get(stateful_set_kind, "web")["status"]["availableReplicas"] == 2);
}
