// Step Service (child Service, write: apply) on its own: the Service "<name>" in front of the
// WebApp's pods, its address as status.url. The API server owns part of a Service's spec
// (clusterIP ...); the applied configuration states only the selector and the ports, so the
// server's fields stay. docs/testing-reconcilers.md describes every field of a case.
#include <doctest/doctest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "fixtures.hpp"
#include "rr/testing/registration.hpp"

namespace {

using rr::testing::new_event;
using webapp::WebApp;
using webapp_test::applied;
using webapp_test::as_applied;
using webapp_test::condition;
using webapp_test::conditions;
using webapp_test::not_owned;
using webapp_test::service;
using webapp_test::service_apply;
using Case = rr::testing::SubReconcilerTestCase<WebApp>;

constexpr const char* url = "http://test-webapp.test-namespace.svc.cluster.local";

}  // namespace

RR_SUB_RECONCILER_TESTS("WebAppServiceReconciler", WebApp, [](const Case&, const rr::Config&) {
  return webapp::WebAppServiceReconciler(std::make_shared<const webapp::WebAppHooks>());
}) {
  // As the root reconciler hands it to its steps: conditions initialised.
  const auto web_app = webapp_test::web_app().conditions(conditions({}));
  const auto exposed = conditions({.service = condition("ServiceReady", "True", "Exposed")});
  // The Service as the step applied it, with what the API server filled in (clusterIP ...).
  const auto allocated = [](std::int32_t target_port) {
    k8s::core::v1::Service s = as_applied(service_apply(target_port));
    s.spec->cluster_ip = "10.96.0.10";
    s.spec->cluster_i_ps = std::vector<std::string>{"10.96.0.10"};
    s.spec->ip_families = std::vector<std::string>{"IPv4"};
    return s;
  };

  return rr::testing::SubReconcilerTests<WebApp>{
      {"creates the Service: port 80 to the pods' 8080, status.url set",
       {
           .resource = web_app,
           .expect_resource = web_app.status_url(url).conditions(exposed),
           .expect_events = {new_event(web_app.get(), rr::event_normal, "Created", R"(Created Service "test-webapp")")},
           .expect_applies = {applied(service_apply())},
       }},
      {"the Service is as applied: nothing written",
       {
           .resource = web_app,
           .given_objects = {allocated(8080)},
           .expect_resource = web_app.status_url(url).conditions(exposed),
       }},
      // The configuration holds no clusterIP: applying it leaves the server's.
      {"the WebApp's port changed: the new ports are applied, the clusterIP the server set is kept",
       {
           .resource = web_app.spec_port(9090),
           .given_objects = {allocated(8080)},
           .expect_resource = web_app.spec_port(9090).status_url(url).conditions(exposed),
           .expect_events = {new_event(web_app.get(), rr::event_normal, "Updated", R"(Updated Service "test-webapp")")},
           .expect_applies = {applied(service_apply(9090))},
       }},
      // Someone else's Service of that name: refused, tracked and reported (NotOwned), not applied over.
      {"a Service of that name that the WebApp does not own: ServiceReady False NotOwned",
       {
           .resource = web_app,
           .given_objects = {service().owner_references({}).get()},
           .api_given_objects = {service().owner_references({}).get()},  // what the uncached read finds
           .expect_resource = web_app.conditions(conditions({
               .ready = condition("Ready", "False", "NotOwned", not_owned("Service")),
               .service = condition("ServiceReady", "False", "NotOwned", not_owned("Service")),
           })),
           .expect_tracks = {rr::testing::create_track_request("", "Service", webapp_test::test_namespace,
                                                               "test-webapp")
                                 .by(webapp_test::test_namespace, "test-webapp")},
           .expect_events = {new_event(
               web_app.get(), rr::event_warning, "CreationFailed",
               R"(Failed to create Service "test-webapp": services "test-webapp" already exists)")},
       }},
  };
}
