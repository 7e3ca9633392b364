#include "backends/types/emit_protobuf.hpp"

#include <map>
#include <string>
#include <variant>

#include "backends/types/hook_signature.hpp"
#include "backends/types/missing_members.hpp"

namespace rrgen {
namespace {

constexpr std::string_view kEncodePb = R"gen($signature$ {
  $self$
  $members$
  rr::pb_put_unknown(w, v.$unknown$);
})gen";
// Go writes an embedded struct always, even empty.
constexpr std::string_view kEncodeEmbedded = R"gen({
  const std::size_t $mark$ = w.begin_message($number$);
  $members$
  w.end_message($mark$);
})gen";

constexpr std::string_view kDecodePb = R"gen($signature$ {
  $self$
  $type_meta$
  $seen$
  while (r.next()) {
    switch (r.field()) {
      $cases$
      default: rr::pb_keep_unknown(r, v.$unknown$);
    }
  }
  $missing$
})gen";
// Unknown fields inside an embedded struct's message are dropped: they have no place to go back.
constexpr std::string_view kDecodeEmbedded = R"gen(case $number$: {
  rr::PbReader $reader$ = $outer$.read_message();
  while ($reader$.next()) {
    switch ($reader$.field()) {
      $cases$
      default: $reader$.skip();
    }
  }
  break;
})gen";

// The members of a message by field number: a member, or an embedded struct's message.
struct Group {
  std::map<int, std::variant<const FieldDef*, Group>> fields;
};

Group group_of(const StructDef& s) {
  Group top;
  for (const auto& f : s.fields) {
    if (!f.pb) continue;  // apiVersion and kind: the envelope's
    Group* g = &top;
    for (const int n : f.pb->embedded) g = &std::get<Group>(g->fields.try_emplace(n, Group{}).first->second);
    g->fields.emplace(f.pb->number, &f);
  }
  return top;
}

std::string as_arg(const FieldDef& f) {
  switch (f.pb->as) {
    case PbAs::MicroTime: return ", rr::PbAs::MicroTime";
    case PbAs::JsonMessage: return ", rr::PbAs::JsonMessage";
    case PbAs::ItemsMessage: return ", rr::PbAs::ItemsMessage";
    case PbAs::EmptyMessage: return ", rr::PbAs::EmptyMessage";
    case PbAs::Plain: break;
  }
  return "";
}

// One member. Go writes a non-pointer member always (an empty string too) and a pointer when set;
// a Go struct's Time and JSON text are empty when absent, and written only when set, as the
// pointers they mostly are (ObjectMeta's deletionTimestamp, ManagedFieldsEntry's fieldsV1).
// A required member the JSON lacked stays out of the message too (rr::MissingMembers).
std::string put_member(const StructDef& s, const FieldDef& f, int number) {
  const std::string put = "rr::pb_put(w, " + std::to_string(number) + ", v." + f.cpp_name + as_arg(f) + ");";
  if (missing_bit(s, f)) return "if (!" + absent_expr(s, f) + ") " + put;
  if (f.presence == Presence::Go && f.type.kind == TypeKind::Time)
    return "if (!v." + f.cpp_name + ".str().empty()) " + put;
  if (f.presence == Presence::Go && f.type.kind == TypeKind::JsonText)
    return "if (!v." + f.cpp_name + ".empty()) " + put;
  return put;
}

void encode_group(Printer& p, const StructDef& s, const Group& g, int depth) {
  for (const auto& [number, entry] : g.fields) {
    if (const auto* f = std::get_if<const FieldDef*>(&entry)) {
      p.line(put_member(s, **f, number));
      continue;
    }
    Printer inner("types.protobuf");
    encode_group(inner, s, std::get<Group>(entry), depth + 1);
    p.print(
        kEncodeEmbedded,
        {{"mark", "m" + std::to_string(depth)}, {"number", std::to_string(number)}, {"members", inner.take_block()}});
  }
}

// A tracked required member notes that it was seen (has_<member>, as the JSON decoder does).
void decode_cases(Printer& p, const StructDef& s, const Group& g, const std::string& reader, int depth) {
  for (const auto& [number, entry] : g.fields) {
    if (const auto* f = std::get_if<const FieldDef*>(&entry)) {
      const std::string seen = missing_bit(s, **f) ? " has_" + (*f)->cpp_name + " = true;" : "";
      p.line("case " + std::to_string(number) + ": rr::pb_get(" + reader + ", v." + (*f)->cpp_name + as_arg(**f) +
             ");" + seen + " break;");
      continue;
    }
    const std::string inner_reader = "e" + std::to_string(depth);
    Printer inner("types.protobuf");
    decode_cases(inner, s, std::get<Group>(entry), inner_reader, depth + 1);
    p.print(kDecodeEmbedded, {{"number", std::to_string(number)},
                              {"reader", inner_reader},
                              {"outer", reader},
                              {"cases", inner.take_block()}});
  }
}

}  // namespace

void emit_pb_codec(Printer& p, const StructDef& s) {
  const Group g = group_of(s);
  Printer members("types.protobuf"), cases("types.protobuf");
  encode_group(members, s, g, 1);
  decode_cases(cases, s, g, "r", 1);
  p.print(kEncodePb, {{"signature", hook_signature(s, Hook::EncodePb)},
                      {"self", hook_self(s, Hook::EncodePb)},
                      {"members", members.take_block()},
                      {"unknown", s.unknown_member}});
  // apiVersion and kind have no field (the envelope carries them): a kind nested in another (a
  // StatefulSet's volume claim templates) has none, as Go's TypeMeta; decode_envelope_object
  // sets a whole object's from its envelope.
  Printer type_meta("types.protobuf"), seen("types.protobuf"), missing("types.protobuf");
  for (const auto& f : s.fields) {
    if (is_type_meta(f)) type_meta.print("v.$member$.clear();", {{"member", f.cpp_name}});
    if (missing_bit(s, f)) seen.print("bool has_$member$ = false;", {{"member", f.cpp_name}});
  }
  print_missing(missing, s, false);
  p.print(kDecodePb, {{"signature", hook_signature(s, Hook::DecodePb)},
                      {"self", hook_self(s, Hook::DecodePb)},
                      {"type_meta", type_meta.take_block()},
                      {"seen", seen.take_block()},
                      {"cases", cases.take_block()},
                      {"missing", missing.take_block()},
                      {"unknown", s.unknown_member}});
}

}  // namespace rrgen
