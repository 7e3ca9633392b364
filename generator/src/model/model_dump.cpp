#include "model/model_dump.hpp"

#include <nlohmann/json.hpp>

namespace rrgen {

std::string describe_type(const TypeRef& t) {
  switch (t.kind) {
    case TypeKind::String: return "string";
    case TypeKind::Bool: return "bool";
    case TypeKind::Int32: return "int32";
    case TypeKind::Int64: return "int64";
    case TypeKind::Double: return "double";
    case TypeKind::Time: return "rr::Time";
    case TypeKind::Bytes: return "rr::Bytes";
    case TypeKind::IntOrString: return "rr::IntOrString";
    case TypeKind::Quantity: return "rr::Quantity";
    case TypeKind::Json: return "rr::Json";
    case TypeKind::Struct: return t.def ? (t.boxed ? "box<" + t.def->qualified + ">" : t.def->qualified) : "?";
    case TypeKind::Enum: return "enum " + (t.en ? t.en->qualified : "?");
    case TypeKind::External: return t.external;
    case TypeKind::Array: return "array<" + std::string(t.element->nullable ? "nullable " : "") + describe_type(*t.element) + ">";
    case TypeKind::Map: return "map<" + std::string(t.element->nullable ? "nullable " : "") + describe_type(*t.element) + ">";
    case TypeKind::JsonText: return "json text";
  }
  return "?";
}

std::string dump_model_json(const Model& model) {
  using nlohmann::ordered_json;
  static constexpr const char* kPresence[] = {"required", "optional", "nullable", "value", "go"};
  ordered_json units = ordered_json::array();
  for (const auto& u : model.units) {
    ordered_json ju;
    ju["namespace"] = u->ns;
    ju["path"] = u->path;
    if (!u->declared_in.empty()) ju["declaredIn"] = u->declared_in;
    if (u->kind) {
      const auto& k = *u->kind;
      ju["kind"] = {{"group", k.group},     {"version", k.version},       {"kind", k.kind},
                    {"plural", k.plural},   {"namespaced", k.namespaced}, {"status", k.has_status},
                    {"scale", k.has_scale}, {"storage", k.storage},       {"verbs", k.verbs}};
    }
    ordered_json deps = ordered_json::array();
    for (const Unit* d : u->depends) deps.push_back(d->path);
    ju["depends"] = deps;
    ordered_json enums = ordered_json::array();
    for (const auto& e : u->enums) {
      ordered_json values = ordered_json::object();
      for (std::size_t i = 0; i < e->values.size(); ++i) values[e->enumerators[i]] = e->values[i];
      enums.push_back({{"name", e->name}, {"values", values}});
    }
    ju["enums"] = enums;
    ordered_json structs = ordered_json::array();
    for (const auto& s : u->structs) {
      ordered_json fields = ordered_json::array();
      for (const auto& f : s->fields) {
        ordered_json jf = {{"json", f.json_name}, {"cpp", f.cpp_name}, {"type", describe_type(f.type)},
                           {"presence", kPresence[static_cast<int>(f.presence)]}};
        if (f.omit_empty) jf["omitEmpty"] = true;
        if (f.pb) {
          static constexpr const char* kAs[] = {"plain", "microTime", "jsonMessage", "itemsMessage", "emptyMessage"};
          jf["protobuf"] = {{"number", f.pb->number}, {"as", kAs[static_cast<int>(f.pb->as)]}};
          if (!f.pb->embedded.empty()) jf["protobuf"]["embedded"] = f.pb->embedded;
        }
        const Constraints* fc = f.constraints.get();
        if (fc && fc->default_json) jf["default"] = *fc->default_json;
        if (fc && fc->list_type != ListType::Unspecified) jf["listType"] = std::string(to_string(fc->list_type));
        ordered_json rules = ordered_json::array();
        auto add_rules = [&](const Constraints* c, const char* where) {
          if (!c) return;
          for (const auto& r : c->validations) {
            ordered_json jr = {{"rule", r.rule}};
            if (*where) jr["on"] = where;
            if (!r.message.empty()) jr["message"] = r.message;
            if (!r.message_expression.empty()) jr["messageExpression"] = r.message_expression;
            if (!r.reason.empty()) jr["reason"] = r.reason;
            if (!r.field_path.empty()) jr["fieldPath"] = r.field_path;
            if (r.optional_old_self) jr["optionalOldSelf"] = true;
            rules.push_back(jr);
          }
        };
        add_rules(fc, "");
        for (const TypeRef* e = f.type.element.get(); e; e = e->element.get())
          if (e->kind != TypeKind::Struct) add_rules(e->constraints.get(), "element");
        if (!rules.empty()) jf["celRules"] = rules;
        fields.push_back(jf);
      }
      ordered_json js = {{"name", s->name}, {"root", s->is_root}, {"fields", fields}};
      if (!s->undeclared_required.empty()) js["undeclaredRequired"] = s->undeclared_required;
      if (s->go_struct) js["goStruct"] = true;
      if (s->protobuf) js["protobuf"] = true;
      if (s->unknown_member != "unknown_fields") js["unknownFields"] = s->unknown_member;
      // Only when a property took the usual name: every struct with required members has one.
      if (!s->missing_member.empty() && s->missing_member != "missing_required")
        js["missingMembers"] = s->missing_member;
      structs.push_back(js);
    }
    ju["structs"] = structs;
    units.push_back(ju);
  }
  return ordered_json{{"units", units}}.dump(2) + "\n";
}

}  // namespace rrgen
