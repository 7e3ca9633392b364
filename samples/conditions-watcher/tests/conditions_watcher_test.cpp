// The conditions watcher: its helpers, a table test of the exact status patch, and the watcher
// running live (informers, controllers) against the in-process cluster over two kinds, a built-in
// apps/v1 Deployment and a Gadget custom resource, leaving the rest of each object untouched.
#include <chrono>
#include <cstdlib>
#include <memory>
#include <stop_token>
#include <thread>

#include <doctest/doctest.h>

#include "conditions_watcher_hooks.hpp"
#include "k8s/apps/v1/deployment.hpp"
#include "rr/cluster/cluster.hpp"
#include "rr/controller/controller.hpp"
#include "rr/controller/informer_cache.hpp"
#include "rr/core/json.hpp"
#include "rr/testing/registration.hpp"

using k8s::apps::v1::Deployment;

namespace {

const auto now = std::chrono::sys_days{std::chrono::year{2024} / 3 / 1};

Deployment deployment() {
  // A Deployment the API server admits: a selector its template's labels match, one container.
  Deployment d = Deployment::from_json_text(
      R"({"metadata":{"namespace":"default","name":"web","generation":4},)"
      R"("spec":{"selector":{"matchLabels":{"app":"web"}},)"
      R"("template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"web","image":"nginx"}]}}}})");
  auto& status = d.status.emplace();
  status.observed_generation = 3;  // the Deployment controller's, not the watcher's
  status.replicas = 2;
  k8s::apps::v1::DeploymentCondition available;
  available.type = "Available";
  available.status = "True";
  available.reason = "MinimumReplicasAvailable";
  available.message = "Deployment has minimum availability.";
  available.last_transition_time = rr::Time::from(now - std::chrono::hours(1));
  available.last_update_time = rr::Time::from(now - std::chrono::hours(1));
  status.conditions.emplace().push_back(available);
  return d;
}

rr::Json status_patch_of(const Deployment&) {
  return rr::Json::parse(R"({"status":{"conditions":[
      {"lastTransitionTime":"2024-02-29T23:00:00Z","lastUpdateTime":"2024-02-29T23:00:00Z",
       "message":"Deployment has minimum availability.","reason":"MinimumReplicasAvailable","status":"True",
       "type":"Available"},
      {"lastTransitionTime":"2024-03-01T00:00:00Z","message":"Available=True","reason":"Observed","status":"True",
       "type":"Watched"}]}})");
}

rr::Json without(rr::Json object, std::initializer_list<const char*> metadata_members) {
  for (const char* m : metadata_members) object["metadata"].erase(m);
  return object;
}

// The object without the Watched condition and what any write changes (resourceVersion,
// managedFields).
rr::Json unwatched(rr::Json object) {
  object = without(std::move(object), {"resourceVersion", "managedFields"});
  auto& conditions = object["status"]["conditions"];
  for (auto it = conditions.begin(); it != conditions.end();) {
    it = (*it)["type"] == "Watched" ? conditions.erase(it) : it + 1;
  }
  return object;
}

const rr::Json* watched_of(const rr::Json& object) {
  const auto status = object.find("status");
  if (status == object.end() || !status->contains("conditions")) return nullptr;
  for (const auto& c : (*status)["conditions"]) {
    if (c.value("type", "") == "Watched") return &c;
  }
  return nullptr;
}

bool eventually(const std::function<bool()>& done) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::chrono::steady_clock::now() < deadline) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return done();
}

}  // namespace

TEST_CASE("ConditionsWatcherKinds: the arguments as <apiVersion>/<Kind>, else the spec's kinds") {
  const std::vector<rr::GroupVersionKind> given{{"apps", "v1", "Deployment"}, {"", "v1", "ConfigMap"}};
  CHECK(watcher::ConditionsWatcherKinds({"apps/v1/Deployment", "v1/ConfigMap"}) == given);
  CHECK_THROWS_WITH_AS(watcher::ConditionsWatcherKinds({"Deployment"}),
                       "a kind is <apiVersion>/<Kind> (apps/v1/Deployment, v1/Pod), not \"Deployment\"",
                       std::invalid_argument);
  CHECK_THROWS_AS(watcher::ConditionsWatcherKinds({"apps/v1/"}), std::invalid_argument);
  if (std::getenv("CONDITIONS_WATCHER_KINDS") == nullptr) {
    const std::vector<rr::GroupVersionKind> defaults{{"apps", "v1", "Deployment"}, {"example.dev", "v1", "Gadget"}};
    CHECK(watcher::ConditionsWatcherKinds() == defaults);
  }
}

TEST_CASE("summary_of: the other conditions, in order") {
  std::vector<rr::Condition> conditions(3);
  conditions[0].type = "Ready";
  conditions[0].status = "False";
  conditions[1].type = "Watched";
  conditions[1].status = "True";
  conditions[2].type = "Synced";
  conditions[2].status = "Unknown";
  CHECK(watcher::summary_of(conditions) == "Ready=False, Synced=Unknown");
  CHECK(watcher::summary_of({}).empty());
}

RR_RECONCILER_TESTS("ConditionsWatcher", [](const rr::testing::ReconcilerTestCase&, const rr::Config& c) {
  return watcher::ConditionsWatcherReconciler(c, rr::kind_info_of<Deployment>());
}) {
  const rr::Request request{"default", "web"};
  Deployment without_conditions = deployment();
  without_conditions.status->conditions.reset();
  Deployment watched = deployment();
  k8s::apps::v1::DeploymentCondition w;
  w.type = "Watched";
  w.status = "True";
  w.reason = "Observed";
  w.message = "Available=True";
  w.last_transition_time = rr::Time::from(now);
  watched.status->conditions->push_back(w);
  auto event_on = [](const Deployment& d, std::string reason, std::string message) {
    return rr::testing::Event{"apps/v1", "Deployment",      d.metadata.namespace_, d.metadata.name,
                              "Normal",  std::move(reason), std::move(message)};
  };
  return rr::testing::ReconcilerTests{
      {"a Deployment gets Watched through a status patch",
       {
           .request = request,
           .given_objects = {deployment()},
           .expect_events = {event_on(deployment(), "StatusPatched", "Patched status")},
           .expect_status_patches = {{.group = "apps",
                                      .kind = "Deployment",
                                      .namespace_ = "default",
                                      .name = "web",
                                      .subresource = "status",
                                      .patch = status_patch_of(deployment()).dump()}},
           .now = now,
       }},
      {"already watched: nothing to write", {.request = request, .given_objects = {watched}, .now = now}},
      {"no conditions: not watched", {.request = request, .given_objects = {without_conditions}, .now = now}},
  };
}

TEST_CASE("conditions-watcher live: a Deployment and a Gadget get Watched, the rest of each object is untouched") {
  auto cluster = std::make_shared<rr::Cluster>();
  cluster->register_kind<Deployment>();
  cluster->register_kind(
      rr::KindInfo{{"example.dev", "v1", "Gadget"}, "gadgets", "GadgetList", rr::Scope::Namespaced, true});
  auto api = std::make_shared<rr::ClusterClient>(cluster);

  // The kinds, as the program resolves its arguments.
  const std::vector<rr::GroupVersionKind> kinds = watcher::ConditionsWatcherKinds(
      {"apps/v1/Deployment", "example.dev/v1/Gadget"});
  REQUIRE(kinds.size() == 2);
  const rr::KindInfo deployments = api->kind_info(kinds[0]);
  const rr::KindInfo gadgets = api->kind_info(kinds[1]);

  // The objects, their status written through the status subresource as their controllers would.
  rr::Json d = api->create(deployments, rr::to_object_json(deployment()));
  d["status"] = rr::to_object_json(deployment())["status"];
  d = api->update_status(deployments, d);
  rr::Json g = api->create(gadgets, rr::Json::parse(R"({"apiVersion":"example.dev/v1","kind":"Gadget",
      "metadata":{"namespace":"default","name":"g1","labels":{"team":"a"}},
      "spec":{"size":3,"colors":["red","blue"]}})"));
  g["status"] = rr::Json::parse(R"({"observedGeneration":1,"phase":"Running","conditions":[
      {"type":"Ready","status":"True","reason":"Up","message":"all good","lastTransitionTime":"2024-01-01T00:00:00Z"}]})");
  g = api->update_status(gadgets, g);
  // A Gadget without conditions is not watched.
  const rr::Json bare = api->create(gadgets, rr::Json::parse(R"({"apiVersion":"example.dev/v1","kind":"Gadget",
      "metadata":{"namespace":"default","name":"bare"},"spec":{"size":1}})"));

  rr::InformerCacheOptions cache_options;
  cache_options.informer.poll_interval = std::chrono::milliseconds(20);
  auto cache = std::make_shared<rr::InformerCache>(api, cache_options);
  auto controller_of = [&](const rr::KindInfo& kind) {
    rr::ControllerOptions options;
    options.name = kind.resource_group() + "-watcher";
    return std::make_shared<rr::Controller>(
        std::move(options),
        [kind](const rr::Config& config) { return watcher::ConditionsWatcherReconciler(config, kind); }, api, cache);
  };
  auto deployment_watcher = controller_of(deployments);
  auto gadget_watcher = controller_of(gadgets);
  CHECK(deployment_watcher->for_kind() == deployments);
  CHECK(gadget_watcher->for_kind() == gadgets);
  {
    std::jthread cache_thread([cache](std::stop_token stop) { cache->start(stop); });
    std::jthread deployment_thread([deployment_watcher](std::stop_token stop) { deployment_watcher->start(stop); });
    std::jthread gadget_thread([gadget_watcher](std::stop_token stop) { gadget_watcher->start(stop); });

    REQUIRE(eventually([&] { return watched_of(api->get(deployments, {"default", "web"})) != nullptr; }));
    REQUIRE(eventually([&] { return watched_of(api->get(gadgets, {"default", "g1"})) != nullptr; }));
    const rr::Json d_after = api->get(deployments, {"default", "web"});
    const rr::Json g_after = api->get(gadgets, {"default", "g1"});
    CHECK((*watched_of(d_after))["message"] == "Available=True");
    CHECK((*watched_of(g_after))["message"] == "Ready=True");
    // Everything else is as it was: spec, labels, the kinds' own status members, observedGeneration.
    CHECK(unwatched(d_after) == unwatched(d));
    CHECK(unwatched(g_after) == unwatched(g));
    CHECK(g_after["status"]["phase"] == "Running");
    CHECK(g_after["status"]["observedGeneration"] == 1);
    CHECK(d_after["status"]["observedGeneration"] == 3);

    // A change of the Gadget's conditions is seen again through the watch.
    rr::Json changed = g_after;
    changed["status"]["conditions"][0]["status"] = "False";
    api->update_status(gadgets, changed);
    REQUIRE(eventually([&] {
      const rr::Json now_stored = api->get(gadgets, {"default", "g1"});
      const rr::Json* w = watched_of(now_stored);
      return w && (*w)["message"] == "Ready=False";
    }));
    CHECK(api->get(gadgets, {"default", "g1"})["spec"] == g["spec"]);
  }
  CHECK(api->get(gadgets, {"default", "bare"}) == bare);
}
