// Admission of a generated kind (defaults and validation on write) and ClusterClient's typed calls.
#include "cluster_test_api_types.hpp"
#include "rr/core/json.hpp"
#include "test_support.hpp"

using namespace cluster_test;
using clustertest::v1::Gadget;
using clustertest::v1::GadgetSpec;
using clustertest::v1::GadgetSpecMode;

namespace {

struct AdmissionFixture {
  std::shared_ptr<rr::Cluster> cluster = [] {
    auto c = make_cluster();
    c->register_kind<Gadget>();
    return c;
  }();
  rr::ClusterClient client{cluster};
};

Gadget gadget(const std::string& name, GadgetSpec spec = {}) {
  Gadget g;
  g.metadata.namespace_ = "default";
  g.metadata.name = name;
  g.spec = std::move(spec);
  return g;
}

}  // namespace

TEST_CASE("register_kind<T> takes the kind's description from its ResourceTraits") {
  AdmissionFixture f;
  const auto info = f.cluster->find_kind({"clustertest.rrgen.dev", "v1", "Gadget"});
  REQUIRE(info);
  CHECK(info->plural == "gadgets");
  CHECK(info->list_kind == "GadgetList");
  CHECK(info->has_status);
  CHECK(f.client.kind_info(info->gvk) == *info);
  const rr::Status unknown = failure_of([&] { f.client.kind_info({"nowhere.test", "v1", "Ghost"}); });
  CHECK(unknown.code == 404);
}

TEST_CASE("admission applies the schema defaults on create") {
  AdmissionFixture f;
  const Gadget created = f.client.create(gadget("g"));
  REQUIRE(created.spec);
  CHECK(created.spec->size == 3);
  CHECK(created.spec->mode->str() == "slow");
  CHECK(created.metadata.generation == 1);
  CHECK(created.metadata.resource_version == "1");
  CHECK(f.client.get<Gadget>("default", "g") == created);
}

TEST_CASE("admission findings are a 422 Invalid with one cause each, and nothing is stored") {
  AdmissionFixture f;
  GadgetSpec spec;
  spec.size = 11;
  spec.mode = rr::OpenEnum<GadgetSpecMode>::from_string("turbo");
  const rr::Status s = failure_of([&] { f.client.create(gadget("bad", spec)); });
  CHECK(s.code == 422);
  CHECK(s.reason == "Invalid");
  CHECK(s.details_kind == "Gadget");
  CHECK(s.details_group == "clustertest.rrgen.dev");
  REQUIRE(s.causes.size() == 2);
  CHECK(s.causes[0].field == "spec.size");
  CHECK(s.causes[0].type == "FieldValueInvalid");
  CHECK(s.causes[0].message == "Invalid value: 11: spec.size in body should be less than or equal to 10");
  CHECK(s.causes[1].field == "spec.mode");
  CHECK(s.causes[1].type == "FieldValueNotSupported");
  CHECK(s.message ==
        "Gadget.clustertest.rrgen.dev \"bad\" is invalid: [spec.size: Invalid value: 11: spec.size in body should be "
        "less than or equal to 10, spec.mode: Unsupported value: \"turbo\": supported values: \"fast\", \"slow\"]");
  CHECK_FALSE(f.client.try_get<Gadget>({"default", "bad"}));
  CHECK(f.cluster->resource_version() == "0");
}

TEST_CASE("admission runs on update and patch of the main resource") {
  AdmissionFixture f;
  Gadget g = f.client.create(gadget("g"));
  g.spec->size = 0;
  CHECK(failure_of([&] { f.client.update(g); }).code == 422);
  CHECK(failure_of([&] {
          f.client.patch<Gadget>({"default", "g"}, rr::PatchType::Merge, R"({"spec":{"size":99}})");
        }).code == 422);
  // A value of the wrong type is refused as invalid too, with the field it is at.
  const rr::Status wrong_type = failure_of([&] {
    f.client.patch<Gadget>({"default", "g"}, rr::PatchType::Merge, R"({"spec":{"size":"big"}})");
  });
  CHECK(wrong_type.code == 422);
  REQUIRE(wrong_type.causes.size() == 1);
  CHECK(wrong_type.causes[0].field == "spec.size");
  // Removing a defaulted member brings the default back.
  const Gadget patched = f.client.patch<Gadget>({"default", "g"}, rr::PatchType::Merge, R"({"spec":{"mode":null}})");
  CHECK(patched.spec->mode->str() == "slow");
  CHECK(patched.metadata.resource_version == "1");  // so nothing changed at all
}

TEST_CASE("typed ClusterClient calls round-trip a generated kind") {
  AdmissionFixture f;
  GadgetSpec spec;
  spec.color = "red";
  Gadget g = f.client.create(gadget("g", spec));
  CHECK(g.metadata.uid == "00000000-0000-4000-8000-000000000001");
  CHECK(g.metadata.creation_timestamp.str() == pinned_time);

  g.spec->size = 5;
  g = f.client.update(g);
  CHECK(g.metadata.generation == 2);

  g.status.emplace();
  g.status->observed_generation = g.metadata.generation;
  g.status->phase = "Ready";
  g = f.client.update_status(g);
  CHECK(g.status->phase == "Ready");
  CHECK(g.metadata.generation == 2);

  f.client.create(gadget("h"));
  const auto all = f.client.list<Gadget>();
  REQUIRE(all.size() == 2);
  CHECK(all[0] == g);
  CHECK(all[1].metadata.name == "h");

  f.client.remove(g);
  CHECK_FALSE(f.client.try_get<Gadget>({"default", "g"}));
}

TEST_CASE("admission reports a required member an object lacks as Required value, not as a decode error") {
  AdmissionFixture f;
  const auto info = *f.cluster->find_kind({"clustertest.rrgen.dev", "v1", "Gadget"});
  const Json object = Json::parse(R"({"apiVersion":"clustertest.rrgen.dev/v1","kind":"Gadget",
    "metadata":{"namespace":"default","name":"incomplete"},
    "spec":{"steps":[{"name":"a"},{"image":"busybox"}],"parts":{"lid":{}}}})");
  const rr::Status s = failure_of([&] { f.client.create(info, object); });
  CHECK(s.code == 422);
  CHECK(s.reason == "Invalid");
  REQUIRE(s.causes.size() == 2);
  CHECK(s.causes[0].field == "spec.steps[1].name");
  CHECK(s.causes[0].type == "FieldValueRequired");
  CHECK(s.causes[0].message == "Required value");
  CHECK(s.causes[1].field == "spec.parts[lid].serial");
  CHECK(s.causes[1].type == "FieldValueRequired");
  CHECK(s.message == "Gadget.clustertest.rrgen.dev \"incomplete\" is invalid: [spec.steps[1].name: Required value, "
                     "spec.parts[lid].serial: Required value]");
  CHECK_FALSE(f.client.try_get<Gadget>({"default", "incomplete"}));
}

TEST_CASE("an object stored without a required member stays readable through the typed client") {
  // Stored before the kind had admission (as before its CRD required the member).
  auto cluster = make_cluster();
  cluster->register_kind(rr::kind_info_of<Gadget>());
  rr::ClusterClient client{cluster};
  client.create(rr::kind_info_of<Gadget>(), Json::parse(R"({"apiVersion":"clustertest.rrgen.dev/v1","kind":"Gadget",
    "metadata":{"namespace":"default","name":"old"},"spec":{"steps":[{"image":"busybox"}]}})"));
  Gadget g = client.get<Gadget>("default", "old");
  REQUIRE(g.spec->steps);
  CHECK(g.spec->steps->at(0).image == "busybox");
  REQUIRE(g.validate().size() == 1);
  CHECK(g.validate()[0].message == "spec.steps[0].name: Required value");
  REQUIRE(client.list<Gadget>().size() == 1);
  // An update that leaves it untouched does not write it; one that sets it does.
  g.spec->color = "red";
  g = client.update(g);
  CHECK_FALSE(client.get(rr::kind_info_of<Gadget>(), {"default", "old"})["spec"]["steps"][0].contains("name"));
  g.spec->steps->at(0).name = "fetch";
  g = client.update(g);
  CHECK(g.validate().empty());
  CHECK(client.get<Gadget>("default", "old").spec->steps->at(0).name == "fetch");
}
