// Step Deployment (child Deployment, write: apply) on its own: the Deployment "<name>" the WebApp
// wants, applied by field manager "webapp" when it differs from what the step applied last, and
// its available replicas reflected as DeploymentReady.
// docs/testing-reconcilers.md describes every field of a case.
#include <doctest/doctest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "fixtures.hpp"
#include "rr/testing/expect_config.hpp"
#include "rr/testing/registration.hpp"

namespace {

using rr::testing::new_event;
using webapp::WebApp;
using webapp_test::applied;
using webapp_test::as_applied;
using webapp_test::condition;
using webapp_test::conditions;
using webapp_test::deployment;
using webapp_test::deployment_apply;
using webapp_test::not_owned;
using webapp_test::test_namespace;
using Case = rr::testing::SubReconcilerTestCase<WebApp>;

// DeploymentReady (and Ready, which follows it) while replicas are missing.
std::vector<rr::Condition> progressing(const std::string& message) {
  return conditions({
      .deployment = condition("DeploymentReady", "Unknown", "Progressing", message),
      .ready = condition("Ready", "Unknown", "Progressing", message),
  });
}

}  // namespace

RR_SUB_RECONCILER_TESTS("WebAppDeploymentReconciler", WebApp, [](const Case&, const rr::Config&) {
  return webapp::WebAppDeploymentReconciler(std::make_shared<const webapp::WebAppHooks>());
}) {
  // As the root reconciler hands it to its steps: conditions initialised.
  const auto web_app = webapp_test::web_app().conditions(conditions({}));
  // Everything the Deployment takes from the WebApp: replicas, port, ConfigMap and its hash.
  const auto configured = web_app.spec_replicas(3)
                              .spec_port(9090)
                              .spec_config_map_name("app-config")
                              .status_config_hash("0123456789abcdef");
  const auto version_2 = web_app.spec_image("registry.example/hello:2.0");
  const auto created_event = new_event(web_app.get(), rr::event_normal, "Created", R"(Created Deployment "test-webapp")");
  // Someone else's Deployment (nobody's), with the name the WebApp wants.
  const auto squatter = deployment().owner_references({}).metadata([](rr::ObjectMeta& m) { m.labels.clear(); });
  const auto updated_event = new_event(web_app.get(), rr::event_normal, "Updated",
                                       R"(Updated Deployment "test-webapp")");
  // The Deployment as the step left it, its pods reporting `available` replicas.
  const auto running = [](const webapp_test::Workload& w, std::int32_t available) {
    k8s::apps::v1::Deployment d = as_applied(deployment_apply(w));
    d.status.emplace().available_replicas = available;
    return d;
  };

  return rr::testing::SubReconcilerTests<WebApp>{
      {"creates the Deployment: one replica of the image on port 8080, controlled by the WebApp",
       {
           .resource = web_app,
           .expect_resource = web_app.status_available_replicas(0).conditions(progressing("0 of 1 replicas available")),
           .expect_events = {created_event},
           .expect_applies = {applied(deployment_apply())},
       }},
      {"creates the Deployment: replicas, port, the ConfigMap as environment, its hash on the pods",
       {
           .resource = configured,
           .expect_resource = configured.status_available_replicas(0).conditions(
               progressing("0 of 3 replicas available")),
           .expect_events = {created_event},
           .expect_applies = {applied(deployment_apply(
               {.replicas = 3, .port = 9090, .config_map = "app-config", .config_hash = "0123456789abcdef"}))},
       }},
      {"every replica available: DeploymentReady True and nothing written (what webapp applied is still desired)",
       {
           .resource = web_app.spec_replicas(2),
           .given_objects = {running({.replicas = 2}, 2)},
           .expect_resource = web_app.spec_replicas(2).status_available_replicas(2).conditions(conditions({
               .deployment = condition("DeploymentReady", "True", "Available"),
           })),
       }},
      {"some replicas available: DeploymentReady Unknown with the count",
       {
           .resource = web_app.spec_replicas(2),
           .given_objects = {running({.replicas = 2}, 1)},
           .expect_resource = web_app.spec_replicas(2).status_available_replicas(1).conditions(
               progressing("1 of 2 replicas available")),
       }},
      {"the WebApp's image changed: the new configuration is applied",
       {
           .resource = version_2,
           .given_objects = {running({}, 0)},
           .expect_resource = version_2.status_available_replicas(0).conditions(
               progressing("0 of 1 replicas available")),
           .expect_events = {updated_event},
           .expect_applies = {applied(deployment_apply({.image = "registry.example/hello:2.0"}))},
       }},
      // Written by update mode, before the switch to apply: no managedFields entry of "webapp", so
      // one apply takes the fields over; from then on the step finds it in sync.
      {"a Deployment the step updated before apply mode: applied once",
       {
           .resource = web_app,
           .given_objects = {deployment().get()},
           .expect_resource = web_app.status_available_replicas(0).conditions(progressing("0 of 1 replicas available")),
           .expect_events = {updated_event},
           .expect_applies = {applied(deployment_apply())},
       }},
      // Someone else's Deployment (or nobody's) of the name the WebApp wants: not applied over, but
      // refused as update mode refuses it (read uncached), tracked so that its deletion brings the
      // WebApp back, and reported rather than returned.
      {"a Deployment of that name that the WebApp does not own: DeploymentReady False NotOwned",
       {
           .resource = web_app,
           .given_objects = {squatter.get()},
           .api_given_objects = {squatter.get()},  // what the uncached read finds
           .expect_resource = web_app.conditions(conditions({
               .deployment = condition("DeploymentReady", "False", "NotOwned", not_owned("Deployment")),
               .ready = condition("Ready", "False", "NotOwned", not_owned("Deployment")),
           })),
           .expect_tracks = {rr::testing::create_track_request("apps", "Deployment", test_namespace, "test-webapp")
                                 .by(test_namespace, "test-webapp")},
           .expect_events = {new_event(
               web_app.get(), rr::event_warning, "CreationFailed",
               R"(Failed to create Deployment "test-webapp": deployments.apps "test-webapp" already exists)")},
       }},
  };
}

// The step over one cluster three times: the first reconcile applies, the next two find what
// "webapp" applied (the server's managedFields) equal to what is desired and send nothing.
TEST_CASE("WebAppDeploymentReconciler: one apply, then in sync") {
  rr::testing::ExpectConfig world;
  const rr::Config config = world.config();
  const auto step = webapp::WebAppDeploymentReconciler(std::make_shared<const webapp::WebAppHooks>());
  for (int i = 0; i < 3; ++i) {
    WebApp app = webapp_test::web_app().conditions(conditions({})).get();
    rr::Context ctx(rr::ContextOptions{.config = config,
                                       .request = {webapp_test::test_namespace, webapp_test::app_name},
                                       .resource_type = rr::kind_info_of<WebApp>()});
    CHECK_FALSE(step.reconcile(ctx, app).error);
  }
  // (No create or update either: the table cases above refuse any write they do not expect.)
  CHECK(world.client().applies().size() == 1);
}
