#include "backends/types/emit_defaults.hpp"

#include "backends/types/hook_signature.hpp"
#include "backends/types/missing_members.hpp"

namespace rrgen {
namespace {

// Own defaults first, then descend into what is present (a default can materialise a parent
// whose children have defaults of their own): the API server's top-down order.
constexpr std::string_view kApplyDefaults = R"gen($signature$ {
  $self$
  $own$
  $members$
})gen";
constexpr std::string_view kNothingToDefault = "$signature$ {}";

constexpr std::string_view kDefaultOptional = "if (!$member$) rr::set_default($member$, $json$);";
constexpr std::string_view kDefaultNullable = "if ($member$.is_absent()) rr::set_default($member$, $json$);";

constexpr std::string_view kIfPresent = R"gen(if ($present$) {
  $defaults$
})gen";
constexpr std::string_view kEach = R"gen(for (auto& $item$ : $range$) {
  $skip_null$
  $defaults$
})gen";
constexpr std::string_view kSkipNull = "if (!$x$.has_value()) continue;";

// Defaulting of the value `e` of type `t`: its struct's own, or each item's or map value's.
std::string descend(const TypeRef& t, const std::string& e, int depth) {
  Printer p("types.defaults");
  if (t.kind == TypeKind::Struct) {
    p.print(t.boxed ? "$value$->rr_apply_defaults();" : "$value$.rr_apply_defaults();", {{"value", e}});
  } else if (t.kind == TypeKind::Array || t.kind == TypeKind::Map) {
    const std::string x = "x" + std::to_string(depth);
    const bool nullable = t.element->nullable;
    p.print(kEach, {{"item", t.kind == TypeKind::Array ? x : "[k" + std::to_string(depth) + ", " + x + "]"},
                    {"range", e},
                    {"skip_null", nullable ? p.fill(kSkipNull, {{"x", x}}) : ""},
                    {"defaults", descend(*t.element, nullable ? "(*" + x + ")" : x, depth + 1)}});
  }
  return p.take_block();
}

// Only an absent member takes its default: a plain member (metadata, apiVersion, a Go value) is
// never absent, so its schema default (the server documents' `default: {}`) sets nothing.
bool has_own_default(const FieldDef& f) {
  return f.constraints && f.constraints->default_json && (f.presence == Presence::Optional || f.presence == Presence::Nullable);
}

}  // namespace

DefaultsEmitter::DefaultsEmitter(const Unit& u) : u_(u) {
  // Structs are in dependency order, so members are decided before their users.
  for (const auto& s : u_.structs) {
    bool needs = false;
    for (const auto& f : s->fields) needs = needs || has_own_default(f) || type_needs_defaults(f.type);
    needs_defaults_.insert({s.get(), needs});
  }
}

bool DefaultsEmitter::type_needs_defaults(const TypeRef& t) const {
  if (t.kind == TypeKind::Struct) {
    if (t.boxed) return true;  // a cycle: its struct may not be decided yet, so call through
    auto it = needs_defaults_.find(t.def);
    return it == needs_defaults_.end() ? t.def->unit != &u_ : it->second;  // other units: call through
  }
  return t.element && type_needs_defaults(*t.element);
}

void DefaultsEmitter::defaults_fn(Printer& p, const StructDef& s) {
  if (!needs_defaults_[&s]) {
    p.print(kNothingToDefault, {{"signature", hook_signature(s, Hook::ApplyDefaults, false)}});
    return;
  }
  Printer own("types.defaults"), members("types.defaults");
  for (const auto& f : s.fields) {
    if (!has_own_default(f)) continue;
    const TemplateVars vars = {{"member", "v." + f.cpp_name}, {"json", cpp_raw_literal(*f.constraints->default_json)}};
    if (f.presence == Presence::Optional) own.print(kDefaultOptional, vars);
    else if (f.presence == Presence::Nullable) own.print(kDefaultNullable, vars);
  }
  for (const auto& f : s.fields) {
    if (!type_needs_defaults(f.type)) continue;
    const std::string m = "v." + f.cpp_name;
    const bool wrapped = f.presence == Presence::Optional || f.presence == Presence::Nullable;
    const std::string inner = descend(f.type, wrapped ? "(*" + m + ")" : m, 0);
    if (inner.empty()) continue;
    // An absent required member is not materialised by its children's defaults (API server).
    if (missing_bit(s, f)) members.print(kIfPresent, {{"present", "!" + absent_expr(s, f)}, {"defaults", inner}});
    else if (!wrapped) members.line(inner);  // verbatim: already filled
    else members.print(kIfPresent, {{"present", f.presence == Presence::Optional ? m : m + ".has_value()"}, {"defaults", inner}});
  }
  p.print(kApplyDefaults, {{"signature", hook_signature(s, Hook::ApplyDefaults)},
                           {"self", hook_self(s, Hook::ApplyDefaults)},
                           {"own", own.take_block()},
                           {"members", members.take_block()}});
}

}  // namespace rrgen
