// Step DnsRecord (sync, behind the finalizer web.example.rrgen.dev/dns-record) on its own: the
// record spec.hostname -> the Service lives in an external DNS provider, so the finalizer holds a
// deleted WebApp until the record is gone. Each case gets its own in-memory provider (through the
// case's metadata) and checks in `verify` what the provider holds and how often it was changed.
// docs/testing-reconcilers.md describes every field of a case.
#include <doctest/doctest.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "fixtures.hpp"
#include "rr/testing/registration.hpp"

namespace {

using webapp::InMemoryDns;
using webapp::WebApp;
using webapp_test::add_finalizer_patch;
using webapp_test::clear_finalizer_patch;
using webapp_test::condition;
using webapp_test::conditions;
using webapp_test::dns_finalizer;
using webapp_test::dns_key;
using webapp_test::dns_with;
using webapp_test::service_host;
using rr::testing::new_event;
using rr::testing::Reaction;
using Case = rr::testing::SubReconcilerTestCase<WebApp>;

constexpr const char* hostname = "hello.example.com";

// Asserts, when the WebApp's finalizer is patched, whether `hostname` has a record at that moment.
rr::testing::Reactor on_finalizer_patch_record_is(std::shared_ptr<const InMemoryDns> dns, bool published) {
  return {"patch", "WebApp", [dns = std::move(dns), published](rr::testing::Action&) {
            CHECK(dns->lookup(hostname).has_value() == published);
            return Reaction::pass();
          }};
}

}  // namespace

RR_SUB_RECONCILER_TESTS("WebAppDnsRecordReconciler", WebApp, [](const Case& tc, const rr::Config&) {
  return webapp::WebAppDnsRecordReconciler(webapp_test::hooks_with(webapp_test::dns_of(tc.metadata)));
}) {
  // As the root reconciler hands it to its steps: conditions initialised.
  const auto web_app = webapp_test::web_app().conditions(conditions({})).spec_hostname(hostname);
  const auto published_conditions = conditions({.dns = condition("DnsReady", "True", "Published")});
  // After a reconcile that published the record.
  const auto published = web_app.finalizers({dns_finalizer}).status_dns_record(hostname).conditions(published_conditions);
  const auto deleted = published.deletion_timestamp(
      rr::Time::from(std::chrono::system_clock::time_point{} + std::chrono::hours(1)));
  // The finalizer patch answers with the next resourceVersion.
  const auto patched = [](webapp_test::WebAppDie app, std::vector<std::string> finalizers) {
    return app.finalizers(std::move(finalizers)).resource_version("1000");
  };
  const auto published_event = new_event(web_app.get(), rr::event_normal, "DnsRecordPublished",
                                         R"(Published "hello.example.com" -> "test-webapp.test-namespace.svc.cluster.local")");
  const auto deleted_event =
      new_event(web_app.get(), rr::event_normal, "DnsRecordDeleted", R"(Deleted DNS record "hello.example.com")");
  const auto finalizer_event = new_event(web_app.get(), rr::event_normal, "FinalizerPatched",
                                         R"(Patched finalizer "web.example.rrgen.dev/dns-record")");

  const auto dns_new = std::make_shared<InMemoryDns>();
  const auto dns_published = dns_with(hostname, service_host);
  const auto dns_drifted = dns_with(hostname, "somewhere.else.example");
  const auto dns_for_removal = dns_with(hostname, service_host);
  const auto dns_for_rename = dns_with(hostname, service_host);
  const auto dns_for_deletion = dns_with(hostname, service_host);
  const auto dns_already_empty = std::make_shared<InMemoryDns>();

  return rr::testing::SubReconcilerTests<WebApp>{
      // The finalizer lands before the record exists: a WebApp deleted in between cannot leak it.
      {"a new hostname: the finalizer is added, then the record published",
       {
           .metadata = {{dns_key, dns_new}},
           .resource = web_app,
           .with_reactors = {on_finalizer_patch_record_is(dns_new, false)},
           .expect_resource = patched(web_app, {dns_finalizer}).status_dns_record(hostname).conditions(published_conditions),
           .expect_events = {finalizer_event, published_event},
           .expect_patches = {add_finalizer_patch()},
           .verify =
               [dns = dns_new](const rr::Result&, const rr::Error&) {
                 CHECK(dns->lookup(hostname) == service_host);
                 CHECK(dns->changes() == 1);
               },
       }},
      {"the record is already published: the provider is not written",
       {
           .metadata = {{dns_key, dns_published}},
           .resource = published,
           .verify =
               [dns = dns_published](const rr::Result&, const rr::Error&) {
                 CHECK(dns->lookup(hostname) == service_host);
                 CHECK(dns->changes() == 1);  // the one that seeded it
               },
       }},
      {"the record points elsewhere: it is published again",
       {
           .metadata = {{dns_key, dns_drifted}},
           .resource = published,
           .expect_events = {published_event},
           .verify =
               [dns = dns_drifted](const rr::Result&, const rr::Error&) {
                 CHECK(dns->lookup(hostname) == service_host);
                 CHECK(dns->changes() == 2);
               },
       }},
      {"the hostname is removed from the spec: its record is deleted",
       {
           .metadata = {{dns_key, dns_for_removal}},
           .resource = published.spec([](webapp::v1::WebAppSpec& s) { s.hostname.reset(); }),
           .expect_resource =
               published.spec([](webapp::v1::WebAppSpec& s) { s.hostname.reset(); })
                   .status([](webapp::v1::WebAppStatus& s) { s.dns_record.reset(); })
                   .conditions(conditions({.dns = condition("DnsReady", "True", "NoHostname")})),
           .expect_events = {deleted_event},
           .verify =
               [dns = dns_for_removal](const rr::Result&, const rr::Error&) {
                 CHECK_FALSE(dns->lookup(hostname).has_value());
                 CHECK(dns->changes() == 2);
               },
       }},
      {"the hostname changes: the old record is deleted and the new one published",
       {
           .metadata = {{dns_key, dns_for_rename}},
           .resource = published.spec_hostname("www.example.com"),
           .expect_resource = published.spec_hostname("www.example.com").status_dns_record("www.example.com"),
           .expect_events = {deleted_event,
                             new_event(web_app.get(), rr::event_normal, "DnsRecordPublished",
                                       R"(Published "www.example.com" -> "test-webapp.test-namespace.svc.cluster.local")")},
           .verify =
               [dns = dns_for_rename](const rr::Result&, const rr::Error&) {
                 CHECK_FALSE(dns->lookup(hostname).has_value());
                 CHECK(dns->lookup("www.example.com") == service_host);
                 CHECK(dns->changes() == 3);
               },
       }},
      // The finalizer goes only once the record is gone (checked when the patch is sent).
      {"deleted: the record is removed, then the finalizer cleared",
       {
           .metadata = {{dns_key, dns_for_deletion}},
           .resource = deleted,
           .with_reactors = {on_finalizer_patch_record_is(dns_for_deletion, false)},
           .expect_resource = patched(deleted, {}),
           .expect_events = {deleted_event, finalizer_event},
           .expect_patches = {clear_finalizer_patch()},
           .verify =
               [dns = dns_for_deletion](const rr::Result&, const rr::Error&) {
                 CHECK_FALSE(dns->lookup(hostname).has_value());
                 CHECK(dns->changes() == 2);
               },
       }},
      {"deleted and the record already gone: only the finalizer is cleared",
       {
           .metadata = {{dns_key, dns_already_empty}},
           .resource = deleted,
           .expect_resource = patched(deleted, {}),
           .expect_events = {finalizer_event},
           .expect_patches = {clear_finalizer_patch()},
           .verify = [dns = dns_already_empty](const rr::Result&, const rr::Error&) { CHECK(dns->changes() == 0); },
       }},
  };
}
