// End to end: tables over the real ResourceReconciler and SyncReconciler, written as a user of the
// harness writes them (after reconciler.io's resource_test.go).
#include "rr/reconcilers/resource.hpp"
#include "rr/reconcilers/sync.hpp"
#include "rr/testing/registration.hpp"
#include "rrtest/v1/test_resource.hpp"

namespace {

using rr::testing::induce_failure;
using rr::testing::new_event;
using rr::testing::new_status_apply;
using rrtest::v1::TestResource;

// Reflects spec.image into status.latestImage; an image "fail" is an error.
rr::SyncReconciler<TestResource> reflect_image() {
  return {.name = "ReflectImage", .sync = [](rr::Context&, TestResource& r) -> rr::Error {
            const std::string image = r.spec && r.spec->image ? *r.spec->image : "";
            if (image == "fail") return rr::Error::make("cannot reflect image \"fail\"");
            r.status.emplace().latest_image = image;
            return {};
          }};
}

TestResource given(std::string image) {
  TestResource r;
  r.metadata.namespace_ = "test-namespace";
  r.metadata.name = "test-resource";
  r.metadata.generation = 1;
  r.spec.emplace().image = std::move(image);
  return r;
}

TestResource reflected(std::string image) {
  TestResource r = given(image);
  auto& status = r.status.emplace();
  status.latest_image = std::move(image);
  status.observed_generation = 1;
  return r;
}

const rr::Request request{"test-namespace", "test-resource"};

}  // namespace

RR_RECONCILER_TESTS("TestResourceReconciler", [](const rr::testing::ReconcilerTestCase&, const rr::Config& c) {
  return rr::Reconciler(rr::ResourceReconciler<TestResource>{.reconciler = reflect_image(), .config = c});
}) {
  return rr::testing::ReconcilerTests{
      {"resource does not exist", {.request = request}},
      {"reflects the image into the status",
       {
           .request = request,
           .given_objects = {given("nginx:1")},
           .expect_events = {new_event(given("nginx:1"), rr::event_normal, "StatusUpdated", "Updated status")},
           .expect_status_updates = {reflected("nginx:1")},
       }},
      {"nothing to write when the status is current", {.request = request, .given_objects = {reflected("nginx:1")}}},
      {"a sync error is returned", {.request = request, .given_objects = {given("fail")}, .should_err = true}},
      {"a failed status update is an event and an error",
       {
           .request = request,
           .given_objects = {given("nginx:1")},
           .with_reactors = {induce_failure("update", "TestResource", {.subresource = "status"})},
           .expect_events = {new_event(given("nginx:1"), rr::event_warning, "StatusUpdateFailed",
                                       "Failed to update status: inducing failure for update TestResource")},
           .expect_status_updates = {reflected("nginx:1")},
           .should_err = true,
       }},
      {"a status update conflict is a quiet requeue (Q6)",
       {
           .request = request,
           .given_objects = {given("nginx:1")},
           .with_reactors = {induce_failure(
               "update", "TestResource",
               {.error = rr::Error::api(rr::api_errors::conflict("testresources", "testing.rrgen.dev", "test-resource",
                                                                 "the object has been modified"))})},
           .expect_status_updates = {reflected("nginx:1")},
           .expected_result = rr::Result{.requeue = true},
       }},
  };
}

// The same reconciler writing its status by server-side apply (StatusWrite::Apply).
RR_RECONCILER_TESTS("TestResourceReconciler, status by apply",
                    [](const rr::testing::ReconcilerTestCase&, const rr::Config& c) {
                      return rr::Reconciler(rr::ResourceReconciler<TestResource>{
                          .reconciler = reflect_image(), .config = c, .status_write = rr::StatusWrite::Apply});
                    }) {
  return rr::testing::ReconcilerTests{
      {"applies the status it computed",
       {
           .request = request,
           .given_objects = {given("nginx:1")},
           .expect_events = {new_event(given("nginx:1"), rr::event_normal, "StatusUpdated", "Updated status")},
           .expect_status_applies = {new_status_apply(reflected("nginx:1"), "testresource")},
       }},
      {"nothing to apply when the status is current", {.request = request, .given_objects = {reflected("nginx:1")}}},
      {"a failed status apply is an event and an error",
       {
           .request = request,
           .given_objects = {given("nginx:1")},
           .with_reactors = {induce_failure("patch", "TestResource", {.subresource = "status"})},
           .expect_events = {new_event(given("nginx:1"), rr::event_warning, "StatusUpdateFailed",
                                       "Failed to update status: inducing failure for patch TestResource")},
           .expect_status_applies = {new_status_apply(reflected("nginx:1"), "testresource")},
           .should_err = true,
       }},
  };
}

RR_SUB_RECONCILER_TESTS("ReflectImage", TestResource,
                        [](const rr::testing::SubReconcilerTestCase<TestResource>&, const rr::Config&) {
                          return rr::SubReconciler<TestResource>(reflect_image());
                        }) {
  TestResource after = given("nginx:1");
  after.status.emplace().latest_image = "nginx:1";
  return rr::testing::SubReconcilerTests<TestResource>{
      {"reflects the image", {.resource = given("nginx:1"), .expect_resource = after}},
      {"leaves the resource alone on error", {.resource = given("fail"), .should_err = true}},
  };
}
