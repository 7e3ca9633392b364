// The generated test factories in use: dies for a CRD kind (Gizmo) and built-in kinds (ConfigMap,
// Deployment, Secret) build the objects a table test needs, never change the die they are called
// on, set exactly the field they name, survive a JSON round trip and stand in for their objects
// in rr::testing tables.
#include <doctest/doctest.h>

#include <chrono>
#include <string>

#include "dies_gizmo_dies.hpp"
#include "rr/testing/sub_reconciler_test.hpp"

namespace {

using gizmos::dies::condition;
using gizmos::dies::ConfigMapDie;
using gizmos::dies::DeploymentDie;
using gizmos::dies::GizmoDie;
using gizmos::dies::SecretDie;
using Gizmo = gizmos::v1::Gizmo;
using ConfigMap = k8s::core::v1::ConfigMap;
using Deployment = k8s::apps::v1::Deployment;

rr::Time at_second(long seconds) {
  return rr::Time::from(std::chrono::system_clock::time_point{std::chrono::seconds{seconds}});
}

// A Gizmo with every die method that has an effect applied once.
GizmoDie full_gizmo() {
  return GizmoDie()
      .namespace_("my-namespace")
      .name("my-gizmo")
      .uid("gizmo-uid")
      .generation(3)
      .label("app", "gizmo")
      .annotation("note", "kept")
      .finalizers({"dies.rrgen.dev/cleanup"})
      .spec_image("registry.example/gizmo:v1")
      .spec_name("inner")
      .spec_replicas(2)
      .spec_mode(gizmos::v1::GizmoSpecMode::Careful)
      .spec_env({{"A", "1"}})
      .observed_generation(3)
      .conditions({condition("ConfigReady", "True", "Configured"), condition("Ready", "True", "Configured")})
      .status_url("https://gizmo.example");
}

}  // namespace

TEST_CASE("a blank die holds the kind with apiVersion and kind set, nothing else") {
  const Gizmo gizmo = GizmoDie::blank();
  CHECK(gizmo.api_version == "dies.rrgen.dev/v1");
  CHECK(gizmo.kind == "Gizmo");
  CHECK(gizmo == Gizmo{});
  CHECK(GizmoDie() == GizmoDie::blank());
  CHECK(ConfigMapDie().get().api_version == "v1");
  CHECK(ConfigMapDie().get().kind == "ConfigMap");
  CHECK(DeploymentDie().get().api_version == "apps/v1");
  CHECK(DeploymentDie::blank().get() == Deployment{});
}

TEST_CASE("a setter returns a changed copy and leaves its die as it was") {
  const GizmoDie base = GizmoDie().namespace_("my-namespace").name("my-gizmo");
  const GizmoDie changed = base.spec_image("registry.example/gizmo:v2").label("app", "gizmo").generation(2);
  CHECK(base.get().metadata.name == "my-gizmo");
  CHECK_FALSE(base.get().spec.has_value());
  CHECK(base.get().metadata.labels.empty());
  CHECK(base.get().metadata.generation == 0);
  CHECK(changed.get().spec->image == "registry.example/gizmo:v2");
  CHECK(changed.get().metadata.labels.at("app") == "gizmo");
  CHECK(changed != base);

  const ConfigMapDie cm = ConfigMapDie().name("settings");
  const ConfigMapDie with_data = cm.data({{"k", "v"}});
  CHECK_FALSE(cm.get().data.has_value());
  CHECK(with_data.get().data->at("k") == "v");
}

TEST_CASE("each setter sets exactly the field it names") {
  // Built by hand beside each die: a setter that touched anything else would differ.
  Gizmo expected;
  expected.metadata.name = "my-gizmo";
  CHECK(GizmoDie().name("my-gizmo") == expected);

  // spec.name is not metadata.name.
  expected = Gizmo{};
  expected.spec.emplace().name = "inner";
  CHECK(GizmoDie().spec_name("inner") == expected);

  expected = Gizmo{};
  expected.spec.emplace().replicas = 4;
  CHECK(GizmoDie().spec_replicas(4) == expected);

  expected = Gizmo{};
  expected.status.emplace().url = "https://gizmo.example";
  CHECK(GizmoDie().status_url("https://gizmo.example") == expected);

  expected = Gizmo{};
  expected.status.emplace().observed_generation = 7;
  CHECK(GizmoDie().observed_generation(7) == expected);
  CHECK(GizmoDie().status_observed_generation(7) == expected);

  expected = Gizmo{};
  expected.status.emplace().conditions = {condition("Ready", "Unknown", "Pending", "waiting")};
  CHECK(GizmoDie().conditions({condition("Ready", "Unknown", "Pending", "waiting")}) == expected);

  expected = Gizmo{};
  expected.metadata.deletion_timestamp = at_second(60);
  CHECK(GizmoDie().deletion_timestamp(at_second(60)) == expected);

  ConfigMap cm;
  cm.binary_data.emplace()["blob"] = rr::Bytes::encode("raw");
  CHECK(ConfigMapDie().binary_data({{"blob", rr::Bytes::encode("raw")}}) == cm);

  Deployment deploy;
  deploy.spec.emplace().replicas = 3;
  CHECK(DeploymentDie().spec_replicas(3) == deploy);

  k8s::core::v1::Secret secret;
  secret.string_data.emplace()["password"] = "hunter2";
  secret.type = "Opaque";
  CHECK(SecretDie().string_data({{"password", "hunter2"}}).type("Opaque") == secret);
}

TEST_CASE("spec and status are created when absent and kept when present") {
  const Gizmo g = GizmoDie().spec_image("registry.example/gizmo:v1").spec([](gizmos::v1::GizmoSpec& s) { s.replicas = 2; });
  REQUIRE(g.spec.has_value());
  CHECK(g.spec->image == "registry.example/gizmo:v1");
  CHECK(g.spec->replicas == 2);
  const Gizmo s = GizmoDie().status([](gizmos::v1::GizmoStatus& st) { st.url = "u"; }).observed_generation(1);
  CHECK(s.status->url == "u");
  CHECK(s.status->observed_generation == 1);
}

TEST_CASE("metadata helpers: labels replace by key, controlled_by sets one controller reference") {
  const GizmoDie owner = GizmoDie().namespace_("my-namespace").name("my-gizmo").uid("gizmo-uid");
  const ConfigMap cm = ConfigMapDie()
                           .namespace_("my-namespace")
                           .name("my-gizmo-config")
                           .label("app", "one")
                           .label("app", "two")
                           .owner_references({rr::OwnerReference{}})
                           .controlled_by(owner);
  CHECK(cm.metadata.labels.size() == 1);
  CHECK(cm.metadata.labels.at("app") == "two");
  REQUIRE(cm.metadata.owner_references.size() == 1);
  const rr::OwnerReference& ref = cm.metadata.owner_references[0];
  CHECK(ref.api_version == "dies.rrgen.dev/v1");
  CHECK(ref.kind == "Gizmo");
  CHECK(ref.name == "my-gizmo");
  CHECK(ref.uid == "gizmo-uid");
  CHECK(ref.controller == true);
  CHECK(ref.block_owner_deletion == true);

  const Gizmo changed = GizmoDie()
                            .metadata([](rr::ObjectMeta& m) { m.generate_name = "gizmo-"; })
                            .with([](Gizmo& g) { g.metadata.resource_version = "42"; })
                            .creation_timestamp(at_second(1));
  CHECK(changed.metadata.generate_name == "gizmo-");
  CHECK(changed.metadata.resource_version == "42");
  CHECK(changed.metadata.creation_timestamp == at_second(1));
}

TEST_CASE("dies compare with dies and with objects") {
  const GizmoDie a = full_gizmo();
  const GizmoDie b = full_gizmo();
  CHECK(a == b);
  CHECK(a == b.get());
  CHECK(b.get() == a);
  CHECK(a != b.spec_replicas(5));
  CHECK(GizmoDie(a.die_release()) == a);
}

TEST_CASE("what dies build survives a JSON round trip and passes validation") {
  const Gizmo g = full_gizmo();
  CHECK(Gizmo::from_json_text(g.to_json_text()) == g);
  CHECK(g.validate().empty());

  const ConfigMap cm = ConfigMapDie().namespace_("ns").name("c").data({{"k", "v"}});
  CHECK(cm.to_json_text() == R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","namespace":"ns"},"data":{"k":"v"}})");
  CHECK(ConfigMap::from_json_text(cm.to_json_text()) == cm);

  const Deployment d = DeploymentDie().namespace_("ns").name("d").spec_replicas(2).observed_generation(1);
  CHECK(Deployment::from_json_text(d.to_json_text()) == d);
}

TEST_CASE("dies stand in for their objects in test tables") {
  const GizmoDie gizmo = full_gizmo();
  const ConfigMapDie config = ConfigMapDie().namespace_("my-namespace").name("my-gizmo-config").controlled_by(gizmo);
  rr::testing::SubReconcilerTestCase<Gizmo> tc{
      .resource = gizmo,
      .given_objects = {config.get(), DeploymentDie().namespace_("my-namespace").name("w").get()},
      .expect_resource = gizmo.status_url("https://other.example"),
      .expect_creates = {config.die_release()},
  };
  CHECK(tc.resource == gizmo);
  REQUIRE(tc.expect_resource.has_value());
  CHECK(tc.expect_resource->status->url == "https://other.example");
  REQUIRE(tc.given_objects.size() == 2);
  CHECK(tc.given_objects[0].kind().gvk.kind == "ConfigMap");
  CHECK(tc.given_objects[1].kind().gvk.kind == "Deployment");
  CHECK(tc.expect_creates[0].as<ConfigMap>() == config);
}
