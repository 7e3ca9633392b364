#include "sema/protobuf_of.hpp"

#include <algorithm>
#include <string_view>

#include "sema/well_known.hpp"

namespace rrgen {
namespace {

constexpr std::string_view kMeta = "k8s.io.apimachinery.pkg.apis.meta.v1.";
// Messages whose field 1 holds JSON text, the value in JSON.
constexpr std::string_view kJsonMessages[] = {"k8s.io.apimachinery.pkg.runtime.RawExtension",
                                              "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSON",
                                              "k8s.io.apimachinery.pkg.apis.meta.v1.FieldsV1"};

bool is_json_message(std::string_view type) {
  return std::find(std::begin(kJsonMessages), std::end(kJsonMessages), type) != std::end(kJsonMessages);
}

// Whether a value of C++ kind `leaf` is what proto type `type` holds.
bool fits(const TypeRef& leaf, const std::string& type) {
  const bool message = type.find('.') != std::string::npos;
  switch (leaf.kind) {
    case TypeKind::String:
    case TypeKind::Enum: return type == "string";
    case TypeKind::Bool: return type == "bool";
    case TypeKind::Int32: return type == "int32";
    case TypeKind::Int64: return type == "int64";
    case TypeKind::Double: return type == "double";
    case TypeKind::Bytes: return type == "bytes";
    case TypeKind::Quantity: return type == "k8s.io.apimachinery.pkg.api.resource.Quantity";
    case TypeKind::IntOrString: return type == "k8s.io.apimachinery.pkg.util.intstr.IntOrString";
    case TypeKind::Time: return type == std::string(kMeta) + "Time" || type == std::string(kMeta) + "MicroTime";
    case TypeKind::Json:
    case TypeKind::JsonText: return is_json_message(type);
    case TypeKind::Struct:
    case TypeKind::External: return message && !is_json_message(type);
    default: return false;
  }
}

bool has_codec(const TypeRef& t) {
  if (t.element) return has_codec(*t.element);
  if (t.kind == TypeKind::Struct) return t.def->protobuf;
  if (t.kind == TypeKind::External) return well_known_has_protobuf(t.external);
  return true;
}

}  // namespace

std::optional<PbField> protobuf_of(const Schema* prop, const TypeRef& type) {
  if (!prop || !prop->rrgen.protobuf) return std::nullopt;
  const ProtobufFacts& f = *prop->rrgen.protobuf;
  // The C++ shape the field's label says: a map's value, a list's item (repeated, or the items
  // of a list-wrapping message), or the value itself.
  const TypeRef* leaf = &type;
  if (!f.map_key.empty()) {
    if (type.kind != TypeKind::Map) return std::nullopt;
    leaf = type.element.get();
  }
  if (f.repeated || !f.items.empty()) {
    if (leaf->kind != TypeKind::Array) return std::nullopt;
    leaf = leaf->element.get();
  }
  // An object without properties (rr::Json) whose message has no fields: Go's empty struct.
  const bool empty_object = f.empty && leaf->kind == TypeKind::Json;
  if (!empty_object && !fits(*leaf, f.items.empty() ? f.type : f.items)) return std::nullopt;
  PbField out;
  out.number = f.number;
  out.embedded = f.embedded;
  if (empty_object) out.as = PbAs::EmptyMessage;
  else if (!f.items.empty()) out.as = PbAs::ItemsMessage;
  else if (f.type == std::string(kMeta) + "MicroTime") out.as = PbAs::MicroTime;
  else if (is_json_message(f.type)) out.as = PbAs::JsonMessage;
  return out;
}

void mark_protobuf_structs(Model& model) {
  // apiVersion and kind without a field are Go's TypeMeta, which the envelope carries.
  auto type_meta = [](const StructDef&, const FieldDef& f) {
    return f.json_name == "apiVersion" || f.json_name == "kind";
  };
  for (const auto& u : model.units)
    for (const auto& s : u->structs)
      s->protobuf = !s->fields.empty() && std::all_of(s->fields.begin(), s->fields.end(),
                                                      [&](const FieldDef& f) { return f.pb || type_meta(*s, f); });
  // Then, until nothing changes, none for a struct holding a struct without one.
  for (bool changed = true; changed;) {
    changed = false;
    for (const auto& u : model.units)
      for (const auto& s : u->structs)
        if (s->protobuf &&
            !std::all_of(s->fields.begin(), s->fields.end(), [](const FieldDef& f) { return has_codec(f.type); })) {
          s->protobuf = false;
          changed = true;
        }
  }
}

}  // namespace rrgen
