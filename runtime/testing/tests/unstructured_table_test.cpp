// rr::Unstructured in the reconcilers, as table tests: a ResourceReconciler whose kind is given at
// run time (`type`) reconciles a TestResource as JSON, and a ChildReconciler keeps an unstructured
// TestChild (`child_type`) in its desired state: creates, updates that keep the members the
// reconciler does not set, events, and the status written with update_status.
#include <doctest/doctest.h>

#include "rr/client/unstructured.hpp"
#include "rr/reconcilers/child.hpp"
#include "rr/reconcilers/resource.hpp"
#include "rr/reconcilers/sequence.hpp"
#include "rr/reconcilers/sync.hpp"
#include "rr/testing/registration.hpp"
#include "rrtest/v1/test_child.hpp"
#include "rrtest/v1/test_resource.hpp"

namespace {

using rr::testing::induce_failure;
using rr::testing::new_event;
using rrtest::v1::TestChild;
using rrtest::v1::TestResource;

const rr::Request unstructured_request{"test-namespace", "test-resource"};

TestResource unstructured_given(std::string image) {
  TestResource r;
  r.metadata.namespace_ = "test-namespace";
  r.metadata.name = "test-resource";
  r.metadata.uid = "uid-parent";
  r.metadata.generation = 1;
  r.spec.emplace().image = std::move(image);
  return r;
}

TestResource unstructured_reflected(std::string image, bool with_child = true) {
  TestResource r = unstructured_given(image);
  auto& status = r.status.emplace();
  status.latest_image = image;
  if (with_child) status.fields = std::map<std::string, std::string>{{"child", "test-resource"}};
  return r;
}

TestChild unstructured_child(std::string image, std::optional<std::string> mode = std::nullopt) {
  TestChild c;
  c.metadata.namespace_ = "test-namespace";
  c.metadata.name = "test-resource";
  c.metadata.owner_references.push_back(rr::OwnerReference{.api_version = "testing.rrgen.dev/v1",
                                                           .kind = "TestResource",
                                                           .name = "test-resource",
                                                           .uid = "uid-parent",
                                                           .controller = true,
                                                           .block_owner_deletion = true,
                                                           .unknown_fields = {}});
  auto& spec = c.spec.emplace();
  spec.image = std::move(image);
  spec.mode = std::move(mode);
  return c;
}

// A child as stored (the cluster gives it a uid).
TestChild stored_child(std::string image, std::optional<std::string> mode) {
  TestChild c = unstructured_child(std::move(image), std::move(mode));
  c.metadata.uid = "uid-child";
  return c;
}

rr::Unstructured as_unstructured(const TestResource& r) { return rr::Json(r).get<rr::Unstructured>(); }

std::string image_of(const rr::Unstructured& u) {
  const rr::Json* spec = u.find("spec");
  return spec ? spec->value("image", std::string()) : std::string();
}

rr::SubReconciler<rr::Unstructured> unstructured_reflect_image() {
  return rr::SyncReconciler<rr::Unstructured>{.name = "ReflectImage",
                                              .sync = [](rr::Context&, rr::Unstructured& r) -> rr::Error {
                                                r.member("status")["latestImage"] = image_of(r);
                                                return {};
                                              }};
}

rr::SubReconciler<rr::Unstructured> child_reconciler() {
  return rr::ChildReconciler<rr::Unstructured, rr::Unstructured>{
      .desired_child = [](rr::Context&, const rr::Unstructured& parent) -> std::optional<rr::Unstructured> {
        rr::Unstructured c(rr::kind_info_of<TestChild>().gvk);
        c.metadata.namespace_ = parent.metadata.namespace_;
        c.metadata.name = parent.metadata.name;
        c.member("spec")["image"] = image_of(parent);
        return c;
      },
      .child_object_manager =
          rr::UpdatingObjectManager<rr::Unstructured>{
              // Only spec.image is ours: any other member of the child stays as it is.
              .merge_before_update =
                  [](rr::Unstructured& current, const rr::Unstructured& desired) {
                    current.member("spec")["image"] = desired.find("spec")->at("image");
                  },
          },
      .reflect_child_status_on_parent =
          [](rr::Context&, rr::Unstructured& parent, const rr::Unstructured* c, const rr::Error&) {
            if (c) parent.member("status")["fields"] = {{"child", c->metadata.name}};
          },
      .child_type = rr::kind_info_of<TestChild>(),
  };
}

rr::ResourceReconciler<rr::Unstructured> root(const rr::Config& c) {
  return {.reconciler = rr::Sequence<rr::Unstructured>{unstructured_reflect_image(), child_reconciler()},
          .config = c,
          .type = rr::kind_info_of<TestResource>()};
}

}  // namespace

RR_RECONCILER_TESTS("UnstructuredReconciler", [](const rr::testing::ReconcilerTestCase&, const rr::Config& c) {
  return rr::Reconciler(root(c));
}) {
  const rr::Unstructured parent = as_unstructured(unstructured_given("nginx:1"));
  return rr::testing::ReconcilerTests{
      {"resource does not exist", {.request = unstructured_request}},
      {"creates the child and writes the status",
       {
           .request = unstructured_request,
           .given_objects = {unstructured_given("nginx:1")},
           .expect_events = {new_event(parent, rr::event_normal, "Created", "Created TestChild \"test-resource\""),
                             new_event(parent, rr::event_normal, "StatusUpdated", "Updated status")},
           .expect_creates = {unstructured_child("nginx:1")},
           .expect_status_updates = {unstructured_reflected("nginx:1")},
       }},
      {"updates the child, keeping the members it does not set",
       {
           .request = unstructured_request,
           .given_objects = {unstructured_reflected("nginx:2"), stored_child("nginx:1", "fast")},
           .expect_events = {new_event(as_unstructured(unstructured_reflected("nginx:2")), rr::event_normal, "Updated",
                                       "Updated TestChild \"test-resource\"")},
           .expect_updates = {stored_child("nginx:2", "fast")},
       }},
      {"nothing to do when the child and status are current",
       {.request = unstructured_request,
        .given_objects = {unstructured_reflected("nginx:1"), unstructured_child("nginx:1", "fast")}}},
      {"a failed child create is an event and an error; the status is still written",
       {
           .request = unstructured_request,
           .given_objects = {unstructured_given("nginx:1")},
           .with_reactors = {induce_failure("create", "TestChild")},
           .expect_events = {new_event(
                                 parent, rr::event_warning, "CreationFailed",
                                 "Failed to create TestChild \"test-resource\": inducing failure for create TestChild"),
                             new_event(parent, rr::event_normal, "StatusUpdated", "Updated status")},
           .expect_creates = {unstructured_child("nginx:1")},
           .expect_status_updates = {unstructured_reflected("nginx:1", false)},
       }},
  };
}

TEST_CASE("ResourceReconciler<Unstructured>: type is required, conditions are refused") {
  rr::ResourceReconciler<rr::Unstructured> untyped{.reconciler = unstructured_reflect_image()};
  CHECK_THROWS_WITH_AS(
      rr::validate_reconciler(untyped),
      "ResourceReconciler: ResourceReconciler \"ResourceReconciler\" must define type (kind and plural) "
      "for a dynamic resource",
      rr::ValidationError);
  rr::ResourceReconciler<rr::Unstructured> with_conditions{.conditions = rr::ConditionSet::living({}),
                                                           .reconciler = unstructured_reflect_image(),
                                                           .type = rr::kind_info_of<TestResource>()};
  CHECK_THROWS_WITH_AS(rr::validate_reconciler(with_conditions),
                       "TestResourceResourceReconciler: ResourceReconciler \"TestResourceResourceReconciler\" sets "
                       "conditions but TestResource is unstructured: use a duck type",
                       rr::ValidationError);
  CHECK(root({}).display_name() == "TestResourceResourceReconciler");
}

TEST_CASE("ChildReconciler<_, Unstructured>: child_type is required") {
  auto reconciler = rr::ChildReconciler<rr::Unstructured, rr::Unstructured>{
      .name = "Child",
      .desired_child = [](rr::Context&, const rr::Unstructured&) -> std::optional<rr::Unstructured> { return {}; },
      .child_object_manager = rr::UpdatingObjectManager<rr::Unstructured>{.merge_before_update =
                                                                              [](rr::Unstructured&,
                                                                                 const rr::Unstructured&) {}},
      .reflect_child_status_on_parent = [](rr::Context&, rr::Unstructured&, const rr::Unstructured*,
                                           const rr::Error&) {},
  };
  CHECK_THROWS_WITH_AS(rr::validate_reconciler(reconciler),
                       "Child: ChildReconciler \"Child\" must define child_type (kind and plural) for a dynamic child",
                       rr::ValidationError);
}

namespace {

// Reads the image from a ConfigMap as an unstructured object, tracked so that its changes re-drive
// the resource.
rr::KindInfo config_maps() {
  return rr::KindInfo{{"", "v1", "ConfigMap"}, "configmaps", "ConfigMapList", rr::Scope::Namespaced, false};
}

rr::SubReconciler<rr::Unstructured> image_from_config_map() {
  return rr::SyncReconciler<rr::Unstructured>{
      .name = "ImageFromConfigMap", .sync = [](rr::Context& ctx, rr::Unstructured& r) -> rr::Error {
        auto settings = rr::track_and_try_get<rr::Unstructured>(ctx, config_maps(),
                                                                {r.metadata.namespace_, "settings"});
        const rr::Json* data = settings ? settings->find("data") : nullptr;
        r.member("status")["latestImage"] = data ? data->value("image", "") : "";
        return {};
      }};
}

rr::Unstructured settings(std::string image) {
  rr::Unstructured cm(config_maps().gvk);
  cm.metadata.namespace_ = "test-namespace";
  cm.metadata.name = "settings";
  cm.member("data")["image"] = std::move(image);
  return cm;
}

}  // namespace

RR_RECONCILER_TESTS("UnstructuredTracking", [](const rr::testing::ReconcilerTestCase&, const rr::Config& c) {
  return rr::Reconciler(rr::ResourceReconciler<rr::Unstructured>{
      .reconciler = image_from_config_map(), .config = c, .type = rr::kind_info_of<TestResource>()});
}) {
  const auto tracked = rr::testing::create_track_request("", "ConfigMap", "test-namespace", "settings")
                           .by("test-namespace", "test-resource");
  return rr::testing::ReconcilerTests{
      {"a missing ConfigMap is tracked too",
       {
           .request = unstructured_request,
           .given_objects = {unstructured_reflected("", false)},
           .expect_tracks = {tracked},
       }},
      {"the ConfigMap's image is reflected, and the ConfigMap tracked",
       {
           .request = unstructured_request,
           .given_objects = {unstructured_given("nginx:1"),
                             rr::testing::AnyObject(config_maps(), rr::Json(settings("nginx:7")))},
           .expect_tracks = {tracked},
           .expect_events = {new_event(as_unstructured(unstructured_given("nginx:1")), rr::event_normal,
                                       "StatusUpdated", "Updated status")},
           .expect_status_updates = {[] {
             TestResource r = unstructured_given("nginx:1");
             r.status.emplace().latest_image = "nginx:7";
             return r;
           }()},
       }},
  };
}
