// The whole WebApp reconciler (rr::ResourceReconciler running Config, Deployment, Service and
// DnsRecord in order), as the controller runs it for one request: every write it makes, every
// event, the status it ends with. Each case gets its own in-memory DNS provider (through the
// case's metadata). docs/testing-reconcilers.md describes every field of a case.
#include <doctest/doctest.h>

#include <chrono>
#include <memory>
#include <string>

#include "fixtures.hpp"
#include "rr/testing/registration.hpp"

namespace {

using rr::testing::new_event;
using rr::testing::new_status_apply;
using webapp::InMemoryDns;
using webapp_test::add_finalizer_patch;
using webapp_test::applied;
using webapp_test::as_applied;
using webapp_test::clear_finalizer_patch;
using webapp_test::condition;
using webapp_test::conditions;
using webapp_test::ConfigMapDie;
using webapp_test::deployment;
using webapp_test::deployment_apply;
using webapp_test::dns_finalizer;
using webapp_test::dns_key;
using webapp_test::dns_with;
using webapp_test::service;
using webapp_test::service_apply;
using webapp_test::service_host;
using webapp_test::test_namespace;

constexpr const char* hostname = "hello.example.com";
constexpr const char* url = "http://test-webapp.test-namespace.svc.cluster.local";

}  // namespace

RR_RECONCILER_TESTS("WebAppReconciler", [](const rr::testing::ReconcilerTestCase& tc, const rr::Config& config) {
  return webapp::WebAppReconciler(config, webapp_test::hooks_with(webapp_test::dns_of(tc.metadata)));
}) {
  const rr::Request request{test_namespace, "test-webapp"};
  const auto app_config = ConfigMapDie().namespace_(test_namespace).name("app-config").data({{"GREETING", "hello"}});
  const std::string hash = webapp::config_hash(app_config);
  // A new WebApp, as kubectl creates it (no status, no finalizer).
  const auto web_app =
      webapp_test::web_app().spec_replicas(2).spec_config_map_name("app-config").spec_hostname(hostname);
  const auto track_app_config =
      rr::testing::create_track_request("", "ConfigMap", test_namespace, "app-config").by(test_namespace, "test-webapp");
  const webapp_test::Workload workload{.replicas = 2, .config_map = "app-config", .config_hash = hash};

  // After the first reconcile: everything in place, the pods not up yet.
  const std::string starting = "0 of 2 replicas available";
  const auto first_status = web_app.observed_generation(1)
                                .status_config_hash(hash)
                                .status_available_replicas(0)
                                .status_url(url)
                                .status_dns_record(hostname)
                                .conditions(conditions({
                                    .config = condition("ConfigReady", "True", "Resolved"),
                                    .deployment = condition("DeploymentReady", "Unknown", "Progressing", starting),
                                    .dns = condition("DnsReady", "True", "Published"),
                                    .ready = condition("Ready", "Unknown", "Progressing", starting),
                                    .service = condition("ServiceReady", "True", "Exposed"),
                                }));
  // Converged: the Deployment's controller reported both replicas, the status says so.
  const auto converged = web_app.finalizers({dns_finalizer})
                             .observed_generation(1)
                             .status_config_hash(hash)
                             .status_available_replicas(2)
                             .status_url(url)
                             .status_dns_record(hostname)
                             .conditions(webapp_test::all_ready("Resolved"));
  const auto deleted =
      converged.deletion_timestamp(rr::Time::from(std::chrono::system_clock::time_point{} + std::chrono::hours(1)));
  const std::string missing = R"(ConfigMap "app-config" does not exist)";
  // The Deployment as the Deployment step applied it (managedFields of "webapp"), both replicas up.
  k8s::apps::v1::Deployment running = as_applied(deployment_apply(workload));
  running.status.emplace().available_replicas = 2;

  const auto dns_new = std::make_shared<InMemoryDns>();
  const auto dns_converged = dns_with(hostname, service_host);
  const auto dns_for_deletion = dns_with(hostname, service_host);
  const auto dns_untouched = std::make_shared<InMemoryDns>();

  return rr::testing::ReconcilerTests{
      {"the WebApp does not exist: nothing to do",
       {
           .metadata = {{dns_key, std::make_shared<InMemoryDns>()}},
           .request = request,
       }},
      {"a new WebApp: Deployment and Service created, finalizer added, DNS published, status written",
       {
           .metadata = {{dns_key, dns_new}},
           .request = request,
           .given_objects = {web_app.get(), app_config.get()},
           .expect_tracks = {track_app_config},
           .expect_events =
               {
                   new_event(web_app.get(), rr::event_normal, "Created", R"(Created Deployment "test-webapp")"),
                   new_event(web_app.get(), rr::event_normal, "Created", R"(Created Service "test-webapp")"),
                   new_event(web_app.get(), rr::event_normal, "FinalizerPatched",
                             R"(Patched finalizer "web.example.rrgen.dev/dns-record")"),
                   new_event(web_app.get(), rr::event_normal, "DnsRecordPublished",
                             R"(Published "hello.example.com" -> "test-webapp.test-namespace.svc.cluster.local")"),
                   new_event(web_app.get(), rr::event_normal, "StatusUpdated", "Updated status"),
               },
           .expect_patches = {add_finalizer_patch()},
           .expect_applies = {applied(deployment_apply(workload)), applied(service_apply())},
           .expect_status_applies = {new_status_apply(first_status.get(), "webapp")},
           .verify =
               [dns = dns_new](const rr::Result&, const rr::Error&) {
                 CHECK(dns->lookup(hostname) == service_host);
                 CHECK(dns->changes() == 1);
               },
       }},
      {"converged: a second reconcile writes nothing",
       {
           .metadata = {{dns_key, dns_converged}},
           .request = request,
           .given_objects = {converged.get(), app_config.get(), running, as_applied(service_apply())},
           .expect_tracks = {track_app_config},
           .verify = [dns = dns_converged](const rr::Result&, const rr::Error&) { CHECK(dns->changes() == 1); },
       }},
      // err_durable halts the sequence: no Deployment runs without its configuration, and the
      // status write stands in for the error (the tracker brings the WebApp back).
      {"the ConfigMap is missing: recorded on the status, nothing created",
       {
           .metadata = {{dns_key, dns_untouched}},
           .request = request,
           .given_objects = {web_app.get()},
           .expect_tracks = {track_app_config},
           .expect_events = {new_event(web_app.get(), rr::event_normal, "StatusUpdated", "Updated status")},
           .expect_status_applies = {new_status_apply(
               web_app.observed_generation(1)
                   .conditions(conditions({
                       .config = condition("ConfigReady", "False", "ConfigMapMissing", missing),
                       .ready = condition("Ready", "False", "ConfigMapMissing", missing),
                   }))
                   .get(),
               "webapp")},
           .verify = [dns = dns_untouched](const rr::Result&, const rr::Error&) { CHECK(dns->changes() == 0); },
       }},
      {"deleted: the children go, the DNS record is removed, then the finalizer cleared",
       {
           .metadata = {{dns_key, dns_for_deletion}},
           .request = request,
           .given_objects = {deleted.get(), app_config.get(), deployment(workload).status_available_replicas(2).get(),
                             service().get()},
           .expect_events =
               {
                   new_event(deleted.get(), rr::event_normal, "Deleted", R"(Deleted Deployment "test-webapp")"),
                   new_event(deleted.get(), rr::event_normal, "Deleted", R"(Deleted Service "test-webapp")"),
                   new_event(deleted.get(), rr::event_normal, "DnsRecordDeleted",
                             R"(Deleted DNS record "hello.example.com")"),
                   new_event(deleted.get(), rr::event_normal, "FinalizerPatched",
                             R"(Patched finalizer "web.example.rrgen.dev/dns-record")"),
               },
           .expect_patches = {clear_finalizer_patch()},
           .expect_deletes = {rr::testing::delete_ref_of(deployment().get()),
                              rr::testing::delete_ref_of(service().get())},
           .verify =
               [dns = dns_for_deletion](const rr::Result&, const rr::Error&) {
                 CHECK_FALSE(dns->lookup(hostname).has_value());
                 CHECK(dns->changes() == 2);
               },
       }},
  };
}
