// Ratcheting: on update, a node's errors are dropped when its value is unchanged from the
// correlated old value, with the correlation of apiextensions' ratcheting validator.
#include <doctest/doctest.h>

#include "support.hpp"

using rr::Json;
using schema_test::compiled;
using schema_test::messages;

namespace {

const char* const kRatchetingSchema = R"({"type":"object","properties":{"spec":{"type":"object","properties":{
  "a":{"type":"string","maxLength":3},
  "b":{"type":"string","maxLength":3},
  "byKey":{"type":"object","additionalProperties":{"type":"integer","maximum":5}},
  "ports":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"],
    "items":{"type":"object","required":["name"],"properties":{"name":{"type":"string"},"port":{"type":"integer","maximum":100}}}},
  "tags":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string","maxLength":2}},
  "atomic":{"type":"array","x-kubernetes-list-type":"atomic","items":{"type":"string","maxLength":2}},
  "plain":{"type":"array","items":{"type":"string","maxLength":2}}
}}}})";

}  // namespace

TEST_CASE("ratcheting: an unchanged invalid field does not block an update") {
  const auto schema = compiled(Json::parse(kRatchetingSchema));
  const Json old = Json::parse(R"({"spec":{"a":"toolong","b":"ok"}})");
  const Json updated = Json::parse(R"({"spec":{"a":"toolong","b":"new"}})");
  CHECK(schema.validate(updated, &old).empty());
  const Json changed = Json::parse(R"({"spec":{"a":"toolong!","b":"ok"}})");
  CHECK(messages(schema.validate(changed, &old)) ==
        std::vector<std::string>{"spec.a: Too long: may not be longer than 3"});
  // Without ratcheting (or on create) the old error is reported.
  CHECK(messages(schema.validate(updated, &old, {.ratcheting = false})) ==
        std::vector<std::string>{"spec.a: Too long: may not be longer than 3"});
  CHECK(messages(schema.validate(updated, nullptr)).size() == 1);
}

TEST_CASE("ratcheting: map values by key, list-map items by their keys") {
  const auto schema = compiled(Json::parse(kRatchetingSchema));
  const Json old = Json::parse(R"({"spec":{"byKey":{"x":9},"ports":[{"name":"http","port":800}]}})");
  // Reordered and extended, but the invalid old entries are unchanged.
  const Json updated = Json::parse(R"({"spec":{"byKey":{"w":1,"x":9},
      "ports":[{"name":"dns","port":53},{"name":"http","port":800}]}})");
  CHECK(schema.validate(updated, &old).empty());
  const Json worse = Json::parse(R"({"spec":{"byKey":{"x":9,"y":9},"ports":[{"name":"http","port":801}]}})");
  CHECK(
      messages(schema.validate(worse, &old)) ==
      std::vector<std::string>{"spec.byKey.y: Invalid value: 9: spec.byKey.y in body should be less than or equal to 5",
                               "spec.ports[0].port: Invalid value: 801: spec.ports[0].port in body should be less "
                               "than or equal to 100"});
}

TEST_CASE("ratcheting: items of lists without a list type by index; sets and atomic lists not at all") {
  const auto schema = compiled(Json::parse(kRatchetingSchema));
  const Json old = Json::parse(R"({"spec":{"plain":["long"],"tags":["long"],"atomic":["long"]}})");
  CHECK(messages(schema.validate(old, &old)) ==
        std::vector<std::string>{"spec.atomic[0]: Too long: may not be longer than 2",
                                 "spec.tags[0]: Too long: may not be longer than 2"});
}

TEST_CASE("ratcheting: an object with members the schema does not name is never unchanged") {
  // Upstream compares through the values it visited; members it does not visit make the object
  // "changed", so its own findings stay (the members it names are still ratcheted one by one).
  const auto schema = compiled(Json::parse(R"({"type":"object","properties":{"o":{"type":"object",
      "x-kubernetes-preserve-unknown-fields":true,"minProperties":3,"properties":{"a":{"type":"string","maxLength":1}}}}})"));
  const Json old = Json::parse(R"({"o":{"a":"long","free":1}})");
  CHECK(messages(schema.validate(old, &old)) ==
        std::vector<std::string>{"o: Invalid value: 2: o in body should have at least 3 properties"});
}

TEST_CASE("ratcheting: a map under additionalProperties: true is never unchanged") {
  const auto schema = compiled(Json::parse(R"({"type":"object","properties":{"m":{"type":"object",
      "maxProperties":1,"additionalProperties":true},"s":{"type":"object","maxProperties":1,
      "additionalProperties":{"type":"integer"}}}})"));
  const Json old = Json::parse(R"({"m":{"a":1,"b":2},"s":{"a":1,"b":2}})");
  CHECK(messages(schema.validate(old, &old)) == std::vector<std::string>{"m: Too many: 2: must have at most 1 items"});
}

TEST_CASE("ratcheting: list-type duplicates are checked on update only when the old object had none") {
  const auto schema = compiled(Json::parse(kRatchetingSchema));
  const Json old_dup = Json::parse(R"({"spec":{"tags":["a","a"]}})");
  const Json new_dup = Json::parse(R"({"spec":{"tags":["b","b"],"a":"x"}})");
  CHECK(schema.validate(new_dup, &old_dup).empty());
  const Json old_ok = Json::parse(R"({"spec":{"tags":["a"]}})");
  CHECK(messages(schema.validate(new_dup, &old_ok)) ==
        std::vector<std::string>{"spec.tags[1]: Duplicate value: \"b\""});
}

TEST_CASE("ratcheting: an embedded resource's TypeMeta is checked on every update") {
  const auto schema = compiled(Json::parse(R"({"type":"object","properties":{"m":{"type":"object",
      "additionalProperties":{"type":"object","x-kubernetes-embedded-resource":true,
      "x-kubernetes-preserve-unknown-fields":true}}}})"));
  const Json old = Json::parse(R"({"m":{"k":{"kind":"Pod"}}})");
  CHECK(messages(schema.validate(old, &old)) == std::vector<std::string>{"m[k].apiVersion: Required value"});
}
