// prune(): unknown fields removed, with the paths of the API server's `unknown field` messages.
#include <doctest/doctest.h>

#include "support.hpp"

using rr::Json;
using schema_test::compiled;

namespace {

const char* const kPruneSchema = R"({"type":"object","properties":{"spec":{"type":"object","properties":{
  "a":{"type":"string"},
  "items":{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"}}}},
  "free":{"type":"object","x-kubernetes-preserve-unknown-fields":true,"properties":{"known":{"type":"object",
    "properties":{"x":{"type":"string"}}}}},
  "map":{"type":"object","additionalProperties":{"type":"object","properties":{"v":{"type":"string"}}}},
  "template":{"type":"object","x-kubernetes-embedded-resource":true,"properties":{"spec":{"type":"object",
    "properties":{"s":{"type":"string"}}}}}
}}}})";

}  // namespace

TEST_CASE("prune: unknown fields at every depth, sorted paths") {
  const auto schema = compiled(Json::parse(kPruneSchema));
  Json object = Json::parse(R"({"apiVersion":"x.dev/v1","kind":"X","metadata":{"name":"n"},"status":{},
      "spec":{"a":"1","foo":1,"items":[{"name":"a","extra":true}],"map":{"k":{"v":"1","w":"2"}},
      "free":{"anything":{"goes":1},"known":{"x":"1","y":"2"}},
      "template":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"s":"1","t":"2"},"other":1}}})");
  const auto pruned = schema.prune(object);
  CHECK(pruned == std::vector<std::string>{"spec.foo", "spec.free.known.y", "spec.items[0].extra", "spec.map.k.w",
                                           "spec.template.other", "spec.template.spec.t", "status"});
  CHECK(object["apiVersion"] == "x.dev/v1");
  CHECK(object["metadata"]["name"] == "n");
  CHECK(object["spec"]["free"]["anything"] == Json{{"goes", 1}});
  CHECK(object["spec"]["template"]["kind"] == "Pod");
  CHECK(object["spec"]["template"]["metadata"]["name"] == "p");
  CHECK_FALSE(object["spec"]["items"][0].contains("extra"));
  CHECK_FALSE(object.contains("status"));
}

TEST_CASE("prune: a known object is left as it is") {
  const auto schema = compiled(Json::parse(kPruneSchema));
  Json object = Json::parse(R"({"spec":{"a":"1","items":[{"name":"a"}]}})");
  const Json before = object;
  CHECK(schema.prune(object).empty());
  CHECK(object == before);
}

TEST_CASE("prune: additionalProperties: true keeps members but no schema is below them") {
  const auto schema = compiled(Json::parse(R"({"type":"object","properties":{"m":{"type":"object",
      "additionalProperties":true}}})"));
  Json object = Json::parse(R"({"m":{"s":"x","o":{"a":1},"l":[{"b":2},3]}})");
  CHECK(schema.prune(object) == std::vector<std::string>{"m.l[0].b", "m.o.a"});
  CHECK(object == Json::parse(R"({"m":{"s":"x","o":{},"l":[{},3]}})"));
}
