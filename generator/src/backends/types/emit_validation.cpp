#include "backends/types/emit_validation.hpp"

#include <fmt/format.h>

#include <optional>
#include <tuple>
#include <utility>

#include "backends/types/hook_signature.hpp"
#include "backends/types/list_map_keys.hpp"
#include "model/naming.hpp"

namespace rrgen {
namespace {

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
void enum_check(CodeWriter& w, const std::vector<std::string>& allowed, const char* call, const std::string& value) {
  std::string list;
  for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + cpp_string_literal(a);
  w.line("{");
  w.line("  static constexpr std::string_view kAllowed[] = {" + list + "};");
  w.line(fmt::format("  c.{}({}, kAllowed);", call, value));
  w.line("}");
}

void enum_json_check(CodeWriter& w, const Constraints& s, const std::string& value_json) {
  enum_check(w, s.enum_json, "enum_value", value_json);
}

void uniqueness(CodeWriter& w, const TypeRef& t, const std::string& e, int depth) {
  const std::string keys = "keys" + std::to_string(depth);
  w.line("{");
  w.indent();
  w.line(fmt::format("std::vector<std::string> {};", keys));
  w.line(fmt::format("{}.reserve({}.size());", keys, e));
  const Constraints* s = t.constraints.get();
  const bool keyed = t.element->kind == TypeKind::Struct || t.element->kind == TypeKind::External;
  if (s->list_type == ListType::Map && keyed && !t.element->nullable) {
    std::string expr;
    for (const auto& k : s->list_map_keys) {
      // Runtime shapes (rr::Condition ...) name their members the way rrgen names fields.
      const FieldDef* kf = t.element->kind == TypeKind::Struct ? list_map_key_field(*t.element->def, k) : nullptr;
      if (t.element->kind == TypeKind::Struct && !kf) continue;
      const std::string member = kf ? kf->cpp_name : field_name(k);
      // The identity reads as the JSON object of the keys: {"port":80,"protocol":"TCP"}.
      const std::string label = (expr.empty() ? "{" : ",") + std::string("\"") + k + "\":";
      expr += (expr.empty() ? "" : " + ") + cpp_string_literal(label) + fmt::format(" + rr::canonical_text(x.{})", member);
    }
    if (!expr.empty()) expr += " + \"}\"";
    if (expr.empty()) expr = "rr::canonical_text(x)";
    w.line(fmt::format("for (const auto& x : {}) {}.push_back({});", e, keys, expr));
  } else {
    w.line(fmt::format("for (const auto& x : {}) {}.push_back(rr::canonical_text(x));", e, keys));
  }
  w.line(fmt::format("c.unique({});", keys));
  w.dedent();
  w.line("}");
}

void checks(CodeWriter& w, const TypeRef& t, const std::string& e, int depth);

void element_checks(CodeWriter& w, const TypeRef& t, const std::string& e, int depth) {
  if (t.nullable) {
    w.line(fmt::format("if ({}.has_value()) {{", e));
    w.indent();
    checks(w, t, "(*" + e + ")", depth);
    w.dedent();
    w.line("}");
  } else {
    checks(w, t, e, depth);
  }
}

bool element_has_checks(const TypeRef& t) {
  CodeWriter probe;
  checks(probe, t, "x", 0);
  return !probe.take().empty();
}

// Emits the checks of one value `e` (an lvalue of the type `t` describes, already unwrapped
// from optional/nullable) at the validator's current path.
void checks(CodeWriter& w, const TypeRef& t, const std::string& e, int depth) {
  const Constraints* s = t.constraints.get();
  switch (t.kind) {
    case TypeKind::String:
    case TypeKind::Enum:
    case TypeKind::Time:
    case TypeKind::Bytes:
    case TypeKind::Quantity: {
      const std::string str = t.kind == TypeKind::String ? e : e + ".str()";
      if (t.kind == TypeKind::Enum) w.line(fmt::format("c.enum_string({}, enum_values({}{{}}));", str, t.en->name));
      if (t.kind == TypeKind::Time) w.line(fmt::format("c.format({}, rr::Format::DateTime);", str));
      if (t.kind == TypeKind::Bytes) w.line(fmt::format("c.format({}, rr::Format::Byte);", str));
      if (!s) break;
      // A string member with string values (only hand-declared structs hold one: rrgen otherwise
      // makes it an enum) is checked as text, like an enum.
      if (t.kind == TypeKind::String && !s->enum_strings.empty()) enum_check(w, s->enum_strings, "enum_string", e);
      else if (t.kind == TypeKind::String && !s->enum_json.empty()) enum_json_check(w, *s, "rr::canonical_text(" + e + ")");
      if (s->min_length) w.line(fmt::format("c.min_length({}, {});", str, *s->min_length));
      if (s->max_length) w.line(fmt::format("c.max_length({}, {});", str, *s->max_length));
      if (s->pattern) {
        w.line("{");
        w.line(fmt::format("  static const rr::Pattern pattern({});", cpp_raw_literal(*s->pattern)));
        w.line(fmt::format("  c.pattern({}, pattern);", str));
        w.line("}");
      }
      if (t.kind == TypeKind::String) {
        if (auto f = format_name(s->format)) w.line(fmt::format("c.format({}, rr::Format::{});", e, *f));
      }
      break;
    }
    case TypeKind::Int32:
    case TypeKind::Int64:
    case TypeKind::Double: {
      if (!s) break;
      const std::string d = t.kind == TypeKind::Double ? e : "static_cast<double>(" + e + ")";
      if (s->minimum) w.line(fmt::format("c.minimum({}, {}, {});", d, num(*s->minimum), s->exclusive_minimum));
      if (s->maximum) w.line(fmt::format("c.maximum({}, {}, {});", d, num(*s->maximum), s->exclusive_maximum));
      if (s->multiple_of) w.line(fmt::format("c.multiple_of({}, {});", d, num(*s->multiple_of)));
      if (!s->enum_json.empty()) enum_json_check(w, *s, "rr::canonical_text(" + e + ")");
      break;
    }
    case TypeKind::Bool:
      if (s && !s->enum_json.empty()) enum_json_check(w, *s, "rr::canonical_text(" + e + ")");
      break;
    case TypeKind::Struct:
      w.line(fmt::format("{}.rr_validate(c);", e));
      break;
    case TypeKind::External:
      w.line(fmt::format("rr::validate(c, {});", e));
      break;
    case TypeKind::Array: {
      if (s && s->min_items) w.line(fmt::format("c.min_items({}.size(), {});", e, *s->min_items));
      if (s && s->max_items) w.line(fmt::format("c.max_items({}.size(), {});", e, *s->max_items));
      const std::string i = "i" + std::to_string(depth);
      if (element_has_checks(*t.element)) {
        w.line(fmt::format("for (std::size_t {0} = 0; {0} < {1}.size(); ++{0}) {{", i, e));
        w.indent();
        w.line(fmt::format("auto at{} = c.index({});", depth, i));
        element_checks(w, *t.element, e + "[" + i + "]", depth + 1);
        w.dedent();
        w.line("}");
      }
      if (s && s->unordered_list()) uniqueness(w, t, e, depth);
      break;
    }
    case TypeKind::Map: {
      if (s && s->min_properties) w.line(fmt::format("c.min_properties({}.size(), {});", e, *s->min_properties));
      if (s && s->max_properties) w.line(fmt::format("c.max_properties({}.size(), {});", e, *s->max_properties));
      if (element_has_checks(*t.element)) {
        const std::string k = "k" + std::to_string(depth), x = "x" + std::to_string(depth);
        w.line(fmt::format("for (const auto& [{}, {}] : {}) {{", k, x, e));
        w.indent();
        w.line(fmt::format("auto at{} = c.key({});", depth, k));
        element_checks(w, *t.element, x, depth + 1);
        w.dedent();
        w.line("}");
      }
      break;
    }
    case TypeKind::IntOrString:
    case TypeKind::Json:
    case TypeKind::JsonText:
      break;
  }
}

// A CRD may restrict metadata.name and metadata.generateName (structural rule 4).
void metadata_checks(CodeWriter& body, const StructDef& s) {
  for (auto [json, member, constraints] : {std::tuple{"name", "name", &s.metadata_name},
                                           {"generateName", "generate_name", &s.metadata_generate_name}}) {
    if (!*constraints) continue;
    TypeRef t;
    t.kind = TypeKind::String;
    t.constraints = *constraints;
    CodeWriter inner;
    checks(inner, t, std::string("v.metadata.") + member, 0);
    std::string text = inner.take();
    if (text.empty()) continue;
    text.pop_back();
    body.line(fmt::format("if (!v.metadata.{}.empty()) {{", member));
    body.line("  auto at = c.field(\"metadata\");");
    body.line(fmt::format("  auto at_name = c.field({});", cpp_string_literal(json)));
    body.indent();
    body.line(text);
    body.dedent();
    body.line("}");
  }
}

}  // namespace

bool unit_uses_pattern(const Unit& u) {
  for (const auto& s : u.structs)
    for (const auto& f : s->fields)
      if (type_uses_pattern(f.type)) return true;
  return false;
}

void emit_validate_fn(CodeWriter& w, const StructDef& s) {
  if (s.go_struct) {  // validated by the API server's Go code, not against its schema
    w.line(hook_signature(s, Hook::Validate, false) + " {}");
    return;
  }
  CodeWriter body;
  body.indent();
  for (const auto& f : s.fields) {
    const std::string m = "v." + f.cpp_name;
    CodeWriter inner;
    const bool plain = f.presence == Presence::Required || f.presence == Presence::Value || f.presence == Presence::Go;
    checks(inner, f.type, plain ? m : "(*" + m + ")", 0);
    std::string text = inner.take();
    const bool required_check = f.required && !plain;
    if (text.empty() && !required_check) continue;
    auto emit_inner = [&](CodeWriter& out) {
      out.line(fmt::format("auto at = c.field({});", cpp_string_literal(f.json_name)));
      std::size_t start = 0;
      while (start < text.size()) {
        std::size_t nl = text.find('\n', start);
        out.line(text.substr(start, nl - start));
        start = nl + 1;
      }
    };
    switch (f.presence) {
      case Presence::Required:
      case Presence::Value:
      case Presence::Go:
        body.line("{");
        body.indent();
        emit_inner(body);
        body.dedent();
        body.line("}");
        break;
      case Presence::Optional:
      case Presence::Nullable: {
        const std::string present = f.presence == Presence::Optional ? m : m + ".has_value()";
        if (!text.empty()) {
          body.line(fmt::format("if ({}) {{", present));
          body.indent();
          emit_inner(body);
          body.dedent();
          body.line(required_check && f.presence == Presence::Optional ? "} else {" : "}");
        } else if (f.presence == Presence::Optional) {
          body.line(fmt::format("if (!{}) {{", m));
        }
        if (required_check) {
          if (f.presence == Presence::Optional) {
            body.line(fmt::format("  c.required({});", cpp_string_literal(f.json_name)));
            body.line("}");
          } else {
            body.line(fmt::format("if ({}.is_absent()) c.required({});", m, cpp_string_literal(f.json_name)));
          }
        }
        break;
      }
    }
  }
  for (const auto& r : s.undeclared_required)
    body.line(fmt::format("if (!v.{0}.find({1})) c.required({1});", s.unknown_member, cpp_string_literal(r)));
  if (s.constraints && (s.constraints->min_properties || s.constraints->max_properties)) {
    std::string count = "v." + s.unknown_member + ".size()";
    for (const auto& f : s.fields) {
      if (f.presence == Presence::Required || f.presence == Presence::Go) count += " + 1";
      else if (f.presence == Presence::Optional) count += fmt::format(" + ({} ? 1 : 0)", "v." + f.cpp_name);
      else if (f.presence == Presence::Nullable) count += fmt::format(" + ({}.is_absent() ? 0 : 1)", "v." + f.cpp_name);
    }
    body.line("{");
    body.line("  const std::size_t members = " + count + ";");
    if (s.constraints->min_properties) body.line(fmt::format("  c.min_properties(members, {});", *s.constraints->min_properties));
    if (s.constraints->max_properties) body.line(fmt::format("  c.max_properties(members, {});", *s.constraints->max_properties));
    body.line("}");
  }
  if (s.is_root) metadata_checks(body, s);
  std::string text = body.take();
  if (text.empty()) {
    w.line(hook_signature(s, Hook::Validate, false) + " {}");
    return;
  }
  w.line(hook_signature(s, Hook::Validate) + " {");
  if (const auto self = hook_self(s, Hook::Validate); !self.empty()) w.line("  " + self);
  text.pop_back();
  w.line(text);
  w.line("}");
}

}  // namespace rrgen
