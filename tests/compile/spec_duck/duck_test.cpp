// The generated duck wiring (tests/golden/cases/spec_duck) with the hooks as scaffolded: a root per
// kind reconciles a built-in Deployment and a Gadget custom resource through rr::ConditionsDuck,
// writing exact merge patches (the finalizer, then the status the duck knows: the spec's
// conditions and observedGeneration) and nothing else; AddWatcherControllers makes one controller
// per kind, from the arguments or the spec's defaults.
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "k8s/apps/v1/deployment.hpp"
#include "rr/cluster/cluster.hpp"
#include "rr/core/json.hpp"
#include "rr/testing/registration.hpp"
#include "watcher_hooks.hpp"

namespace {

using k8s::apps::v1::Deployment;

const auto now = std::chrono::sys_days{std::chrono::year{2024} / 3 / 1};

Deployment deployment() {
  // A Deployment the API server admits: a selector its template's labels match, one container.
  Deployment d = Deployment::from_json_text(
      R"({"metadata":{"namespace":"default","name":"web","generation":4},)"
      R"("spec":{"selector":{"matchLabels":{"app":"web"}},)"
      R"("template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"web","image":"nginx"}]}}}})");
  d.status.emplace().replicas = 2;  // the Deployment controller's, which the duck does not know
  return d;
}

const rr::KindInfo gadgets{{"example.dev", "v1", "Gadget"}, "gadgets", "GadgetList", rr::Scope::Namespaced, true};

rr::Json gadget() {
  return rr::Json::parse(R"({"apiVersion":"example.dev/v1","kind":"Gadget",
      "metadata":{"namespace":"default","name":"g1","generation":2},"spec":{"size":3},
      "status":{"phase":"Running"}})");
}

const char* const kStatusPatch =
    R"({"status":{"conditions":[{"lastTransitionTime":"2024-03-01T00:00:00Z","message":"","reason":"Initializing",)"
    R"("status":"Unknown","type":"Ready"},{"lastTransitionTime":"2024-03-01T00:00:00Z","message":"",)"
    R"("reason":"Initializing","status":"Unknown","type":"Watched"}],"observedGeneration":$gen$}})";

std::string status_patch(int generation) {
  std::string out = kStatusPatch;
  out.replace(out.find("$gen$"), 5, std::to_string(generation));
  return out;
}

// The harness gives objects resourceVersion 999; the finalizer patch carries it (optimistic lock).
const char* const kFinalizerPatch =
    R"({"metadata":{"finalizers":["watcher.rrgen.dev/release"],"resourceVersion":"999"}})";

// A stand-in for rr::OperatorContext: what AddWatcherControllers uses of it.
struct FakeOperator {
  struct Options {
    std::vector<std::string> args;
  } options;
  std::shared_ptr<rr::Client> api;
  std::vector<std::string> controllers;
  std::vector<rr::Reconciler> reconcilers;

  void add_controller(std::string name, const std::function<rr::Reconciler(const rr::Config&)>& factory) {
    controllers.push_back(std::move(name));
    reconcilers.push_back(factory(rr::Config{}));
  }
};

}  // namespace

RR_RECONCILER_TESTS("WatcherDeployment", [](const rr::testing::ReconcilerTestCase&, const rr::Config& c) {
  return watcher::WatcherReconciler(c, rr::kind_info_of<Deployment>());
}) {
  const rr::Request request{"default", "web"};
  auto event_on = [](std::string reason, std::string message) {
    return rr::testing::Event{"apps/v1", "Deployment",      "default",         "web",
                              "Normal",  std::move(reason), std::move(message)};
  };
  return rr::testing::ReconcilerTests{
      {"a Deployment gets the finalizer and the duck's status, as merge patches",
       {
           .request = request,
           .given_objects = {deployment()},
           .expect_events = {event_on("FinalizerPatched", "Patched finalizer \"watcher.rrgen.dev/release\""),
                             event_on("StatusPatched", "Patched status")},
           .expect_patches = {{.group = "apps",
                               .kind = "Deployment",
                               .namespace_ = "default",
                               .name = "web",
                               .patch = kFinalizerPatch}},
           .expect_status_patches = {{.group = "apps",
                                      .kind = "Deployment",
                                      .namespace_ = "default",
                                      .name = "web",
                                      .subresource = "status",
                                      .patch = status_patch(4)}},
           .now = now,
       }},
  };
}

RR_RECONCILER_TESTS("WatcherGadget", [](const rr::testing::ReconcilerTestCase&, const rr::Config& c) {
  return watcher::WatcherReconciler(c, gadgets);
}) {
  const rr::Request request{"default", "g1"};
  auto event_on = [](std::string reason, std::string message) {
    return rr::testing::Event{"example.dev/v1", "Gadget",          "default",         "g1",
                              "Normal",         std::move(reason), std::move(message)};
  };
  return rr::testing::ReconcilerTests{
      {"a Gadget gets the finalizer and the duck's status; its phase is not sent",
       {
           .request = request,
           .given_objects = {rr::testing::AnyObject(gadgets, gadget())},
           .expect_events = {event_on("FinalizerPatched", "Patched finalizer \"watcher.rrgen.dev/release\""),
                             event_on("StatusPatched", "Patched status")},
           .expect_patches = {{.group = "example.dev",
                               .kind = "Gadget",
                               .namespace_ = "default",
                               .name = "g1",
                               .patch = kFinalizerPatch}},
           .expect_status_patches = {{.group = "example.dev",
                                      .kind = "Gadget",
                                      .namespace_ = "default",
                                      .name = "g1",
                                      .subresource = "status",
                                      .patch = status_patch(2)}},
           .now = now,
       }},
  };
}

TEST_CASE("AddWatcherControllers: one controller per default kind, or per argument") {
  auto cluster = std::make_shared<rr::Cluster>();
  cluster->register_kind<Deployment>();
  cluster->register_kind(gadgets);
  FakeOperator op;
  op.api = std::make_shared<rr::ClusterClient>(cluster);
  watcher::AddWatcherControllers(op);
  CHECK(op.controllers == std::vector<std::string>{"watcher-deployments.apps", "watcher-gadgets.example.dev"});

  FakeOperator given;
  given.api = op.api;
  given.options.args = {"example.dev/v1/Gadget"};
  watcher::AddWatcherControllers(given);
  CHECK(given.controllers == std::vector<std::string>{"watcher-gadgets.example.dev"});
  REQUIRE(given.reconcilers.size() == 1);
  rr::Setup setup;
  given.reconcilers.front().setup(setup);
  CHECK(setup.watches().front().kind == gadgets);
}
