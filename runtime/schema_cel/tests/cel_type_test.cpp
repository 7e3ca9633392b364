// The CEL type of `self` from a schema node, and JSON values converted by it, as the API server
// declares and converts them (k8s.io/apiserver/pkg/cel/common: SchemaDeclType, UnstructuredToVal).
#include <doctest/doctest.h>

#include <limits>
#include <string>
#include <vector>

#include "decl_type.hpp"
#include "rr/cel/program.hpp"
#include "rr/schema_cel/cel_rules.hpp"

namespace {

using rr::Json;
using rr::cel::CelType;
using rr::schema::cel_type_of;
using rr::schema::cel_value_of;

// Evaluates `expr` with self typed and converted from `schema`; the value's debug form, or the
// compile error.
std::string eval(const char* schema_text, const char* value_text, const char* expr) {
  const Json schema = Json::parse(schema_text);
  rr::cel::CompileOptions options;
  options.declarations.emplace("self", cel_type_of(schema));
  const auto compiled = rr::cel::compile(expr, options);
  if (!compiled.ok()) return compiled.error_text;
  rr::cel::Activation vars;
  vars.set("self", cel_value_of(Json::parse(value_text), schema));
  return rr::cel::debug_string(compiled.program->evaluate(vars));
}

}  // namespace

TEST_CASE("schema types: scalars and string formats") {
  struct Case {
    const char* schema;
    const char* type;
  };
  const Case cases[] = {
      {R"({"type":"string"})", "string"},
      {R"({"type":"integer"})", "int"},
      {R"({"type":"number"})", "double"},
      {R"({"type":"boolean"})", "bool"},
      {R"({"type":"string","format":"byte"})", "bytes"},
      {R"({"type":"string","format":"duration"})", "google.protobuf.Duration"},
      {R"({"type":"string","format":"date"})", "google.protobuf.Timestamp"},
      {R"({"type":"string","format":"date-time"})", "google.protobuf.Timestamp"},
      {R"({"type":"string","format":"uuid"})", "string"},
      {R"({"x-kubernetes-int-or-string":true})", "dyn"},
      {R"({"type":"array","items":{"type":"string"}})", "list(string)"},
      {R"({"type":"object","additionalProperties":{"type":"integer"}})", "map(string, int)"},
      {R"({"x-kubernetes-preserve-unknown-fields":true})", "dyn"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.schema);
    CHECK(cel_type_of(Json::parse(c.schema)).to_string() == c.type);
  }
}

TEST_CASE("schema types: size bounds for the cost estimator") {
  // maxLength counts code points; the bound is bytes (4 a code point), as the API server's.
  CHECK(cel_type_of(Json::parse(R"({"type":"string","maxLength":10})")).max_size() == 40u);
  CHECK(cel_type_of(Json::parse(R"({"type":"string","format":"byte","maxLength":10})")).max_size() == 10u);
  CHECK(cel_type_of(Json::parse(R"({"type":"array","maxItems":5,"items":{"type":"integer"}})")).max_size() == 5u);
  CHECK(cel_type_of(Json::parse(R"({"type":"object","maxProperties":3,"additionalProperties":{"type":"string"}})"))
            .max_size() == 3u);
  // Unbounded: what fits in a 3 MiB request (an int item is at least "0" and a comma).
  CHECK(cel_type_of(Json::parse(R"({"type":"array","items":{"type":"integer"}})")).max_size() ==
        static_cast<std::uint64_t>((rr::schema::detail::kMaxRequestSizeBytes - 2) / 2));
  CHECK(cel_type_of(Json::parse(R"({"type":"string"})")).max_size() ==
        static_cast<std::uint64_t>(rr::schema::detail::kMaxRequestSizeBytes - 2));
}

TEST_CASE("schema types: objects declare their properties, escaped") {
  const char* schema = R"({"type":"object","properties":{
      "replicas":{"type":"integer"}, "x-y":{"type":"string"}, "a.b":{"type":"string"}, "c/d":{"type":"string"},
      "namespace":{"type":"string"}, "x__y":{"type":"string"}, "1st":{"type":"string"}, "sp ace":{"type":"string"},
      "untyped":{"x-kubernetes-preserve-unknown-fields":true}}})";
  const CelType t = cel_type_of(Json::parse(schema));
  REQUIRE(t.kind() == CelType::Kind::Object);
  const auto& fields = *t.fields();
  CHECK(fields.contains("replicas"));
  CHECK(fields.contains("x__dash__y"));
  CHECK(fields.contains("a__dot__b"));
  CHECK(fields.contains("c__slash__d"));
  CHECK(fields.contains("__namespace__"));
  CHECK(fields.contains("x__underscores__y"));
  // Names CEL cannot spell, and nodes Kubernetes does not expose, are not declared.
  CHECK(fields.size() == 6);
  const char* value = R"({"replicas":3,"x-y":"dash","a.b":"dot","c/d":"slash","namespace":"ns","x__y":"u"})";
  CHECK(eval(schema, value, "self.x__dash__y + self.a__dot__b + self.c__slash__d") == R"("dashdotslash")");
  CHECK(eval(schema, value, "self.__namespace__ + self.x__underscores__y") == R"("nsu")");
  // Selecting an undeclared field is a compile error, as with cel-go's checker.
  CHECK(eval(schema, value, "self.replica == 1").find("undefined field 'replica'") != std::string::npos);
  CHECK(eval(schema, value, "self.untyped == 1").find("undefined field 'untyped'") != std::string::npos);
}

TEST_CASE("schema values: numbers and formats follow the schema") {
  // A number field holding 3 is a double (so `+ 0.5` type-checks and runs).
  CHECK(eval(R"({"type":"number"})", "3", "self + 0.5") == "3.5");
  CHECK(eval(R"({"type":"integer"})", "3", "self + 1") == "4");
  CHECK(eval(R"({"type":"string","format":"byte"})", R"("aGVsbG8=")", "self == b'hello'") == "true");
  CHECK(eval(R"({"type":"string","format":"duration"})", R"("90m")", "self > duration('1h')") == "true");
  CHECK(eval(R"({"type":"string","format":"date"})", R"("2024-02-29")", "self.getDayOfMonth()") == "28");
  CHECK(eval(R"({"type":"string","format":"date-time"})", R"("2024-02-29T12:00:00Z")",
             "self > timestamp('2024-01-01T00:00:00Z')") == "true");
  CHECK(eval(R"({"x-kubernetes-int-or-string":true})", R"("50%")", "type(self) == string") == "true");
  CHECK(eval(R"({"x-kubernetes-int-or-string":true})", "5", "type(self) == int") == "true");
  // Nested: list items and map values converted by their own schemas.
  CHECK(eval(R"({"type":"array","items":{"type":"number"}})", "[1, 2]",
             "type(self.sum()) == double && self.sum() == 3.0") == "true");
  CHECK(eval(R"({"type":"object","additionalProperties":{"type":"string","format":"duration"}})",
             R"({"a":"1s","b":"2s"})", "self.a < self.b") == "true");
}

TEST_CASE("schema types: embedded resources and the resource root declare apiVersion, kind and metadata.name") {
  const char* schema = R"({"type":"object","x-kubernetes-embedded-resource":true,
      "properties":{"spec":{"type":"object","properties":{"x":{"type":"integer"}}}}})";
  const char* value = R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","labels":{"a":"b"}},"spec":{"x":1}})";
  CHECK(eval(schema, value, "self.kind + '/' + self.metadata.name") == R"("Pod/p")");
  // Only name and generateName of metadata are declared (the API server's WithTypeAndObjectMeta).
  CHECK(eval(schema, value, "has(self.metadata.labels)").find("undefined field 'labels'") != std::string::npos);
}

TEST_CASE("schema types: a schema of the wrong shape types as far as it can, and never throws") {
  // Such schemas are refused by the structural checks; typing and converting must not throw first.
  const char* shapes[] = {
      R"({"type":5})",
      R"({"type":"array","items":true})",
      R"({"type":"object","properties":{"a":7,"b":{"type":["string"]}},"required":[1]})",
      R"({"type":"string","maxLength":"10","format":3})",
      R"({"x-kubernetes-int-or-string":"yes","x-kubernetes-embedded-resource":1})",
      R"([])",
      R"({"type":"array","maxItems":1e300,"items":{"type":"string","maxLength":-1e300}})",
      R"({"type":"object","maxProperties":18446744073709551615,"additionalProperties":{"type":"integer"}})",
  };
  for (const char* shape : shapes) {
    CAPTURE(shape);
    const Json schema = Json::parse(shape);
    CHECK_NOTHROW(cel_type_of(schema));
    CHECK_NOTHROW(cel_value_of(Json::parse(R"({"a":[1,"x",{"b":null}]})"), schema));
    std::vector<rr::FieldError> errors;
    CHECK_NOTHROW(rr::schema::CelRules::compile(schema, "s", errors));
  }
  // Bounds beyond int64 saturate.
  CHECK(cel_type_of(Json::parse(R"({"type":"string","maxLength":1e300})")).max_size() ==
        static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max() / 4 * 4));
  CHECK(cel_type_of(Json::parse(R"({"type":"array","maxItems":18446744073709551615,"items":{"type":"string"}})"))
            .max_size() == static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()));
  CHECK(cel_type_of(Json::parse(R"({"type":"object","properties":{"a":7,"b":{"type":"string"}}})")).fields()->size() ==
        1);
}

TEST_CASE("schema types: a nested metadata is an object like any other, and `namespace` selects __namespace__") {
  // WithTypeAndObjectMeta narrows metadata only at a resource root (the CRD's root, embedded
  // resources); a plain object's `metadata` keeps what it declares. Its `namespace` property is
  // declared escaped, and found by its own name too (the API server's type provider since 1.31).
  const char* schema = R"({"type":"object","properties":{"ref":{"type":"object","properties":{
      "metadata":{"type":"object","properties":{"name":{"type":"string"},"namespace":{"type":"string"},
      "labels":{"type":"object","additionalProperties":{"type":"string"}}}}}}}})";
  const char* value = R"({"ref":{"metadata":{"name":"a","namespace":"ns","labels":{"app":"x"}}}})";
  CHECK(eval(schema, value, "self.ref.metadata.namespace + '/' + self.ref.metadata.name") == R"("ns/a")");
  CHECK(eval(schema, value, "self.ref.metadata.__namespace__ == self.ref.metadata.namespace") == "true");
  CHECK(eval(schema, value, "has(self.ref.metadata.namespace) && self.ref.metadata.labels.app == 'x'") == "true");
  CHECK(eval(schema, R"({"ref":{"metadata":{}}})", "has(self.ref.metadata.namespace)") == "false");
  CHECK(eval(schema, value, "self.ref.metadata.?namespace.orValue('') == 'ns'") == "true");
  // Other reserved words likewise; a field that is not declared stays an error.
  CHECK(eval(R"({"type":"object","properties":{"import":{"type":"integer"}}})", R"({"import":2})", "self.import") ==
        "2");
  CHECK(eval(schema, value, "self.ref.metadata.uid").find("undefined field 'uid'") != std::string::npos);
  // An embedded resource's metadata is still narrowed to name and generateName.
  const char* embedded = R"({"type":"object","x-kubernetes-embedded-resource":true,"properties":{}})";
  CHECK(eval(embedded, R"({"metadata":{"namespace":"ns"}})", "self.metadata.namespace")
            .find("undefined field 'namespace'") != std::string::npos);
}
