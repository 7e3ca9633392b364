// object.hpp: status access, status comparison, lastTransitionTime restore, controller references.
#include "rr/reconcilers/object.hpp"

#include <doctest/doctest.h>

#include "rr/reconcilers/child.hpp"
#include "support.hpp"

using namespace coretest;

static_assert(rr::HasObjectMeta<TestResource>);
static_assert(rr::HasStatus<TestResource>);
static_assert(rr::HasConditions<TestResource>);
static_assert(rr::HasObservedGeneration<TestResource>);
static_assert(rr::HasStatus<TestResourceNoStatus>);
static_assert(!rr::HasConditions<TestResourceNoStatus>);
static_assert(rr::HasObservedGeneration<TestResourceNoStatus>);
static_assert(!rr::HasObservedGeneration<TestChild>);
static_assert(!rr::HasStatus<rr::ObjectMeta>);

namespace {

rr::Condition condition(std::string type, std::string status, std::string reason, std::string time) {
  rr::Condition c;
  c.type = std::move(type);
  c.status = std::move(status);
  c.reason = std::move(reason);
  c.last_transition_time = rr::Time(std::move(time));
  return c;
}

}  // namespace

TEST_CASE("ensure_conditions and set_observed_generation create the status they need") {
  TestResource r = make_resource();
  r.metadata.generation = 7;
  CHECK(rr::conditions_of(r) == nullptr);
  rr::ensure_conditions(r).push_back(condition("Ready", "True", "Ok", "2024-01-01T00:00:00Z"));
  REQUIRE(rr::conditions_of(r) != nullptr);
  CHECK(rr::conditions_of(r)->size() == 1);
  rr::set_observed_generation(r);
  CHECK(r.status->observed_generation == 7);

  TestResourceNoStatus n = make_resource_no_status();
  n.metadata.generation = 3;
  rr::set_observed_generation(n);
  CHECK(n.status->observed_generation == 3);
}

TEST_CASE("same_status compares the serialised status, nil equal to empty") {
  TestResource a = make_resource();
  TestResource b = a;
  CHECK(rr::same_status(a, b));

  SUBCASE("an absent status equals an empty one") {
    b.status.emplace();
    CHECK(rr::same_status(a, b));
    b.status->fields.emplace();  // empty map: not serialised as anything that counts
    CHECK(rr::same_status(a, b));
    b.status->conditions.emplace();
    CHECK(rr::same_status(a, b));
  }
  SUBCASE("a value change counts") {
    b.status.emplace().latest_image = "image:2";
    CHECK_FALSE(rr::same_status(a, b));
    a.status.emplace().latest_image = "image:2";
    CHECK(rr::same_status(a, b));
    b.status->fields.emplace()["k"] = "v";
    CHECK_FALSE(rr::same_status(a, b));
  }
  SUBCASE("a change outside status does not count") {
    b.spec->image = "other";
    b.metadata.labels["x"] = "y";
    CHECK(rr::same_status(a, b));
  }
  SUBCASE("lastTransitionTime counts (it is restored before comparing)") {
    rr::ensure_conditions(a).push_back(condition("Ready", "True", "Ok", "2024-01-01T00:00:00Z"));
    rr::ensure_conditions(b).push_back(condition("Ready", "True", "Ok", "2024-01-01T00:00:01Z"));
    CHECK_FALSE(rr::same_status(a, b));
  }
}

TEST_CASE("same_json_document: identical texts, then Go's semantic equality of parsed documents") {
  CHECK(rr::same_json_document(R"({"a":1,"b":[2]})", R"({"a":1,"b":[2]})"));
  CHECK(rr::same_json_document("", ""));
  // Texts that differ are compared as documents: member order, nulls and empty members do not count.
  CHECK(rr::same_json_document(R"({"a":1,"b":[2]})", R"({"b":[2],"a":1,"c":null,"d":{}})"));
  CHECK(rr::same_json_document("", R"({"c":[],"d":{"e":null}})"));
  CHECK_FALSE(rr::same_json_document(R"({"a":1})", R"({"a":2})"));
  CHECK_FALSE(rr::same_json_document(R"({"a":[1,2]})", R"({"a":[2,1]})"));
  CHECK_FALSE(rr::same_json_document("", R"({"a":0})"));
}

TEST_CASE("restore_last_transition_times keeps the original time of unchanged conditions") {
  const std::vector<rr::Condition> original{condition("Ready", "True", "Ok", "2024-01-01T00:00:00Z"),
                                            condition("Other", "False", "Bad", "2024-01-01T00:00:00Z")};
  std::vector<rr::Condition> proposed{condition("Other", "False", "Worse", "2024-05-01T12:00:00Z"),
                                      condition("Ready", "True", "Ok", "2024-05-01T12:00:00Z"),
                                      condition("Ready", "True", "Ok", "2024-05-01T12:00:00Z")};
  rr::restore_last_transition_times(proposed, original);
  CHECK(proposed[0].last_transition_time.str() == "2024-05-01T12:00:00Z");  // reason changed
  CHECK(proposed[1].last_transition_time.str() == "2024-01-01T00:00:00Z");  // unchanged
  CHECK(proposed[2].last_transition_time.str() == "2024-05-01T12:00:00Z");  // only the first of a type

  std::vector<rr::Condition> generation_changed{condition("Ready", "True", "Ok", "2024-05-01T12:00:00Z")};
  generation_changed[0].observed_generation = 2;
  rr::restore_last_transition_times(generation_changed, original);
  CHECK(generation_changed[0].last_transition_time.str() == "2024-05-01T12:00:00Z");
}

TEST_CASE("lifecycle predicates: terminating, exists (a creationTimestamp, Q18)") {
  rr::ObjectMeta m;
  CHECK_FALSE(rr::is_terminating(m));
  CHECK_FALSE(rr::exists_on_server(m));
  m.creation_timestamp = rr::Time("1970-01-01T00:00:01Z");
  CHECK(rr::exists_on_server(m));
  m.deletion_timestamp = rr::Time("2024-01-01T00:00:00Z");
  CHECK(rr::is_terminating(m));
}

TEST_CASE("set_controller_reference") {
  TestResource parent = make_resource();
  parent.metadata.uid = "uid-1";

  SUBCASE("sets controller and blockOwnerDeletion") {
    TestChild child = make_child(parent, "child", "image:1", false);
    REQUIRE_FALSE(rr::set_controller_reference(parent, child));
    REQUIRE(child.metadata.owner_references.size() == 1);
    const rr::OwnerReference& ref = child.metadata.owner_references[0];
    CHECK(ref.api_version == "testing.rrgen.dev/v1");
    CHECK(ref.kind == "TestResource");
    CHECK(ref.name == "test-resource");
    CHECK(ref.uid == "uid-1");
    CHECK(ref.controller == true);
    CHECK(ref.block_owner_deletion == true);
    CHECK(rr::is_controlled_by(child.metadata, parent.metadata));
  }
  SUBCASE("cross-namespace and cluster-scoped objects are refused") {
    TestChild child = make_child(parent, "child", "image:1", false);
    child.metadata.namespace_ = "elsewhere";
    CHECK(rr::set_controller_reference(parent, child).message() ==
          "cross-namespace owner references are disallowed, owner's namespace test-namespace, obj's namespace "
          "elsewhere");
    child.metadata.namespace_.clear();
    CHECK(rr::set_controller_reference(parent, child).message() ==
          "cluster-scoped resource must not have a namespace-scoped owner, owner's namespace test-namespace");
    CHECK(child.metadata.owner_references.empty());
  }
  SUBCASE("another controller: AlreadyOwned (Q14: group, kind and name compared, not UID)") {
    TestChild child = make_child(parent, "child", "image:1", false);
    rr::OwnerReference other;
    other.api_version = "apps/v1";
    other.kind = "Deployment";
    other.name = "someone";
    other.uid = "uid-9";
    other.controller = true;
    child.metadata.owner_references.push_back(other);
    CHECK(rr::set_controller_reference(parent, child).message() ==
          "Object test-namespace/child is already owned by another Deployment controller someone");

    // Same group, kind and name under another version and UID: the same owner, the ref is replaced.
    child.metadata.owner_references[0].api_version = "testing.rrgen.dev/v2";
    child.metadata.owner_references[0].kind = "TestResource";
    child.metadata.owner_references[0].name = "test-resource";
    REQUIRE_FALSE(rr::set_controller_reference(parent, child));
    REQUIRE(child.metadata.owner_references.size() == 1);
    CHECK(child.metadata.owner_references[0].uid == "uid-1");
    CHECK(child.metadata.owner_references[0].api_version == "testing.rrgen.dev/v1");
  }
  SUBCASE("is_controlled_by compares the UID") {
    TestChild child = make_child(parent, "child");
    CHECK(rr::is_controlled_by(child.metadata, parent.metadata));
    TestResource recreated = parent;
    recreated.metadata.uid = "uid-2";
    CHECK_FALSE(rr::is_controlled_by(child.metadata, recreated.metadata));
    child.metadata.owner_references[0].controller = false;
    CHECK_FALSE(rr::is_controlled_by(child.metadata, parent.metadata));
  }
}
