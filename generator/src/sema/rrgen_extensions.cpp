#include "sema/rrgen_extensions.hpp"

#include <string>

namespace rrgen {
namespace {

void misplaced(Diagnostics& diags, const Schema& s, const std::string& what) {
  diags.error(s.rrgen.location, "rrgen-extension", what);
}

// Below a definition's direct properties no extension means anything.
void check_nested(const Schema& s, Diagnostics& diags) {
  if (s.rrgen.present) misplaced(diags, s, "x-rrgen-* extensions apply to a definition and its direct properties only");
  for (const auto& [name, p] : s.properties) check_nested(*p, diags);
  if (s.items) check_nested(*s.items, diags);
  if (s.additional_properties) check_nested(*s.additional_properties, diags);
}

}  // namespace

void check_rrgen_extensions(const OpenApiDefinition& def, Diagnostics& diags) {
  const Schema& s = *def.schema;
  const RrgenExtensions& x = s.rrgen;
  if (!x.cpp_name.empty() || x.go_pointer || x.json_text || x.protobuf)
    misplaced(diags, s,
              "x-rrgen-cpp-name, x-rrgen-go-pointer, x-rrgen-json-text and x-rrgen-protobuf apply to properties, not "
              "to definition '" +
                  def.name + "'");
  if ((x.go_json || !x.unknown_fields.empty()) && x.cpp_type.empty())
    misplaced(diags, s, "x-rrgen-go-json and x-rrgen-unknown-fields need x-rrgen-cpp-type: they describe a struct declared by hand");
  for (const auto& [name, p] : s.properties) {
    const RrgenExtensions& px = p->rrgen;
    if (!px.cpp_type.empty() || px.go_json || !px.unknown_fields.empty())
      misplaced(diags, *p, "x-rrgen-cpp-type, x-rrgen-go-json and x-rrgen-unknown-fields apply to definitions, not to property '" + name + "'");
    if ((px.go_pointer || px.json_text) && !x.go_json)
      misplaced(diags, *p, "x-rrgen-go-pointer and x-rrgen-json-text apply to members of an x-rrgen-go-json struct");
    if (px.json_text && (px.go_pointer || s.is_required(name)))
      misplaced(diags, *p, "x-rrgen-json-text needs an omitempty member (not required, not a pointer): empty text means absent");
    for (const auto& [n, q] : p->properties) check_nested(*q, diags);
    if (p->items) check_nested(*p->items, diags);
    if (p->additional_properties) check_nested(*p->additional_properties, diags);
  }
}

}  // namespace rrgen
