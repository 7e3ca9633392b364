// ChildApplyReconciler (rr/reconcilers/child_apply.hpp) through the harness's expect_applies: a
// TestResource owning one ConfigMap, written by server-side apply. The test client routes applies
// to the in-memory cluster's server-side apply, so managedFields are the server's.
#include <doctest/doctest.h>

#include "strings_support.hpp"

#include "harness_support.hpp"
#include "k8s/core/v1/config_map_apply.hpp"
#include "rr/core/json.hpp"
#include "rr/reconcilers/child_apply.hpp"
#include "rr/testing/sub_reconciler_test.hpp"

using harness::TestResource;
using k8s::core::v1::ConfigMap;
using k8s::core::v1::ConfigMapApply;
using rr::testing::CapturedFailures;
using Case = rr::testing::SubReconcilerTestCase<TestResource>;
using Suite = rr::testing::SubReconcilerTestSuite<TestResource>;
using Factory = rr::testing::SubReconcilerFactory<TestResource>;

namespace {

constexpr const char* manager = "testresource";  // the default: the reconciled kind, lower-cased

TestResource parent(std::string image = "a") {
  TestResource r = harness::resource(std::move(image));
  r.metadata.uid = "uid-r";
  return r;
}

// What the reconciler applies for `parent(image)`: the desired configuration with the namespace
// and controller reference it adds.
ConfigMapApply desired(const std::string& image) {
  ConfigMapApply config;
  config.metadata.name = "r-config";
  config.data = std::map<std::string, std::string>{{"image", image}};
  return config;
}
ConfigMapApply applied(const std::string& image) {
  ConfigMapApply config = desired(image);
  config.metadata.namespace_ = "ns";
  rr::OwnerReference ref;
  ref.api_version = "testing.rrgen.dev/v1";
  ref.kind = "TestResource";
  ref.name = "r";
  ref.uid = "uid-r";
  ref.controller = true;
  ref.block_owner_deletion = true;
  config.metadata.owner_references = std::vector<rr::OwnerReference>{ref};
  return config;
}

// The ConfigMap as the server keeps it after `owner` applied applied(image), with its
// managedFields entry (fieldsV1 as the server writes it).
ConfigMap live(const std::string& image, std::string owner = manager) {
  ConfigMap cm;
  cm.metadata.namespace_ = "ns";
  cm.metadata.name = "r-config";
  cm.metadata.uid = "uid-cm";
  cm.metadata.owner_references = *applied(image).metadata.owner_references;
  cm.data = std::map<std::string, std::string>{{"image", image}};
  rr::ManagedFieldsEntry entry;
  entry.manager = std::move(owner);
  entry.operation = "Apply";
  entry.api_version = "v1";
  entry.fields_type = "FieldsV1";
  entry.fields_v1_json = R"({"f:data":{"f:image":{}},"f:metadata":{"f:ownerReferences":{"k:{\"uid\":\"uid-r\"}":{}}}})";
  cm.metadata.managed_fields.push_back(entry);
  return cm;
}

TestResource reflected(const std::string& image, std::optional<std::string> latest) {
  TestResource r = parent(image);
  if (latest) r.status.emplace().latest_image = std::move(latest);
  return r;
}

rr::ChildApplyReconciler<TestResource, ConfigMapApply> reconciler() {
  return {
      .desired_child = [](rr::Context&, const TestResource& r) -> std::optional<ConfigMapApply> {
        const std::string image = r.spec && r.spec->image ? *r.spec->image : std::string();
        if (image == "none") return std::nullopt;
        return desired(image);
      },
      .reflect_child_status_on_parent =
          [](rr::Context&, TestResource& r, const ConfigMap* child, const rr::Error&) {
            if (child && child->data) rr::ensure_status(r).latest_image = child->data->at("image");
          },
  };
}

Factory factory() {
  return [](const Case&, const rr::Config&) -> rr::SubReconciler<TestResource> { return reconciler(); };
}

rr::testing::Event event(std::string type, std::string reason, std::string message) {
  return rr::testing::new_event(parent(), type, std::move(reason), std::move(message));
}

}  // namespace

TEST_CASE("ChildApplyReconciler: create, in sync, drift, delete, a foreign field manager") {
  const Suite suite{
      {
          .name = "no child: one apply creates it",
          .resource = parent("a"),
          .expect_resource = reflected("a", "a"),
          .expect_events = {event("Normal", "Created", R"(Created ConfigMap "r-config")")},
          .expect_applies = {rr::testing::new_apply(applied("a"), manager)},
      },
      {
          .name = "in sync: what our manager applied equals the desired configuration, nothing is sent",
          .resource = parent("a"),
          .given_objects = {live("a")},
          .expect_resource = reflected("a", "a"),
      },
      {
          .name = "drift: the desired configuration changed, one apply",
          .resource = parent("b"),
          .given_objects = {live("a")},
          .expect_resource = reflected("b", "b"),
          .expect_events = {event("Normal", "Updated", R"(Updated ConfigMap "r-config")")},
          .expect_applies = {rr::testing::new_apply(applied("b"), manager)},
      },
      {
          .name = "fields applied by another manager do not count as ours: apply, with force",
          .resource = parent("a"),
          .given_objects = {live("a", "kubectl")},
          .expect_resource = reflected("a", "a"),
          .expect_events = {event("Normal", "Updated", R"(Updated ConfigMap "r-config")")},
          .expect_applies = {rr::testing::new_apply(applied("a"), manager)},
      },
      {
          .name = "no child desired: the existing one is deleted",
          .resource = parent("none"),
          .given_objects = {live("a")},
          .expect_events = {event("Normal", "Deleted", R"(Deleted ConfigMap "r-config")")},
          .expect_deletes = {rr::testing::delete_ref_of(live("a"))},
      },
  };
  rr::testing::run(suite, factory());
}

TEST_CASE("ChildApplyReconciler: the second reconcile over the server's own managedFields sends nothing") {
  rr::testing::ExpectConfig world;
  world.given_objects = {rr::testing::AnyObject(parent("a"))};
  rr::Config config = world.config();
  const auto sub = reconciler();
  for (int i = 0; i < 3; ++i) {
    TestResource r = parent("a");
    rr::Context ctx(rr::ContextOptions{
        .config = config, .request = {"ns", "r"}, .resource_type = rr::kind_info_of<TestResource>()});
    CHECK_FALSE(sub.reconcile(ctx, r).error);
    REQUIRE(r.status);
    CHECK(r.status->latest_image == "a");
  }
  CHECK(world.client().applies().size() == 1);
  const auto cm = world.client().get<ConfigMap>("ns", "r-config");
  REQUIRE(cm.metadata.managed_fields.size() == 1);
  CHECK(cm.metadata.managed_fields[0].manager == manager);
  CHECK(cm.metadata.managed_fields[0].operation == "Apply");
  CHECK(world.client().updates().empty());
  CHECK(world.client().patches().empty());
}

TEST_CASE("expect_applies: a different configuration is reported field by field; a surplus apply too") {
  Case differs{
      .resource = parent("b"),
      .expect_resource = reflected("b", "b"),
      .expect_events = {event("Normal", "Created", R"(Created ConfigMap "r-config")")},
      .expect_applies = {rr::testing::new_apply(applied("a"), manager)},
  };
  CapturedFailures captured;
  rr::testing::run_case(differs, factory(), captured.sink());
  CHECK(captured.messages() ==
        Strings{"ExpectApplies[0] differs (-expected, +actual):\n  configuration.data[\"image\"]: -\"a\" +\"b\""});

  Case unexpected{
      .resource = parent("b"),
      .expect_resource = reflected("b", "b"),
      .expect_events = {event("Normal", "Created", R"(Created ConfigMap "r-config")")},
  };
  CapturedFailures surplus;
  rr::testing::run_case(unexpected, factory(), surplus.sink());
  REQUIRE(surplus.messages().size() == 1);
  CHECK(surplus.messages()[0].rfind("Unexpected Apply observed: ", 0) == 0);

  Case other_manager{
      .resource = parent("b"),
      .expect_resource = reflected("b", "b"),
      .expect_events = {event("Normal", "Created", R"(Created ConfigMap "r-config")")},
      .expect_applies = {rr::testing::new_apply(applied("b"), "someone-else", false)},
  };
  CapturedFailures manager_differs;
  rr::testing::run_case(other_manager, factory(), manager_differs.sink());
  CHECK(manager_differs.messages() ==
        Strings{"ExpectApplies[0] differs (-expected, +actual):\n  fieldManager: -\"someone-else\" +\"testresource\"\n"
                "  force: -false +true"});
}
