// `rrgen types --codec-only`: the x-rrgen-* extensions (docs/runtime-schemas.md) through sema into
// the model, and the types backend's codec as free functions for hand-declared structs.
#include <doctest/doctest.h>

#include <string>

#include "backends/types/emit_types.hpp"
#include "load/inputs.hpp"
#include "sema/sema.hpp"

using namespace rrgen;

namespace {

// Five lines: the locations the tests expect count them.
const std::string kPreamble = R"(openapi: 3.0.0
info: {title: t, version: v1}
paths: {}
components:
  schemas:
)";

const std::string kShapes = kPreamble + R"(    demo.Meta:
      type: object
      required: [id]
      properties:
        id: {type: string}
        name: {type: string}
        count: {type: integer, format: int64}
        flag: {type: boolean}
        at: {type: string, format: date-time}
        tags: {type: array, items: {type: string}, x-kubernetes-list-type: set}
        limit: {type: integer, format: int64, x-rrgen-go-pointer: true}
        raw: {type: object, x-rrgen-json-text: true, x-rrgen-cpp-name: raw_json}
        owner: {$ref: "#/components/schemas/demo.Owner", x-rrgen-go-pointer: true}
      x-rrgen-cpp-type: hand::Meta
      x-rrgen-go-json: true
    demo.Owner:
      type: object
      required: [phase]
      properties:
        phase: {type: string, enum: [Up, Down]}
        note: {type: string, maxLength: 3}
      x-rrgen-cpp-type: hand::Owner
    demo.Wrapper:
      type: object
      properties:
        kind: {type: string}
      x-rrgen-cpp-type: hand::Wrapper
      x-rrgen-unknown-fields: rest
    demo.Plain:
      type: object
      properties:
        meta: {$ref: "#/components/schemas/demo.Meta"}
)";

struct Run {
  SourceSet sources;
  InputSet inputs;
  Diagnostics diags;
  Model model;
  std::string text;  // every output file, with its path
};

std::unique_ptr<Run> run(const std::string& doc, const std::string& codec_only) {
  auto r = std::make_unique<Run>();
  const std::string* name = r->sources.add("memory/shapes.yaml", doc);
  bool recognised = false;
  for (const auto& d : load_yaml(name, r->sources.content(name), r->diags)) read_document(d, r->inputs, r->diags, recognised);
  if (r->diags.has_errors()) return r;
  r->model = build_model(r->inputs, SemaOptions{"", codec_only}, r->diags);
  if (r->diags.has_errors()) return r;
  for (const auto& f : emit_types(r->model, TypesOptions{"test"}).files) r->text += "== " + f.path + "\n" + f.content;
  return r;
}

bool has(const std::string& text, const std::string& piece) { return text.find(piece) != std::string::npos; }

std::string messages(const Diagnostics& d) {
  std::string out;
  for (const auto& x : d.all()) out += format(x) + "\n";
  return out;
}

}  // namespace

TEST_CASE("codec-only: one source of free functions for the hand-declared structs") {
  const auto r = run(kShapes, "hand/shapes.hpp");
  INFO(messages(r->diags));
  REQUIRE_FALSE(r->diags.has_errors());
  REQUIRE(r->model.units.size() == 1);  // demo.Plain is no hand-declared struct: no unit
  const Unit& u = *r->model.units[0];
  CHECK(u.ns == "hand");
  CHECK(u.path == "shapes_codec");
  CHECK(u.declared_in == "hand/shapes.hpp");
  REQUIRE(u.structs.size() == 3);
  const StructDef& meta = *u.structs[0];
  CHECK(meta.qualified == "::hand::Meta");
  CHECK(meta.go_struct);
  CHECK(meta.fields[0].presence == Presence::Go);  // required: always written
  CHECK_FALSE(meta.fields[0].omit_empty);
  CHECK(meta.fields[1].omit_empty);
  CHECK(meta.fields[6].presence == Presence::Optional);  // a Go pointer
  CHECK(meta.fields[7].type.kind == TypeKind::JsonText);
  CHECK(meta.fields[7].cpp_name == "raw_json");
  CHECK(meta.fields[8].type.external == "hand::Owner");  // references map onto the hand-declared type
  CHECK(u.structs[2]->unknown_member == "rest");

  const std::string& t = r->text;
  CHECK(has(t, "== shapes_codec.cpp\n"));
  CHECK_FALSE(has(t, ".hpp\n"));  // the header is the hand-written one
  CHECK(has(t, "#include \"hand/shapes.hpp\"\n"));
  CHECK(has(t, "namespace hand {\n"));
  CHECK(has(t, "bool Meta::operator==(const Meta&) const = default;\n"));  // a Go struct: in order, sets too
  CHECK(has(t, "void decode(rr::JsonReader& r, Meta& v) {\n  if (r.try_null()) { v = {}; return; }"));
  CHECK(has(t, "if (k == \"id\") { if (r.try_null()) v.id = {}; else decode(r, v.id); }"));
  CHECK(has(t, "else if (k == \"raw\") { v.raw_json.clear(); if (!r.try_null()) r.skip(v.raw_json); }"));
  CHECK(has(t, "else if (k == \"limit\") { decode(r, v.limit); }"));
  CHECK(has(t, "void encode(rr::JsonWriter& w, const Meta& v) {\n  w.begin_object();\n  w.key_literal(\"id\"); encode(w, v.id);\n"));
  CHECK(has(t, "if (!v.name.empty()) { w.key_literal(\"name\"); encode(w, v.name); }"));
  CHECK(has(t, "if (v.count != 0) { w.key_literal(\"count\"); encode(w, v.count); }"));
  CHECK(has(t, "if (v.flag) { w.key_literal(\"flag\"); encode(w, v.flag); }"));
  CHECK(has(t, "if (!v.at.str().empty()) { w.key_literal(\"at\"); encode(w, v.at); }"));
  CHECK(has(t, "if (!v.raw_json.empty()) { w.key_literal(\"raw\"); w.raw(v.raw_json); }"));
  CHECK(has(t, "void validate(rr::Validator&, const Meta&) {}\n"));  // Go structs: the server checks them in Go
  CHECK(has(t, "void apply_defaults(Meta&) {}\n"));
  CHECK(has(t, "encode(w, *static_cast<const Meta*>(p));"));
  // A schema shape: required members fail when missing; a string enum stays a std::string.
  CHECK(has(t, "if (!has_phase) r.fail_missing(\"phase\");"));
  CHECK(has(t, "void validate(rr::Validator& c, const Owner& v) {\n"));
  CHECK(has(t, "static constexpr std::string_view kAllowed[] = {\"Up\", \"Down\"};\n      c.enum_string(v.phase, kAllowed);"));
  CHECK(has(t, "c.max_length((*v.note), 3);"));
  CHECK(has(t, "else { r.capture_unknown(v.rest); }"));
  CHECK(has(t, "w.unknown(v.rest);"));
}

TEST_CASE("codec-only definitions are the runtime's types in an ordinary run") {
  const auto r = run(kShapes, "");
  INFO(messages(r->diags));
  REQUIRE_FALSE(r->diags.has_errors());
  REQUIRE(r->model.units.size() == 1);  // only demo.Plain
  const StructDef& plain = *r->model.units[0]->root;
  CHECK(plain.name == "Plain");
  CHECK(plain.fields[0].type.kind == TypeKind::External);
  CHECK(plain.fields[0].type.external == "hand::Meta");
  CHECK(has(r->text, "void Plain::rr_decode(rr::JsonReader& r) {\n  auto& v = *this;\n"));
}

TEST_CASE("x-rrgen-* extensions: misspelt ones and bad values are load errors") {
  const auto r = run(kPreamble + R"(    demo.A:
      type: object
      properties:
        p: {type: string, x-rrgen-cpp-name: "not-an-identifier"}
      x-rrgen-colour: blue
      x-rrgen-cpp-type: "two words"
      x-rrgen-go-json: maybe
)", "x/y.hpp");
  const std::string m = messages(r->diags);
  CHECK(has(m, "10:7: error: unknown extension 'x-rrgen-colour' (docs/runtime-schemas.md lists them) [rrgen-extension]"));
  CHECK(has(m, "11:25: error: 'x-rrgen-cpp-type' must be a qualified C++ name (ns::Name), found"));
  CHECK(has(m, "9:45: error: 'x-rrgen-cpp-name' must be a C++ identifier, found"));
  CHECK(has(m, "12:24: error: 'x-rrgen-go-json' must be a boolean, found"));
}

TEST_CASE("x-rrgen-* extensions where they mean nothing are errors") {
  const auto r = run(kPreamble + R"(    demo.A:
      type: object
      properties:
        p: {type: string, x-rrgen-go-pointer: true}
        q: {type: object, x-rrgen-go-json: true, properties: {z: {type: string, x-rrgen-cpp-name: zz}}}
      x-rrgen-cpp-name: a
    demo.B:
      type: object
      required: [t]
      properties:
        t: {type: object, x-rrgen-json-text: true}
      x-rrgen-unknown-fields: rest
)", "");
  const std::string m = messages(r->diags);
  INFO(m);
  CHECK(has(m, "9:27: error: x-rrgen-go-pointer and x-rrgen-json-text apply to members of an x-rrgen-go-json struct"));
  CHECK(has(m, "10:27: error: x-rrgen-cpp-type, x-rrgen-go-json and x-rrgen-unknown-fields apply to definitions, not to property 'q'"));
  CHECK(has(m, "10:81: error: x-rrgen-* extensions apply to a definition and its direct properties only"));
  CHECK(has(m, "11:7: error: x-rrgen-cpp-name, x-rrgen-go-pointer, x-rrgen-json-text and x-rrgen-protobuf apply to "
               "properties, not to definition 'demo.A'"));
  CHECK(has(m, "16:27: error: x-rrgen-json-text needs an omitempty member (not required, not a pointer): empty text means absent"));
  CHECK(has(m, "17:7: error: x-rrgen-go-json and x-rrgen-unknown-fields need x-rrgen-cpp-type"));
}

TEST_CASE("codec-only: what the hand-declared structs refer to must be declared too") {
  const auto r = run(kPreamble + R"(    demo.A:
      type: object
      properties:
        inline: {type: object, properties: {x: {type: string}}}
        other: {$ref: "#/components/schemas/demo.B"}
        sub: {type: object, properties: {y: {type: string}}, x-kubernetes-preserve-unknown-fields: true}
      x-rrgen-cpp-type: x::A
      x-rrgen-go-json: true
    demo.B:
      type: object
      properties: {z: {type: string}}
)", "x/y.hpp");
  const std::string m = messages(r->diags);
  CHECK(has(m, "10:16: error: $ref to 'demo.B', which has no x-rrgen-cpp-type"));
  CHECK(has(m, "9:17: error: an object with properties inside a hand-declared struct needs a definition of its own"));
  CHECK(has(m, "member 'inline' of an x-rrgen-go-json struct is omitempty, but rrgen cannot tell when a value of its type is empty"));
}
