#include "backends/types/emit_validation.hpp"

#include <fmt/format.h>

#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "backends/types/hook_signature.hpp"
#include "backends/types/list_map_keys.hpp"
#include "backends/types/missing_members.hpp"
#include "support/naming.hpp"

namespace rrgen {
namespace {

// ---- templates: what rr_validate() reads like ------------------------------------------------

constexpr std::string_view kValidateFn = R"gen($signature$ {
  $self$
  $checks$
})gen";
constexpr std::string_view kValidateNothing = "$signature$ {}";

// One member's checks, at its JSON path.
constexpr std::string_view kMember = R"gen({
  auto at = c.field($json$);
  $checks$
})gen";
constexpr std::string_view kPresentMember = R"gen(if ($present$) {
  auto at = c.field($json$);
  $checks$
})gen";
constexpr std::string_view kRequiredMember = R"gen(if ($member$) {
  auto at = c.field($json$);
  $checks$
} else {
  c.required($json$);
})gen";
constexpr std::string_view kRequiredOnly = R"gen(if (!$member$) {
  c.required($json$);
})gen";
// A required member the decoded JSON lacked (rr::MissingMembers): reported, its value unchecked.
constexpr std::string_view kAbsentOr = R"gen(if ($absent$) {
  c.required($json$);
} else {
  auto at = c.field($json$);
  $checks$
})gen";
constexpr std::string_view kAbsent = "if ($absent$) c.required($json$);";
constexpr std::string_view kRequiredNullable = "if ($member$.is_absent()) c.required($json$);";
constexpr std::string_view kRequiredUndeclared = "if (!v.$unknown$.find($json$)) c.required($json$);";

// minProperties/maxProperties of the struct itself: declared members present plus unknown ones.
constexpr std::string_view kMemberCount = R"gen({
  const std::size_t members = $count$;
  $bounds$
})gen";

// A CRD's own rules for metadata.name and metadata.generateName.
constexpr std::string_view kMetadata = R"gen(if (!v.metadata.$member$.empty()) {
  auto at = c.field("metadata");
  auto at_name = c.field($json$);
  $checks$
})gen";

// c.enum_value() over the canonical JSON of the allowed values, or c.enum_string() over strings.
constexpr std::string_view kEnum = R"gen({
  static constexpr std::string_view kAllowed[] = {$allowed$};
  c.$call$($value$, kAllowed);
})gen";
constexpr std::string_view kPattern = R"gen({
  static const rr::Pattern pattern($regex$);
  c.pattern($value$, pattern);
})gen";
constexpr std::string_view kUnique = R"gen({
  std::vector<std::string> $keys$;
  $keys$.reserve($list$.size());
  for (const auto& x : $list$) $keys$.push_back($identity$);
  c.unique($keys$);
})gen";
constexpr std::string_view kEachItem = R"gen(for (std::size_t $i$ = 0; $i$ < $list$.size(); ++$i$) {
  auto at$depth$ = c.index($i$);
  $checks$
})gen";
constexpr std::string_view kEachValue = R"gen(for (const auto& [$k$, $x$] : $map$) {
  auto at$depth$ = c.key($k$);
  $checks$
})gen";
constexpr std::string_view kIfNotNull = R"gen(if ($value$.has_value()) {
  $checks$
})gen";

// ---- what to check -------------------------------------------------------------------------

bool type_uses_pattern(const TypeRef& t) {
  if (t.constraints && t.constraints->pattern && t.kind != TypeKind::IntOrString) return true;
  return t.element && type_uses_pattern(*t.element);
}

std::string num(double d) {
  std::string s = fmt::format("{}", d);
  if (s.find_first_of(".en") == std::string::npos) s += ".0";
  return s;
}

std::optional<std::string> format_name(const std::string& f) {
  static const std::pair<const char*, const char*> table[] = {
      {"date", "Date"}, {"int32", "Int32"}, {"ipv4", "IPv4"}, {"ipv6", "IPv6"}, {"uuid", "UUID"},
      {"duration", "Duration"}, {"hostname", "Hostname"}, {"uri", "URI"}, {"cidr", "CIDR"}, {"mac", "MAC"}};
  for (auto [k, v] : table)
    if (f == k) return std::string(v);
  return std::nullopt;
}

// c.<call>(value, kAllowed) over the allowed values, written as C++ string literals.
void enum_check(Printer& p, const std::vector<std::string>& allowed, std::string_view call, const std::string& value) {
  std::string list;
  for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + cpp_string_literal(a);
  p.print(kEnum, {{"allowed", list}, {"call", std::string(call)}, {"value", value}});
}

void enum_json_check(Printer& p, const Constraints& s, const std::string& value) {
  enum_check(p, s.enum_json, "enum_value", "rr::canonical_text(" + value + ")");
}

// How two items of a set or map list are told apart: the whole item, or a map list's keys.
std::string item_identity(const TypeRef& t) {
  const Constraints* s = t.constraints.get();
  const bool keyed = t.element->kind == TypeKind::Struct || t.element->kind == TypeKind::External;
  if (s->list_type != ListType::Map || !keyed || t.element->nullable) return "rr::canonical_text(x)";
  std::string expr;
  for (const auto& k : s->list_map_keys) {
    // Runtime shapes (rr::Condition ...) name their members the way rrgen names fields.
    const FieldDef* kf = t.element->kind == TypeKind::Struct ? list_map_key_field(*t.element->def, k) : nullptr;
    if (t.element->kind == TypeKind::Struct && !kf) continue;
    const std::string member = kf ? kf->cpp_name : field_name(k);
    // The identity reads as the JSON object of the keys: {"port":80,"protocol":"TCP"}.
    const std::string label = (expr.empty() ? "{" : ",") + std::string("\"") + k + "\":";
    const std::string access = t.element->boxed ? "x->" : "x.";
    expr += (expr.empty() ? "" : " + ") + cpp_string_literal(label) + " + rr::canonical_text(" + access + member + ")";
  }
  return expr.empty() ? "rr::canonical_text(x)" : expr + " + \"}\"";
}

std::string checks(const TypeRef& t, const std::string& e, int depth);

// The checks of an item or map value, skipped when it is null.
std::string element_checks(const TypeRef& t, const std::string& e, int depth) {
  if (!t.nullable) return checks(t, e, depth);
  std::string inner = checks(t, "(*" + e + ")", depth);
  if (inner.empty()) return inner;
  Printer p("types.validation");
  return p.fill(kIfNotNull, {{"value", e}, {"checks", inner}});
}

// The checks of one value `e` (an lvalue of the type `t` describes, already unwrapped from
// optional/nullable) at the validator's current path; empty when there is nothing to check.
std::string checks(const TypeRef& t, const std::string& e, int depth) {
  Printer p("types.validation");
  const Constraints* s = t.constraints.get();
  auto check = [&](std::string_view call, const std::string& value, const std::string& arg) {
    p.print("c.$call$($value$, $arg$);", {{"call", std::string(call)}, {"value", value}, {"arg", arg}});
  };
  switch (t.kind) {
    case TypeKind::String:
    case TypeKind::Enum:
    case TypeKind::Time:
    case TypeKind::Bytes:
    case TypeKind::Quantity: {
      const std::string str = t.kind == TypeKind::String ? e : e + ".str()";
      if (t.kind == TypeKind::Enum) check("enum_string", str, "enum_values(" + t.en->name + "{})");
      if (t.kind == TypeKind::Time) check("format", str, "rr::Format::DateTime");
      if (t.kind == TypeKind::Bytes) check("format", str, "rr::Format::Byte");
      if (!s) break;
      // A string member with string values (only hand-declared structs hold one: rrgen otherwise
      // makes it an enum) is checked as text, like an enum.
      if (t.kind == TypeKind::String && !s->enum_strings.empty()) enum_check(p, s->enum_strings, "enum_string", e);
      else if (t.kind == TypeKind::String && !s->enum_json.empty()) enum_json_check(p, *s, e);
      if (s->min_length) check("min_length", str, std::to_string(*s->min_length));
      if (s->max_length) check("max_length", str, std::to_string(*s->max_length));
      if (s->pattern) p.print(kPattern, {{"regex", cpp_raw_literal(*s->pattern)}, {"value", str}});
      if (t.kind == TypeKind::String) {
        if (auto f = format_name(s->format)) check("format", e, "rr::Format::" + *f);
      }
      break;
    }
    case TypeKind::Int32:
    case TypeKind::Int64:
    case TypeKind::Double: {
      if (!s) break;
      const std::string d = t.kind == TypeKind::Double ? e : "static_cast<double>(" + e + ")";
      if (s->minimum) check("minimum", d, num(*s->minimum) + ", " + cpp_bool(s->exclusive_minimum));
      if (s->maximum) check("maximum", d, num(*s->maximum) + ", " + cpp_bool(s->exclusive_maximum));
      if (s->multiple_of) check("multiple_of", d, num(*s->multiple_of));
      if (!s->enum_json.empty()) enum_json_check(p, *s, e);
      break;
    }
    case TypeKind::Bool:
      if (s && !s->enum_json.empty()) enum_json_check(p, *s, e);
      break;
    case TypeKind::Struct:
      p.print(t.boxed ? "$value$->rr_validate(c);" : "$value$.rr_validate(c);", {{"value", e}});
      break;
    case TypeKind::External:
      p.print("rr::validate(c, $value$);", {{"value", e}});
      break;
    case TypeKind::Array: {
      if (s && s->min_items) check("min_items", e + ".size()", std::to_string(*s->min_items));
      if (s && s->max_items) check("max_items", e + ".size()", std::to_string(*s->max_items));
      const std::string i = "i" + std::to_string(depth);
      const std::string items = element_checks(*t.element, e + "[" + i + "]", depth + 1);
      if (!items.empty()) p.print(kEachItem, {{"i", i}, {"list", e}, {"depth", std::to_string(depth)}, {"checks", items}});
      if (s && s->unordered_list()) {
        p.print(kUnique, {{"keys", "keys" + std::to_string(depth)}, {"list", e}, {"identity", item_identity(t)}});
      }
      break;
    }
    case TypeKind::Map: {
      if (s && s->min_properties) check("min_properties", e + ".size()", std::to_string(*s->min_properties));
      if (s && s->max_properties) check("max_properties", e + ".size()", std::to_string(*s->max_properties));
      const std::string k = "k" + std::to_string(depth), x = "x" + std::to_string(depth);
      const std::string values = element_checks(*t.element, x, depth + 1);
      if (!values.empty()) {
        p.print(kEachValue, {{"k", k}, {"x", x}, {"map", e}, {"depth", std::to_string(depth)}, {"checks", values}});
      }
      break;
    }
    case TypeKind::IntOrString:
    case TypeKind::Json:
    case TypeKind::JsonText:
      break;
  }
  return p.take_block();
}

void member_checks(Printer& p, const StructDef& s, const FieldDef& f) {
  const std::string m = "v." + f.cpp_name, json = cpp_string_literal(f.json_name);
  const bool wrapped = f.presence == Presence::Optional || f.presence == Presence::Nullable;
  const std::string inner = checks(f.type, wrapped ? "(*" + m + ")" : m, 0);
  // Presence the type does not enforce (an optional or nullable member the schema requires).
  const bool required_check = f.required && wrapped;
  switch (f.presence) {
    case Presence::Required:
      if (missing_bit(s, f)) {
        TemplateVars vars = {{"absent", absent_expr(s, f)}, {"json", json}};
        if (inner.empty()) p.print(kAbsent, vars);
        else vars.emplace("checks", inner), p.print(kAbsentOr, vars);
        break;
      }
      [[fallthrough]];
    case Presence::Value:
    case Presence::Go:
      if (!inner.empty()) p.print(kMember, {{"json", json}, {"checks", inner}});
      break;
    case Presence::Optional:
      if (!inner.empty() && required_check) p.print(kRequiredMember, {{"member", m}, {"json", json}, {"checks", inner}});
      else if (!inner.empty()) p.print(kPresentMember, {{"present", m}, {"json", json}, {"checks", inner}});
      else if (required_check) p.print(kRequiredOnly, {{"member", m}, {"json", json}});
      break;
    case Presence::Nullable:
      if (!inner.empty()) p.print(kPresentMember, {{"present", m + ".has_value()"}, {"json", json}, {"checks", inner}});
      if (required_check) p.print(kRequiredNullable, {{"member", m}, {"json", json}});
      break;
  }
}

void member_count_checks(Printer& p, const StructDef& s) {
  if (!s.constraints || !(s.constraints->min_properties || s.constraints->max_properties)) return;
  std::string count = "v." + s.unknown_member + ".size()";
  for (const auto& f : s.fields) {
    if (missing_bit(s, f)) count += " + (" + absent_expr(s, f) + " ? 0 : 1)";
    else if (f.presence == Presence::Required || f.presence == Presence::Go) count += " + 1";
    else if (f.presence == Presence::Optional) count += " + (v." + f.cpp_name + " ? 1 : 0)";
    else if (f.presence == Presence::Nullable) count += " + (v." + f.cpp_name + ".is_absent() ? 0 : 1)";
  }
  Printer bounds("types.validation");
  if (s.constraints->min_properties) {
    bounds.print("c.min_properties(members, $n$);", {{"n", std::to_string(*s.constraints->min_properties)}});
  }
  if (s.constraints->max_properties) {
    bounds.print("c.max_properties(members, $n$);", {{"n", std::to_string(*s.constraints->max_properties)}});
  }
  p.print(kMemberCount, {{"count", count}, {"bounds", bounds.take_block()}});
}

// A CRD may restrict metadata.name and metadata.generateName (structural rule 4).
void metadata_checks(Printer& p, const StructDef& s) {
  for (auto [json, member, constraints] : {std::tuple{"name", "name", &s.metadata_name},
                                           {"generateName", "generate_name", &s.metadata_generate_name}}) {
    if (!*constraints) continue;
    TypeRef t;
    t.kind = TypeKind::String;
    t.constraints = *constraints;
    const std::string inner = checks(t, std::string("v.metadata.") + member, 0);
    if (inner.empty()) continue;
    p.print(kMetadata, {{"member", member}, {"json", cpp_string_literal(json)}, {"checks", inner}});
  }
}

}  // namespace

bool unit_uses_pattern(const Unit& u) {
  for (const auto& s : u.structs)
    for (const auto& f : s->fields)
      if (type_uses_pattern(f.type)) return true;
  return false;
}

void emit_validate_fn(Printer& p, const StructDef& s) {
  if (s.go_struct) {  // validated by the API server's Go code, not against its schema
    p.print(kValidateNothing, {{"signature", hook_signature(s, Hook::Validate, false)}});
    return;
  }
  Printer body("types.validation");
  for (const auto& f : s.fields) member_checks(body, s, f);
  for (const auto& r : s.undeclared_required)
    body.print(kRequiredUndeclared, {{"unknown", s.unknown_member}, {"json", cpp_string_literal(r)}});
  member_count_checks(body, s);
  if (s.is_root) metadata_checks(body, s);
  const std::string checks = body.take_block();
  if (checks.empty()) {
    p.print(kValidateNothing, {{"signature", hook_signature(s, Hook::Validate, false)}});
  } else {
    p.print(
        kValidateFn,
        {{"signature", hook_signature(s, Hook::Validate)}, {"self", hook_self(s, Hook::Validate)}, {"checks", checks}});
  }
}

}  // namespace rrgen
