// One case per schema construct: the object's findings, compared with the API server's text.
#include <doctest/doctest.h>

#include "support.hpp"

using rr::Json;
using schema_test::compiled;
using schema_test::messages;

namespace {

struct ValidateCase {
  const char* name;
  const char* spec_schema;  // the schema of .spec
  const char* spec;         // the object's .spec
  std::vector<std::string> expected;
};

Json object_schema(const Json& spec) { return Json{{"type", "object"}, {"properties", {{"spec", spec}}}}; }

const ValidateCase kCases[] = {
    {"maximum",
     R"({"type":"object","properties":{"replicas":{"type":"integer","maximum":5}}})",
     R"({"replicas":7})",
     {"spec.replicas: Invalid value: 7: spec.replicas in body should be less than or equal to 5"}},
    {"exclusive minimum",
     R"({"type":"object","properties":{"r":{"type":"number","minimum":1,"exclusiveMinimum":true}}})",
     R"({"r":1})",
     {"spec.r: Invalid value: 1: spec.r in body should be greater than 1"}},
    {"multipleOf",
     R"({"type":"object","properties":{"r":{"type":"integer","multipleOf":3}}})",
     R"({"r":7})",
     {"spec.r: Invalid value: 7: spec.r in body should be a multiple of 3"}},
    {"enum",
     R"({"type":"object","properties":{"mode":{"type":"string","enum":["a","b"]}}})",
     R"({"mode":"x"})",
     {"spec.mode: Unsupported value: \"x\": supported values: \"a\", \"b\""}},
    {"integer enum",
     R"({"type":"object","properties":{"n":{"type":"integer","enum":[1,2]}}})",
     R"({"n":3})",
     {"spec.n: Unsupported value: 3: supported values: \"1\", \"2\""}},
    {"required",
     R"({"type":"object","required":["name"],"properties":{"name":{"type":"string"}}})",
     R"({})",
     {"spec.name: Required value"}},
    {"type integer",
     R"({"type":"object","properties":{"replicas":{"type":"integer"}}})",
     R"({"replicas":"three"})",
     {"spec.replicas: Invalid value: \"string\": spec.replicas in body must be of type integer: \"string\""}},
    {"integral float is an integer",
     R"({"type":"object","properties":{"replicas":{"type":"integer"}}})",
     R"({"replicas":3.0})",
     {}},
    {"fraction is not an integer",
     R"({"type":"object","properties":{"replicas":{"type":"integer"}}})",
     R"({"replicas":3.5})",
     {"spec.replicas: Invalid value: \"number\": spec.replicas in body must be of type integer: \"number\""}},
    {"integer is a number", R"({"type":"object","properties":{"r":{"type":"number"}}})", R"({"r":3})", {}},
    {"null not nullable",
     R"({"type":"object","properties":{"s":{"type":"string"}}})",
     R"({"s":null})",
     {"spec.s: Invalid value: \"null\": spec.s in body must be of type string: \"null\""}},
    {"null nullable",
     R"({"type":"object","properties":{"s":{"type":"string","nullable":true,"minLength":3}}})",
     R"({"s":null})",
     {}},
    {"int-or-string",
     R"({"type":"object","properties":{"p":{"x-kubernetes-int-or-string":true}}})",
     R"({"p":true})",
     {"spec.p: Invalid value: \"boolean\": spec.p in body must be of type integer,string: \"boolean\""}},
    {"int-or-string accepts both",
     R"({"type":"object","properties":{"a":{"x-kubernetes-int-or-string":true},
       "b":{"x-kubernetes-int-or-string":true}}})",
     R"({"a":80,"b":"http"})",
     {}},
    {"maxLength counts code points",
     R"({"type":"object","properties":{"s":{"type":"string","maxLength":3}}})",
     R"({"s":"éééé"})",
     {"spec.s: Too long: may not be longer than 3"}},
    {"size bounds beyond int64 saturate",
     R"({"type":"object","properties":{"s":{"type":"string","maxLength":1e300,
       "minLength":-1e300},"l":{"type":"array","maxItems":18446744073709551615,"items":{"type":"string"}}}})",
     R"({"s":"abc","l":["a"]})",
     {}},
    {"minLength",
     R"({"type":"object","properties":{"s":{"type":"string","minLength":2}}})",
     R"({"s":"é"})",
     {"spec.s: Invalid value: \"é\": spec.s in body should be at least 2 chars long"}},
    {"pattern",
     R"({"type":"object","properties":{"s":{"type":"string","pattern":"^[a-z]+$"}}})",
     R"({"s":"A1"})",
     {"spec.s: Invalid value: \"A1\": spec.s in body should match '^[a-z]+$'"}},
    {"format date-time",
     R"({"type":"object","properties":{"t":{"type":"string","format":"date-time"}}})",
     R"({"t":"yesterday"})",
     {"spec.t: Invalid value: \"yesterday\": spec.t in body must be of type date-time: \"yesterday\""}},
    {"a number where a format is declared fails on the format",
     R"({"type":"object","properties":{"t":{"type":"string","format":"date-time"}}})",
     R"({"t":5})",
     {"spec.t: Invalid value: \"int64\": spec.t in body must be of type date-time: \"int64\""}},
    {"format not in the registry passes",
     R"({"type":"object","properties":{"t":{"type":"string","format":"int32"}}})",
     R"({"t":"x"})",
     {}},
    {"maxItems",
     R"({"type":"object","properties":{"l":{"type":"array","maxItems":1,"items":{"type":"string"}}}})",
     R"({"l":["a","b"]})",
     {"spec.l: Too many: 2: must have at most 1 items"}},
    {"minItems",
     R"({"type":"object","properties":{"l":{"type":"array","minItems":2,"items":{"type":"string"}}}})",
     R"({"l":["a"]})",
     {"spec.l: Invalid value: 1: spec.l in body should have at least 2 items"}},
    {"item path",
     R"({"type":"object","properties":{"l":{"type":"array","items":{"type":"object","required":["port"],
       "properties":{"port":{"type":"integer"}}}}}})",
     R"({"l":[{"port":1},{}]})",
     {"spec.l[1].port: Required value"}},
    {"maxProperties",
     R"({"type":"object","properties":{"m":{"type":"object","maxProperties":1,
       "additionalProperties":{"type":"string"}}}})",
     R"({"m":{"a":"1","b":"2"}})",
     {"spec.m: Too many: 2: must have at most 1 items"}},
    {"additionalProperties schema",
     R"({"type":"object","properties":{"m":{"type":"object",
       "additionalProperties":{"type":"integer","maximum":3}}}})",
     R"({"m":{"a":1,"b":9}})",
     {"spec.m.b: Invalid value: 9: spec.m.b in body should be less than or equal to 3"}},
    {"set duplicate",
     R"({"type":"object","properties":{"l":{"type":"array","x-kubernetes-list-type":"set",
       "items":{"type":"string"}}}})",
     R"({"l":["a","b","a","a"]})",
     {"spec.l[2]: Duplicate value: \"a\""}},  // the second appearance only
    {"values quoted as Go's %q",
     R"({"type":"object","properties":{"l":{"type":"array","x-kubernetes-list-type":"set",
       "items":{"type":"string"}}}})",
     R"({"l":["a\tb","a\tb"]})",
     {"spec.l[1]: Duplicate value: \"a\\tb\""}},
    {"list-type paths inside map values",
     R"({"type":"object","properties":{"m":{"type":"object","additionalProperties":
       {"type":"array","x-kubernetes-list-type":"set","items":{"type":"integer"}}}}})",
     R"({"m":{"k":[1,1]}})",
     {"spec.m[k][1]: Duplicate value: 1"}},
    {"map duplicate",
     R"({"type":"object","properties":{"l":{"type":"array","x-kubernetes-list-type":"map",
       "x-kubernetes-list-map-keys":["name"],"items":{"type":"object","required":["name"],
       "properties":{"name":{"type":"string"},"v":{"type":"integer"}}}}}})",
     R"({"l":[{"name":"a","v":1},{"name":"a","v":2}]})",
     {"spec.l[1]: Duplicate value: map[string]interface {}{\"name\":\"a\"}"}},
    {"atomic list allows duplicates",
     R"({"type":"object","properties":{"l":{"type":"array","items":{"type":"string"}}}})",
     R"({"l":["a","a"]})",
     {}},
    {"embedded resource",
     R"({"type":"object","properties":{"t":{"type":"object","x-kubernetes-embedded-resource":true,
       "x-kubernetes-preserve-unknown-fields":true}}})",
     R"({"t":{"kind":""}})",
     {"spec.t.apiVersion: Required value", "spec.t.kind: Required value"}},
    {"embedded resource type and object meta",
     R"({"type":"object","properties":{"t":{"type":"object",
       "x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true}}})",
     R"({"t":{"apiVersion":"a/b/c","kind":"My_Kind","metadata":{"name":"a/b","generateName":"x%"}}})",
     {"spec.t.apiVersion: Invalid value: \"a/b/c\": unexpected GroupVersion string: a/b/c",
      "spec.t.kind: Invalid value: \"My_Kind\": may have mixed case, but should otherwise match: a DNS-1035 label must "
      "consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an "
      "alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is "
      "'[a-z]([-a-z0-9]*[a-z0-9])?')",
      "spec.t.metadata.name: Invalid value: \"a/b\": may not contain '/'",
      "spec.t.metadata.generateName: Invalid value: \"x%\": may not contain '%'"}},
    {"anyOf",
     R"({"type":"object","properties":{"d":{"type":"string","anyOf":[{"maxLength":5},{"enum":["long-value"]}]}}})",
     R"({"d":"foobarbaz"})",
     {"<nil>: Invalid value: \"\": \"spec.d\" must validate at least one schema (anyOf)",
      "spec.d: Too long: may not be longer than 5"}},
    {"anyOf satisfied",
     R"({"type":"object","properties":{"d":{"type":"string","anyOf":[{"maxLength":5},{"minLength":8}]}}})",
     R"({"d":"foobarbaz"})",
     {}},
    {"oneOf none",
     R"({"type":"object","oneOf":[{"required":["a"]},{"required":["b"]}],
       "properties":{"a":{"type":"string"},"b":{"type":"string"}}})",
     R"({})",
     {"<nil>: Invalid value: \"\": \"spec\" must validate one and only one schema (oneOf). Found none valid",
      "spec.a: Required value"}},
    {"oneOf two",
     R"({"type":"object","oneOf":[{"required":["a"]},{"required":["b"]}],
       "properties":{"a":{"type":"string"},"b":{"type":"string"}}})",
     R"({"a":"x","b":"y"})",
     {"<nil>: Invalid value: \"\": \"spec\" must validate one and only one schema (oneOf). Found 2 valid "
      "alternatives"}},
    {"allOf",
     R"({"type":"integer","allOf":[{"minimum":1},{"maximum":3}]})",
     R"(5)",
     {"spec: Invalid value: 5: spec in body should be less than or equal to 3",
      "<nil>: Invalid value: \"\": \"spec\" must validate all the schemas (allOf)"}},
    {"not",
     R"({"type":"string","not":{"enum":["forbidden"]}})",
     R"("forbidden")",
     {"<nil>: Invalid value: \"\": \"spec\" must not validate the schema (not)"}},
    {"null against an enum",
     R"({"type":"object","properties":{"e":{"type":"string","nullable":true,"enum":["a"]}}})",
     R"({"e":null})",
     {"spec.e: Unsupported value: \"null\": supported values: \"a\""}},
    {"min/maxProperties stop the object",
     R"({"type":"object","properties":{"o":{"type":"object","maxProperties":1,
       "required":["x"],"properties":{"a":{"type":"integer"},"b":{"type":"integer"}}}}})",
     R"({"o":{"a":"s","b":"t"}})",
     {"spec.o: Too many: 2: must have at most 1 items"}},
    {"every cause",
     R"({"type":"object","required":["a","b"],"properties":{"a":{"type":"string"},"b":{"type":"string"},
       "c":{"type":"integer","minimum":0}}})",
     R"({"c":-1})",
     {"spec.a: Required value", "spec.b: Required value",
      "spec.c: Invalid value: -1: spec.c in body should be greater than or equal to 0"}},
};

}  // namespace

TEST_CASE("validate: each construct gives the API server's message") {
  for (const ValidateCase& c : kCases) {
    CAPTURE(c.name);
    const auto schema = compiled(object_schema(Json::parse(c.spec_schema)));
    const Json object = {{"apiVersion", "x.dev/v1"}, {"kind", "X"}, {"spec", Json::parse(c.spec)}};
    CHECK(messages(schema.validate(object, nullptr)) == c.expected);
  }
}

TEST_CASE("validate: the root's apiVersion, kind and metadata need no schema") {
  const auto schema = compiled(Json::parse(R"({"type":"object","properties":{"metadata":{"type":"object",
      "properties":{"name":{"type":"string","maxLength":3}}}}})"));
  const Json ok = {
      {"apiVersion", "x.dev/v1"}, {"kind", "X"}, {"metadata", {{"name", "abc"}, {"labels", {{"a", "b"}}}}}};
  CHECK(schema.validate(ok, nullptr).empty());
  const Json long_name = {{"apiVersion", "x.dev/v1"}, {"kind", "X"}, {"metadata", {{"name", "abcd"}}}};
  CHECK(messages(schema.validate(long_name, nullptr)) ==
        std::vector<std::string>{"metadata.name: Too long: may not be longer than 3"});
}
