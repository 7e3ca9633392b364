#include "backends/types/emit_defaults.hpp"

#include <fmt/format.h>

#include "backends/types/hook_signature.hpp"
#include "model/naming.hpp"

namespace rrgen {
namespace {

void default_recurse(CodeWriter& w, const TypeRef& t, const std::string& e, int depth) {
  if (t.kind == TypeKind::Struct) {
    w.line(fmt::format("{}.rr_apply_defaults();", e));
  } else if (t.kind == TypeKind::Array || t.kind == TypeKind::Map) {
    const std::string x = "x" + std::to_string(depth);
    const std::string item = t.element->nullable ? "(*" + x + ")" : x;
    if (t.kind == TypeKind::Array) w.line(fmt::format("for (auto& {} : {}) {{", x, e));
    else w.line(fmt::format("for (auto& [k{}, {}] : {}) {{", depth, x, e));
    w.indent();
    if (t.element->nullable) w.line(fmt::format("if (!{}.has_value()) continue;", x));
    default_recurse(w, *t.element, item, depth + 1);
    w.dedent();
    w.line("}");
  }
}

}  // namespace

DefaultsEmitter::DefaultsEmitter(const Unit& u) : u_(u) {
  // Structs are in dependency order, so members are decided before their users.
  for (const auto& s : u_.structs) {
    bool needs = false;
    for (const auto& f : s->fields) needs = needs || (f.constraints && f.constraints->default_json) || type_needs_defaults(f.type);
    needs_defaults_.insert({s.get(), needs});
  }
}

bool DefaultsEmitter::type_needs_defaults(const TypeRef& t) const {
  if (t.kind == TypeKind::Struct) {
    auto it = needs_defaults_.find(t.def);
    return it == needs_defaults_.end() ? t.def->unit != &u_ : it->second;  // other units: call through
  }
  return t.element && type_needs_defaults(*t.element);
}

void DefaultsEmitter::defaults_fn(CodeWriter& w, const StructDef& s) {
  if (!needs_defaults_[&s]) {
    w.line(hook_signature(s, Hook::ApplyDefaults, false) + " {}");
    return;
  }
  w.line(hook_signature(s, Hook::ApplyDefaults) + " {");
  w.indent();
  if (const auto self = hook_self(s, Hook::ApplyDefaults); !self.empty()) w.line(self);
  // Own defaults first, then descend into what is present (a default can materialise a parent
  // whose children have defaults of their own): the API server's top-down order.
  for (const auto& f : s.fields) {
    if (!f.constraints || !f.constraints->default_json) continue;
    const std::string m = "v." + f.cpp_name;
    if (f.presence == Presence::Optional)
      w.line(fmt::format("if (!{}) rr::set_default({}, {});", m, m, cpp_raw_literal(*f.constraints->default_json)));
    else if (f.presence == Presence::Nullable)
      w.line(fmt::format("if ({}.is_absent()) rr::set_default({}, {});", m, m, cpp_raw_literal(*f.constraints->default_json)));
  }
  for (const auto& f : s.fields) {
    if (!type_needs_defaults(f.type)) continue;
    const std::string m = "v." + f.cpp_name;
    CodeWriter inner;
    const bool wrapped = f.presence == Presence::Optional || f.presence == Presence::Nullable;
    default_recurse(inner, f.type, wrapped ? "(*" + m + ")" : m, 0);
    std::string text = inner.take();
    if (text.empty()) continue;
    text.pop_back();
    if (wrapped) {
      w.line(fmt::format("if ({}) {{", f.presence == Presence::Optional ? m : m + ".has_value()"));
      w.indent();
      w.line(text);
      w.dedent();
      w.line("}");
    } else {
      w.line(text);
    }
  }
  w.dedent();
  w.line("}");
}

}  // namespace rrgen
