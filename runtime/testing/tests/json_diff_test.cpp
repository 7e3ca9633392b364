#include "rr/testing/json_diff.hpp"

#include <doctest/doctest.h>

#include "rr/core/json.hpp"

using rr::Json;
using rr::testing::diff_json;

TEST_CASE("diff_json: equal documents have no diff") {
  Json a = Json::parse(R"({"spec":{"fields":{"foo":"bar"}},"n":1})");
  CHECK(diff_json(a, a).empty());
  CHECK(diff_json(Json::parse(R"({"n":1})"), Json::parse(R"({"n":1.0})")).empty());  // numbers by value
}

TEST_CASE("diff_json: a changed value names its path, map keys in brackets") {
  Json e = Json::parse(R"({"spec":{"fields":{"foo":"bar"}}})");
  Json a = Json::parse(R"({"spec":{"fields":{"foo":"baz"}}})");
  CHECK(diff_json(e, a) == R"(  spec.fields["foo"]: -"bar" +"baz")");
}

TEST_CASE("diff_json: members only on one side") {
  Json e = Json::parse(R"({"spec":{"image":"nginx:1"}})");
  Json a = Json::parse(R"({"spec":{"replicas":2}})");
  CHECK(diff_json(e, a) == "  spec.image: -\"nginx:1\" +(absent)\n  spec.replicas: -(absent) +2");
}

TEST_CASE("diff_json: array elements by index, surplus shown whole") {
  Json e = Json::parse(R"({"status":{"conditions":[{"type":"Ready","status":"Unknown"}]}})");
  Json a = Json::parse(R"({"status":{"conditions":[{"type":"Ready","status":"True"},{"type":"X","status":"True"}]}})");
  CHECK(diff_json(e, a) ==
        "  status.conditions[0].status: -\"Unknown\" +\"True\"\n"
        "  status.conditions[1]: -(absent) +{\"status\":\"True\",\"type\":\"X\"}");
}

TEST_CASE("diff_json: keys that are not identifiers, labels and annotations") {
  Json e = Json::parse(R"({"metadata":{"labels":{"app":"a"},"annotations":{"example.com/x":"1"}},"weird-key":1})");
  Json a = Json::parse(R"({"metadata":{"labels":{"app":"b"},"annotations":{"example.com/x":"2"}},"weird-key":2})");
  CHECK(diff_json(e, a) ==
        "  metadata.annotations[\"example.com/x\"]: -\"1\" +\"2\"\n"
        "  metadata.labels[\"app\"]: -\"a\" +\"b\"\n"
        "  [\"weird-key\"]: -1 +2");
}

TEST_CASE("diff_json: a type change and a different root") {
  CHECK(diff_json(Json::parse(R"({"a":1})"), Json::parse(R"({"a":"1"})")) == R"(  a: -1 +"1")");
  CHECK(diff_json(Json(1), Json(2)) == "  -1 +2");
  CHECK(diff_json(Json::parse("{}"), Json::parse("[]")) == "  -{} +[]");
}

TEST_CASE("diff_json: every difference on its own line, in key order") {
  Json e = Json::parse(R"({"b":1,"a":{"y":1,"x":1}})");
  Json a = Json::parse(R"({"b":2,"a":{"y":2,"x":2}})");
  CHECK(diff_json(e, a) == "  a.x: -1 +2\n  a.y: -1 +2\n  b: -1 +2");
}
