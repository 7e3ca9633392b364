// Duck types in the reconcilers, as table tests: a ResourceReconciler over rr::ConditionsDuck
// reconciles a TestResource it only partly knows. Its writes are patches computed from the object
// as read (the recorded call is a patch with an exact body; nothing it does not know is sent, and
// it survives in the store), the root's events are StatusPatched / StatusPatchFailed, and whole-
// object writes of duck children are refused (reconciler.io's duck-aware client).
#include <chrono>
#include <memory>

#include <doctest/doctest.h>

#include "rr/client/duck.hpp"
#include "rr/core/json.hpp"
#include "rr/reconcilers/child.hpp"
#include "rr/reconcilers/resource.hpp"
#include "rr/reconcilers/sync.hpp"
#include "rr/reconcilers/with_finalizer.hpp"
#include "rr/testing/registration.hpp"
#include "rrtest/v1/test_child.hpp"
#include "rrtest/v1/test_resource.hpp"

namespace {

using rr::testing::induce_failure;
using rr::testing::new_event;
using rr::testing::PatchRef;
using rrtest::v1::TestChild;
using rrtest::v1::TestResource;

const rr::Request request{"test-namespace", "test-resource"};
const auto now = std::chrono::sys_days{std::chrono::year{2024} / 1 / 1} + std::chrono::hours{12};

// What the duck does not know: spec.image and status.latestImage.
TestResource given() {
  TestResource r;
  r.metadata.namespace_ = "test-namespace";
  r.metadata.name = "test-resource";
  r.metadata.uid = "uid-parent";
  r.metadata.generation = 1;
  r.spec.emplace().image = "nginx:1";
  r.status.emplace().latest_image = "nginx:1";
  return r;
}

rr::Condition watched() {
  rr::Condition c;
  c.type = "Watched";
  c.status = "True";
  c.reason = "Observed";
  c.message = "seen by the duck";
  c.last_transition_time = rr::Time::from(now);
  return c;
}

TestResource watched_resource() {
  TestResource r = given();
  r.status->conditions.emplace().push_back(watched());
  r.status->observed_generation = 1;
  return r;
}

// The duck view of a given object (what an event is recorded against).
rr::ConditionsDuck as_duck(const TestResource& r) { return rr::Json(r).get<rr::ConditionsDuck>(); }

rr::SyncReconciler<rr::ConditionsDuck> mark_watched() {
  return {.name = "MarkWatched", .sync = [](rr::Context& ctx, rr::ConditionsDuck& d) -> rr::Error {
            auto& conditions = rr::ensure_conditions(d);
            std::erase_if(conditions, [](const rr::Condition& c) { return c.type == "Watched"; });
            rr::Condition c = watched();
            c.last_transition_time = ctx.now_time();
            conditions.push_back(c);
            return {};
          }};
}

std::string watched_patch(int observed_generation = 1) {
  return R"({"status":{"conditions":[{"lastTransitionTime":"2024-01-01T12:00:00Z","message":"seen by the duck",)"
         R"("reason":"Observed","status":"True","type":"Watched"}],"observedGeneration":)" +
         std::to_string(observed_generation) + "}}";
}

PatchRef status_patch(std::string body) {
  return {.group = "testing.rrgen.dev",
          .kind = "TestResource",
          .namespace_ = "test-namespace",
          .name = "test-resource",
          .subresource = "status",
          .patch_type = rr::PatchType::Merge,
          .patch = std::move(body)};
}

// The config of the case being run, to look at the store after the reconcile.
std::shared_ptr<rr::Config> last_config = std::make_shared<rr::Config>();

rr::Reconciler duck_root(const rr::Config& c, rr::SubReconciler<rr::ConditionsDuck> tree) {
  *last_config = c;
  return rr::ResourceReconciler<rr::ConditionsDuck>{
      .reconciler = std::move(tree), .config = c, .type = rr::kind_info_of<TestResource>()};
}

// A child of the duck, itself a duck: the object manager may not create or update it.
rr::ConditionsDuck duck_child(std::string image) {
  rr::ConditionsDuck child;
  child.api_version = "testing.rrgen.dev/v1";
  child.kind = "TestChild";
  child.metadata.namespace_ = "test-namespace";
  child.metadata.name = "test-resource";
  child.unknown_fields.set("spec", rr::Json{{"image", image}}.dump());
  return child;
}

rr::SubReconciler<rr::ConditionsDuck> duck_children(std::string image) {
  return rr::ChildReconciler<rr::ConditionsDuck, rr::ConditionsDuck>{
      .desired_child = [image](rr::Context&, const rr::ConditionsDuck&) -> std::optional<rr::ConditionsDuck> {
        return duck_child(image);
      },
      .child_object_manager =
          rr::UpdatingObjectManager<rr::ConditionsDuck>{
              .merge_before_update =
                  [](rr::ConditionsDuck& current, const rr::ConditionsDuck& desired) {
                    current.unknown_fields = desired.unknown_fields;
                  },
          },
      .reflect_child_status_on_parent = [](rr::Context&, rr::ConditionsDuck&, const rr::ConditionsDuck*,
                                           const rr::Error&) {},
      .child_type = rr::kind_info_of<TestChild>(),
  };
}

TestChild existing_child(std::string image) {
  TestChild child;
  child.metadata.namespace_ = "test-namespace";
  child.metadata.name = "test-resource";
  child.metadata.owner_references.push_back(rr::OwnerReference{.api_version = "testing.rrgen.dev/v1",
                                                               .kind = "TestResource",
                                                               .name = "test-resource",
                                                               .uid = "uid-parent",
                                                               .controller = true,
                                                               .block_owner_deletion = true,
                                                               .unknown_fields = {}});
  child.spec.emplace().image = std::move(image);
  return child;
}

}  // namespace

RR_RECONCILER_TESTS("ConditionsDuckReconciler", [](const rr::testing::ReconcilerTestCase& tc, const rr::Config& c) {
  if (tc.metadata.contains("children")) {
    return duck_root(c, duck_children(std::any_cast<std::string>(tc.metadata.at("children"))));
  }
  if (tc.metadata.contains("finalizer")) {
    return duck_root(
        c, rr::WithFinalizer<rr::ConditionsDuck>{.finalizer = "testing.rrgen.dev/duck", .reconciler = mark_watched()});
  }
  return duck_root(c, mark_watched());
}) {
  return rr::testing::ReconcilerTests{
      {"resource does not exist", {.request = request}},
      {"the status is a merge patch of the status the duck knows",
       {
           .request = request,
           .given_objects = {given()},
           .expect_events = {new_event(as_duck(given()), rr::event_normal, "StatusPatched", "Patched status")},
           .expect_status_patches = {status_patch(watched_patch())},
           .verify =
               [](const rr::Result&, const rr::Error&) {
                 // What the duck does not know was neither sent nor lost.
                 auto stored = last_config->api().get<TestResource>(request);
                 CHECK(stored.spec->image == "nginx:1");
                 REQUIRE(stored.status);
                 CHECK(stored.status->latest_image == "nginx:1");
                 CHECK(stored.status->observed_generation == 1);
                 REQUIRE(stored.status->conditions);
                 CHECK(stored.status->conditions->front().type == "Watched");
               },
           .now = now,
       }},
      {"nothing to write when the status is current",
       {.request = request, .given_objects = {watched_resource()}, .now = now}},
      {"a failed status patch is an event and an error",
       {
           .request = request,
           .given_objects = {given()},
           .with_reactors = {induce_failure("patch", "TestResource", {.subresource = "status"})},
           .expect_events = {new_event(as_duck(given()), rr::event_warning, "StatusPatchFailed",
                                       "Failed to patch status: inducing failure for patch TestResource")},
           .expect_status_patches = {status_patch(watched_patch())},
           .should_err = true,
           .now = now,
       }},
      {"a finalizer is added with a patch",
       {
           .metadata = {{"finalizer", true}},
           .request = request,
           .given_objects = {given()},
           .expect_events = {new_event(as_duck(given()), rr::event_normal, "FinalizerPatched",
                                       "Patched finalizer \"testing.rrgen.dev/duck\""),
                             new_event(as_duck(given()), rr::event_normal, "StatusPatched", "Patched status")},
           .expect_patches =
               {{.group = "testing.rrgen.dev",
                 .kind = "TestResource",
                 .namespace_ = "test-namespace",
                 .name = "test-resource",
                 .patch = R"({"metadata":{"finalizers":["testing.rrgen.dev/duck"],"resourceVersion":"999"}})"}},
           // The finalizer patch moved the generation on (the status follows the server's answer).
           .expect_status_patches = {status_patch(watched_patch(2))},
           .now = now,
       }},
      {"a duck child is not created",
       {
           .metadata = {{"children", std::string("nginx:1")}},
           .request = request,
           .given_objects = {watched_resource()},
           .expect_events = {new_event(as_duck(watched_resource()), rr::event_warning, "CreationFailed",
                                       "Failed to create TestChild \"test-resource\": Create is not supported for the "
                                       "duck typed objects")},
           .should_err = true,
           .now = now,
       }},
      {"a duck child is not updated",
       {
           .metadata = {{"children", std::string("nginx:2")}},
           .request = request,
           .given_objects = {watched_resource(), existing_child("nginx:1")},
           .expect_events = {new_event(as_duck(watched_resource()), rr::event_warning, "UpdateFailed",
                                       "Failed to update TestChild \"test-resource\": Update is not supported for the "
                                       "duck typed objects, use Patch instead")},
           .should_err = true,
           .now = now,
       }},
      {"a duck child in its desired state is left alone",
       {
           .metadata = {{"children", std::string("nginx:1")}},
           .request = request,
           .given_objects = {watched_resource(), existing_child("nginx:1")},
           .now = now,
       }},
  };
}
