#include "rr/testing/normalize.hpp"

#include <doctest/doctest.h>

#include "rr/core/json.hpp"

using rr::Json;
using rr::testing::diff_objects;
using rr::testing::ObjectComparison;

namespace {

Json object(const char* text) { return Json::parse(text); }

// A TestResource as the runtime writes it, with the fields each comparison treats specially.
Json resource() {
  return object(R"({
    "apiVersion": "testing.rrgen.dev/v1", "kind": "TestResource",
    "metadata": {"namespace": "ns", "name": "r", "resourceVersion": "5",
                 "creationTimestamp": "2024-01-01T00:00:00Z", "labels": {}},
    "spec": {"image": "a"},
    "status": {"conditions": [{"type": "Ready", "status": "True", "reason": "Ok", "message": "",
                               "lastTransitionTime": "2024-01-01T00:00:00Z"}]}
  })");
}

}  // namespace

TEST_CASE("equate_empty drops null and empty members, recursively, and keeps array elements") {
  Json in = object(R"({"a":null,"b":[],"c":{},"d":{"e":{"f":[]}},"g":[{},1],"h":""})");
  CHECK(rr::testing::equate_empty(in) == object(R"({"g":[{},1],"h":""})"));
}

TEST_CASE("drop_last_transition_times removes the member at any depth") {
  Json in = object(R"({"lastTransitionTime":"x","s":{"c":[{"lastTransitionTime":"y","t":"Ready"}]}})");
  CHECK(rr::testing::drop_last_transition_times(in) == object(R"({"s":{"c":[{"t":"Ready"}]}})"));
}

TEST_CASE("CreateOrUpdate ignores resourceVersion, creationTimestamp, TypeMeta, LTT and empty members") {
  Json expected = resource();
  Json actual = resource();
  actual["metadata"]["resourceVersion"] = "6";
  actual["metadata"]["creationTimestamp"] = "2030-01-01T00:00:00Z";
  actual["metadata"].erase("labels");
  actual.erase("apiVersion");
  actual["status"]["conditions"][0]["lastTransitionTime"] = "2030-01-01T00:00:00Z";
  CHECK(diff_objects(expected, actual, ObjectComparison::CreateOrUpdate).empty());

  actual["spec"]["image"] = "b";
  CHECK(diff_objects(expected, actual, ObjectComparison::CreateOrUpdate) == R"(  spec.image: -"a" +"b")");
}

TEST_CASE("CreateOrUpdate ignores the store's uid when the expectation states none, and compares a stated one") {
  Json expected = resource();
  Json actual = resource();
  actual["metadata"]["uid"] = "00000000-0000-4000-8000-000000000001";
  CHECK(diff_objects(expected, actual, ObjectComparison::CreateOrUpdate).empty());
  CHECK(diff_objects(expected, actual, ObjectComparison::StashedValue).empty());

  expected["metadata"]["uid"] = "parent-uid";
  CHECK(diff_objects(expected, actual, ObjectComparison::CreateOrUpdate) ==
        R"(  metadata.uid: -"parent-uid" +"00000000-0000-4000-8000-000000000001")");
  // An expected uid the actual object lacks is a difference too.
  actual["metadata"].erase("uid");
  CHECK_FALSE(diff_objects(expected, actual, ObjectComparison::CreateOrUpdate).empty());
  // The sub-reconciler's resource is compared as given: its uid counts.
  expected["metadata"].erase("uid");
  actual["metadata"]["uid"] = "x";
  CHECK_FALSE(diff_objects(expected, actual, ObjectComparison::Resource).empty());
}

TEST_CASE("TypeMeta is compared when the two sides name different kinds") {
  Json expected = resource();
  Json actual = resource();
  actual["kind"] = "TestChild";
  CHECK(diff_objects(expected, actual, ObjectComparison::CreateOrUpdate) == R"(  kind: -"TestResource" +"TestChild")");
}

TEST_CASE("StatusUpdate compares only the status") {
  Json expected = resource();
  Json actual = resource();
  actual["metadata"]["name"] = "other";
  actual["spec"]["image"] = "b";
  CHECK(diff_objects(expected, actual, ObjectComparison::StatusUpdate).empty());

  actual["status"]["conditions"][0]["reason"] = "NotOk";
  CHECK(diff_objects(expected, actual, ObjectComparison::StatusUpdate) ==
        R"(  status.conditions[0].reason: -"Ok" +"NotOk")");
}

TEST_CASE("Resource compares resourceVersion and creationTimestamp but not TypeMeta or LTT") {
  Json expected = resource();
  Json actual = resource();
  actual.erase("kind");
  actual["status"]["conditions"][0]["lastTransitionTime"] = "2030-01-01T00:00:00Z";
  CHECK(diff_objects(expected, actual, ObjectComparison::Resource).empty());

  actual["metadata"]["resourceVersion"] = "1000";
  actual["metadata"]["creationTimestamp"] = "2030-01-01T00:00:00Z";
  CHECK(diff_objects(expected, actual, ObjectComparison::Resource) ==
        "  metadata.creationTimestamp: -\"2024-01-01T00:00:00Z\" +\"2030-01-01T00:00:00Z\"\n"
        "  metadata.resourceVersion: -\"5\" +\"1000\"");
}

TEST_CASE("StashedValue ignores what CreateOrUpdate ignores") {
  Json expected = resource();
  Json actual = resource();
  actual["metadata"]["resourceVersion"] = "1";
  CHECK(diff_objects(expected, actual, ObjectComparison::StashedValue).empty());
}
