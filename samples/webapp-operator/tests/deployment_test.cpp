// Step Deployment (child Deployment) on its own: the Deployment "<name>" the WebApp wants, kept
// in that state, and its available replicas reflected as DeploymentReady.
// docs/testing-reconcilers.md describes every field of a case.
#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

#include "fixtures.hpp"
#include "rr/testing/registration.hpp"

namespace {

using webapp::WebApp;
using webapp_test::condition;
using webapp_test::conditions;
using webapp_test::deployment;
using webapp_test::DeploymentDie;
using webapp_test::test_namespace;
using rr::testing::new_event;
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
  // Someone else's Deployment, with the name the WebApp wants.
  const DeploymentDie squatter = deployment().owner_references({}).metadata([](rr::ObjectMeta& m) { m.labels.clear(); });
  const std::string not_owned = R"(There is an existing Deployment "test-webapp" that the WebApp does not own.)";

  return rr::testing::SubReconcilerTests<WebApp>{
      {"creates the Deployment: one replica of the image on port 8080, controlled by the WebApp",
       {
           .resource = web_app,
           .expect_resource = web_app.status_available_replicas(0).conditions(progressing("0 of 1 replicas available")),
           .expect_events = {created_event},
           .expect_creates = {deployment().get()},
       }},
      {"creates the Deployment: replicas, port, the ConfigMap as environment, its hash on the pods",
       {
           .resource = configured,
           .expect_resource = configured.status_available_replicas(0).conditions(progressing("0 of 3 replicas available")),
           .expect_events = {created_event},
           .expect_creates = {deployment({.replicas = 3,
                                          .port = 9090,
                                          .config_map = "app-config",
                                          .config_hash = "0123456789abcdef"})
                                  .get()},
       }},
      {"every replica available: DeploymentReady True and nothing written",
       {
           .resource = web_app.spec_replicas(2),
           .given_objects = {deployment({.replicas = 2}).status_available_replicas(2).get()},
           .expect_resource = web_app.spec_replicas(2).status_available_replicas(2).conditions(conditions({
               .deployment = condition("DeploymentReady", "True", "Available"),
           })),
       }},
      {"some replicas available: DeploymentReady Unknown with the count",
       {
           .resource = web_app.spec_replicas(2),
           .given_objects = {deployment({.replicas = 2}).status_available_replicas(1).get()},
           .expect_resource =
               web_app.spec_replicas(2).status_available_replicas(1).conditions(progressing("1 of 2 replicas available")),
       }},
      {"the WebApp's image changed: the Deployment is updated",
       {
           .resource = version_2,
           .given_objects = {deployment().uid("deployment-uid").get()},
           .expect_resource = version_2.status_available_replicas(0).conditions(progressing("0 of 1 replicas available")),
           .expect_events = {new_event(web_app.get(), rr::event_normal, "Updated", R"(Updated Deployment "test-webapp")")},
           .expect_updates = {deployment({.image = "registry.example/hello:2.0"}).uid("deployment-uid").get()},
       }},
      // The create is refused (AlreadyExists); the squatter is tracked, so that its deletion
      // brings the WebApp back, and reported rather than returned.
      {"a Deployment of that name that the WebApp does not own: DeploymentReady False NotOwned",
       {
           .resource = web_app,
           .given_objects = {squatter.get()},
           .expect_resource = web_app.conditions(conditions({
               .deployment = condition("DeploymentReady", "False", "NotOwned", not_owned),
               .ready = condition("Ready", "False", "NotOwned", not_owned),
           })),
           .expect_tracks = {rr::testing::create_track_request("apps", "Deployment", test_namespace, "test-webapp")
                                 .by(test_namespace, "test-webapp")},
           .expect_events = {new_event(web_app.get(), rr::event_warning, "CreationFailed",
                                       R"(Failed to create Deployment "test-webapp": deployments.apps "test-webapp" already exists)")},
           .expect_creates = {deployment().get()},
       }},
  };
}
