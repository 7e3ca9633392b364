// apply_defaults(): structural defaulting, in properties, list items and map values.
#include <doctest/doctest.h>

#include "support.hpp"

using rr::Json;
using schema_test::compiled;

namespace {

const char* const kSchema = R"({"type":"object","properties":{"spec":{"type":"object","properties":{
  "replicas":{"type":"integer","default":1},
  "mode":{"type":"string","default":"auto"},
  "optional":{"type":"string"},
  "nested":{"type":"object","properties":{"a":{"type":"string","default":"x"}}},
  "withDefault":{"type":"object","default":{},"properties":{"b":{"type":"integer","default":2}}},
  "ports":{"type":"array","items":{"type":"object","properties":{"protocol":{"type":"string","default":"TCP"},
    "port":{"type":"integer"}}}},
  "byName":{"type":"object","additionalProperties":{"type":"object","properties":{"weight":{"type":"integer","default":10}}}},
  "tags":{"type":"array","items":{"type":"string","default":"none"}}
}}}})";

}  // namespace

TEST_CASE("apply_defaults: absent members get their default, present ones stay") {
  const auto schema = compiled(Json::parse(kSchema));
  Json object = Json::parse(R"({"spec":{"mode":"manual"}})");
  schema.apply_defaults(object);
  CHECK(object["spec"]["replicas"] == 1);
  CHECK(object["spec"]["mode"] == "manual");
  CHECK_FALSE(object["spec"].contains("optional"));
}

TEST_CASE("apply_defaults: only where the parent exists; defaults inside a default apply") {
  const auto schema = compiled(Json::parse(kSchema));
  Json object = Json::parse(R"({"spec":{}})");
  schema.apply_defaults(object);
  CHECK_FALSE(object["spec"].contains("nested"));
  CHECK(object["spec"]["withDefault"] == Json{{"b", 2}});
  Json none = Json::object();
  schema.apply_defaults(none);
  CHECK(none == Json::object());  // no spec, so nothing below it is defaulted
}

TEST_CASE("apply_defaults: list items and map values") {
  const auto schema = compiled(Json::parse(kSchema));
  Json object = Json::parse(R"({"spec":{"ports":[{"port":80},{"port":53,"protocol":"UDP"}],
      "byName":{"a":{},"b":{"weight":1}},"tags":["x",null]}})");
  schema.apply_defaults(object);
  CHECK(object["spec"]["ports"][0]["protocol"] == "TCP");
  CHECK(object["spec"]["ports"][1]["protocol"] == "UDP");
  CHECK(object["spec"]["byName"]["a"]["weight"] == 10);
  CHECK(object["spec"]["byName"]["b"]["weight"] == 1);
  CHECK(object["spec"]["tags"] == Json::array({"x", "none"}));  // a null item takes the items' default
}

TEST_CASE("apply_defaults: a null the schema does not allow") {
  const auto schema = compiled(Json::parse(kSchema));
  Json object = Json::parse(R"({"spec":{"replicas":null,"optional":null}})");
  schema.apply_defaults(object);
  CHECK(object["spec"]["replicas"] == 1);            // replaced by the default
  CHECK_FALSE(object["spec"].contains("optional"));  // dropped: no default
}

TEST_CASE("apply_defaults: below additionalProperties: true there is no schema, so nulls stay") {
  const auto schema = compiled(Json::parse(R"({"type":"object","properties":{"m":{"type":"object",
      "additionalProperties":true},"s":{"type":"object","additionalProperties":{"type":"string"}}}})"));
  Json object = Json::parse(R"({"m":{"a":null},"s":{"a":null}})");
  schema.apply_defaults(object);
  CHECK(object == Json::parse(R"({"m":{"a":null},"s":{}})"));
}
