// compile(): schemas the API server refuses in a CRD, each with its path and message.
#include <doctest/doctest.h>

#include "support.hpp"

using rr::Json;
using schema_test::rejections;

namespace {

struct Rejection {
  const char* name;
  const char* schema;
  std::vector<std::string> expected;
};

const Rejection kRejections[] = {
    {"field without type",
     R"({"type":"object","properties":{"spec":{"properties":{"a":{"type":"string"}}}}})",
     {"spec.validation.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object "
      "fields"}},
    {"root without type",
     R"({"properties":{"spec":{"type":"object"}}})",
     {"spec.validation.openAPIV3Schema.type: Required value: must not be empty at the root"}},
    {"items without type",
     R"({"type":"object","properties":{"l":{"type":"array","items":{}}}})",
     {"spec.validation.openAPIV3Schema.properties[l].items.type: Required value: must not be empty for specified "
      "array items"}},
    {"array without items",
     R"({"type":"object","properties":{"l":{"type":"array"}}})",
     {"spec.validation.openAPIV3Schema.properties[l].items: Required value: must be specified"}},
    {"items as a list",
     R"({"type":"object","properties":{"l":{"type":"array","items":[{"type":"string"}]}}})",
     {"spec.validation.openAPIV3Schema.properties[l].items: Forbidden: items must be a schema object and not an "
      "array"}},
    {"additionalProperties with properties",
     R"({"type":"object","properties":{"m":{"type":"object",
       "properties":{"a":{"type":"string"}},"additionalProperties":{"type":"string"}}}})",
     {"spec.validation.openAPIV3Schema.properties[m].additionalProperties: Forbidden: additionalProperties and "
      "properties are mutual exclusive"}},
    {"uniqueItems",
     R"({"type":"object","properties":{"l":{"type":"array","uniqueItems":true,"items":{"type":"string"}}}})",
     {"spec.validation.openAPIV3Schema.properties[l].uniqueItems: Forbidden: uniqueItems cannot be set to true since "
      "the runtime complexity becomes quadratic"}},
    {"type in a junctor",
     R"({"type":"object","properties":{"a":{"type":"string","anyOf":[{"type":"string"}]}}})",
     {"spec.validation.openAPIV3Schema.properties[a].anyOf[0].type: Forbidden: must be empty to be structural"}},
    {"default in a junctor",
     R"({"type":"object","properties":{"a":{"type":"string","allOf":[{"default":"x"}]}}})",
     {"spec.validation.openAPIV3Schema.properties[a].allOf[0].default: Forbidden: must be undefined to be structural"}},
    {"nullable in not",
     R"({"type":"object","properties":{"a":{"type":"string","not":{"nullable":true}}}})",
     {"spec.validation.openAPIV3Schema.properties[a].not.nullable: Forbidden: must be false to be structural"}},
    {"metadata beyond name",
     R"({"type":"object","properties":{"metadata":{"type":"object",
       "properties":{"labels":{"type":"object"}}}}})",
     {"spec.validation.openAPIV3Schema.properties[metadata]: Forbidden: must not specify anything other than name and "
      "generateName, but metadata is implicitly specified"}},
    {"list map without keys",
     R"({"type":"object","properties":{"l":{"type":"array","x-kubernetes-list-type":"map",
       "items":{"type":"object","properties":{"n":{"type":"string"}}}}}})",
     {"spec.validation.openAPIV3Schema.properties[l].x-kubernetes-list-map-keys: Required value: must not be empty if "
      "x-kubernetes-list-type is map"}},
    {"list map key neither required nor defaulted",
     R"({"type":"object","properties":{"l":{"type":"array",
       "x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["n"],
       "items":{"type":"object","properties":{"n":{"type":"string"}}}}}})",
     {"spec.validation.openAPIV3Schema.properties[l].items.properties[n].default: Required value: this property is in "
      "x-kubernetes-list-map-keys, so it must have a default or be a required property"}},
    {"default that does not validate",
     R"({"type":"object","properties":{"r":{"type":"integer","maximum":5,"default":7}}})",
     // kube-openapi names the default itself "", hence " in body" after the colon.
     {"spec.validation.openAPIV3Schema.properties[r].default: Invalid value: 7:  in body should be less than or equal "
      "to 5"}},
    {"default that is pruned",
     R"({"type":"object","properties":{"o":{"type":"object",
       "properties":{"a":{"type":"string"}},"default":{"a":"x","b":"y"}}}})",
     {"spec.validation.openAPIV3Schema.properties[o].default: Invalid value: map[string]interface {}{\"a\":\"x\", "
      "\"b\":\"y\"}: must not have unknown fields"}},
    {"int-or-string with preserve-unknown-fields",
     R"({"type":"object","properties":{"p":{"x-kubernetes-int-or-string":true,
       "x-kubernetes-preserve-unknown-fields":true}}})",
     {"spec.validation.openAPIV3Schema.properties[p].x-kubernetes-preserve-unknown-fields: Invalid value: true: must "
      "be false if x-kubernetes-int-or-string is true"}},
    {"pattern that RE2 refuses",
     R"j({"type":"object","properties":{"s":{"type":"string","pattern":"(?=a)"}}})j",
     {"spec.validation.openAPIV3Schema.properties[s].pattern: Invalid value: \"(?=a)\": must be a valid regular "
      "expression, but isn't: invalid perl operator: (?="}},
    {"list type on a string",
     R"({"type":"object","properties":{"s":{"type":"string","x-kubernetes-list-type":"set"}}})",
     {"spec.validation.openAPIV3Schema.properties[s].type: Invalid value: \"string\": must be array if "
      "x-kubernetes-list-type is specified"}},
    {"map type value",
     R"({"type":"object","properties":{"m":{"type":"object","x-kubernetes-map-type":"loose"}}})",
     {"spec.validation.openAPIV3Schema.properties[m].x-kubernetes-map-type: Unsupported value: \"loose\": supported "
      "values: \"atomic\", \"granular\""}},
    {"preserve-unknown-fields false",
     R"({"type":"object","properties":{"o":{"type":"object",
       "x-kubernetes-preserve-unknown-fields":false}}})",
     {"spec.validation.openAPIV3Schema.properties[o].x-kubernetes-preserve-unknown-fields: Invalid value: false: must "
      "be true or undefined"}},
    {"$ref",
     R"({"type":"object","properties":{"o":{"type":"object","$ref":"#/definitions/x"}}})",
     {"spec.validation.openAPIV3Schema.properties[o].$ref: Forbidden: $ref is not supported"}},
    {"completeness",
     R"({"type":"object","properties":{"a":{"type":"string"}},"anyOf":[{"required":["b"],
       "properties":{"b":{"minLength":1}}}]})",
     {"spec.validation.openAPIV3Schema.properties[b]: Required value: because it is defined in "
      "spec.validation.openAPIV3Schema.anyOf[0].properties[b]"}},
    {"description in a junctor",
     R"({"type":"object","properties":{"a":{"type":"string",
       "oneOf":[{"description":"why","minLength":1}]}}})",
     {"spec.validation.openAPIV3Schema.properties[a].oneOf[0].description: Forbidden: must be empty to be structural"}},
    {"structural findings sorted, then the OpenAPI schema's",
     R"({"type":"object","properties":{
       "z":{"properties":{}},"a":{"type":"array"},"u":{"type":"array","uniqueItems":true,"items":{"type":"string"}}}})",
     {"spec.validation.openAPIV3Schema.properties[a].items: Required value: must be specified",
      "spec.validation.openAPIV3Schema.properties[z].type: Required value: must not be empty for specified object "
      "fields",
      "spec.validation.openAPIV3Schema.properties[u].uniqueItems: Forbidden: uniqueItems cannot be set to true since "
      "the runtime complexity becomes quadratic"}},
};

}  // namespace

TEST_CASE("compile: non-structural and refused schemas") {
  for (const Rejection& r : kRejections) {
    CAPTURE(r.name);
    CHECK(rejections(Json::parse(r.schema)) == r.expected);
  }
}

TEST_CASE("compile: the int-or-string idiom may name its types in anyOf") {
  const Json s = Json::parse(R"({"type":"object","properties":{"p":{"x-kubernetes-int-or-string":true,
      "anyOf":[{"type":"integer"},{"type":"string"}],"pattern":"^[0-9]+%?$"}}})");
  const auto schema = schema_test::compiled(s);
  CHECK(schema.validate(Json{{"p", 80}}, nullptr).empty());
  CHECK(schema.validate(Json{{"p", "50%"}}, nullptr).empty());
  CHECK(schema_test::messages(schema.validate(Json{{"p", "x"}}, nullptr)) ==
        std::vector<std::string>{"p: Invalid value: \"x\": p in body should match '^[0-9]+%?$'"});
}

TEST_CASE("compile: a schema path of the caller's choosing") {
  rr::schema::CompileOptions options;
  options.schema_path = "spec.versions[1].schema.openAPIV3Schema";
  auto result = rr::schema::Schema::compile(Json::parse(R"({"properties":{}})"), options);
  REQUIRE(std::holds_alternative<std::vector<rr::FieldError>>(result));
  CHECK(std::get<std::vector<rr::FieldError>>(result).front().path == "spec.versions[1].schema.openAPIV3Schema.type");
}

TEST_CASE("compile: the NodeChecks are made, and their errors reported, only for an otherwise valid schema") {
  int made = 0;
  rr::schema::CompileOptions options;
  options.node_checks = [&made](const Json&, const std::string& at, const rr::schema::NodeContext&,
                                std::vector<rr::FieldError>& errors) {
    ++made;
    errors.push_back(rr::FieldError{at, rr::FieldErrorType::Invalid, at + ": Invalid value: \"\": does not compile"});
    return std::unique_ptr<rr::schema::NodeCheck>();
  };
  const Json clean = Json::parse(R"({"type":"object","x-kubernetes-validations":[{"rule":"x"}]})");
  auto result = rr::schema::Schema::compile(clean, options);
  REQUIRE(std::holds_alternative<std::vector<rr::FieldError>>(result));
  CHECK(schema_test::messages(std::get<std::vector<rr::FieldError>>(result)) ==
        std::vector<std::string>{"spec.validation.openAPIV3Schema: Invalid value: \"\": does not compile"});
  CHECK(made == 1);
  const Json broken = Json::parse(R"({"type":"object","x-kubernetes-validations":[{"rule":"x"}],
      "properties":{"a":{"properties":{}}}})");
  result = rr::schema::Schema::compile(broken, options);
  REQUIRE(std::holds_alternative<std::vector<rr::FieldError>>(result));
  CHECK(std::get<std::vector<rr::FieldError>>(result).size() == 1);  // the structural finding alone
  CHECK(made == 1);
}
