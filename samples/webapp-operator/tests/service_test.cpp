// Step Service (child Service) on its own: the Service "<name>" in front of the WebApp's pods,
// its address as status.url. The API server owns part of a Service's spec (clusterIP ...), so
// service_merge copies only the selector and the ports. docs/testing-reconcilers.md describes
// every field of a case.
#include <doctest/doctest.h>

#include <memory>
#include <string>

#include "fixtures.hpp"
#include "rr/testing/registration.hpp"

namespace {

using webapp::WebApp;
using webapp_test::condition;
using webapp_test::conditions;
using webapp_test::service;
using rr::testing::new_event;
using Case = rr::testing::SubReconcilerTestCase<WebApp>;

constexpr const char* url = "http://test-webapp.test-namespace.svc.cluster.local";

}  // namespace

RR_SUB_RECONCILER_TESTS("WebAppServiceReconciler", WebApp, [](const Case&, const rr::Config&) {
  return webapp::WebAppServiceReconciler(std::make_shared<const webapp::WebAppHooks>());
}) {
  // As the root reconciler hands it to its steps: conditions initialised.
  const auto web_app = webapp_test::web_app().conditions(conditions({}));
  const auto exposed = conditions({.service = condition("ServiceReady", "True", "Exposed")});
  // What the API server filled in when it created the Service.
  const auto allocated = [](webapp_test::ServiceDie s) {
    return s.uid("service-uid").spec_cluster_ip("10.96.0.10").spec_cluster_i_ps({"10.96.0.10"}).spec_ip_families({"IPv4"});
  };
  const std::string not_owned = R"(There is an existing Service "test-webapp" that the WebApp does not own.)";

  return rr::testing::SubReconcilerTests<WebApp>{
      {"creates the Service: port 80 to the pods' 8080, status.url set",
       {
           .resource = web_app,
           .expect_resource = web_app.status_url(url).conditions(exposed),
           .expect_events = {new_event(web_app.get(), rr::event_normal, "Created", R"(Created Service "test-webapp")")},
           .expect_creates = {service().get()},
       }},
      {"the Service is as desired: nothing written",
       {
           .resource = web_app,
           .given_objects = {allocated(service()).get()},
           .expect_resource = web_app.status_url(url).conditions(exposed),
       }},
      // A merge that replaced the whole spec would send clusterIP "" and be refused.
      {"the WebApp's port changed: the ports are updated, the clusterIP the server set is kept",
       {
           .resource = web_app.spec_port(9090),
           .given_objects = {allocated(service(8080)).get()},
           .expect_resource = web_app.spec_port(9090).status_url(url).conditions(exposed),
           .expect_events = {new_event(web_app.get(), rr::event_normal, "Updated", R"(Updated Service "test-webapp")")},
           .expect_updates = {allocated(service(9090)).get()},
       }},
      {"a Service of that name that the WebApp does not own: ServiceReady False NotOwned, no url",
       {
           .resource = web_app,
           .given_objects = {service().owner_references({}).get()},
           .expect_resource = web_app.conditions(conditions({
               .ready = condition("Ready", "False", "NotOwned", not_owned),
               .service = condition("ServiceReady", "False", "NotOwned", not_owned),
           })),
           .expect_tracks = {rr::testing::create_track_request("", "Service", webapp_test::test_namespace, "test-webapp")
                                 .by(webapp_test::test_namespace, "test-webapp")},
           .expect_events = {new_event(web_app.get(), rr::event_warning, "CreationFailed",
                                       R"(Failed to create Service "test-webapp": services "test-webapp" already exists)")},
           .expect_creates = {service().get()},
       }},
  };
}
