// The generator's model: what C++ to emit, with every naming and layout decision already made.
// Backends are pure functions of (Model, options); nothing here knows about text.
#pragma once
#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/constraints.hpp"
#include "support/diagnostics.hpp"

namespace rrgen {

struct StructDef;
struct EnumDef;
struct Unit;

enum class TypeKind {
  String, Bool, Int32, Int64, Double,  // scalars
  Time, Bytes, IntOrString, Quantity,  // lossless runtime value types
  Json,                                // schemaless (preserve-unknown) value
  Struct, Enum,                        // generated
  External,                            // runtime well-known shape (rr::ObjectMeta, rr::Condition ...)
  Array, Map,
  JsonText,                            // any JSON value kept as minified text in a std::string
};

struct TypeRef {
  TypeKind kind = TypeKind::Json;
  const StructDef* def = nullptr;       // Struct
  const EnumDef* en = nullptr;          // Enum
  std::string external;                 // External: C++ name, e.g. "rr::Condition"
  std::shared_ptr<TypeRef> element;     // Array item / Map value
  std::shared_ptr<const Constraints> constraints;  // of this node (null for synthesised members)
  bool nullable = false;                // element of a container that may be JSON null
  // Struct held through rr::Box<T>: the reference closes a cycle (a schema that contains itself),
  // so the struct may be incomplete where this member is declared.
  bool boxed = false;
};

// How a member is represented: T (required), std::optional<T>, rr::Nullable<T>, or a plain value
// omitted when empty (root apiVersion/kind/metadata, which the API server always fills).
// Go: a plain T as Go's encoding/json treats a non-pointer member of a Go struct (StructDef::
// go_struct): a missing member or JSON null leaves the zero value; written always, or, with
// FieldDef::omit_empty, only when not empty (an empty rr::Time counts as empty).
enum class Presence { Required, Optional, Nullable, Value, Go };

// Whether an omitempty Presence::Go member of this kind can be tested for emptiness: Go's zero
// value (false, 0, "", no elements), and the empty text of rr::Time, rr::Bytes and rr::Quantity.
constexpr bool go_omittable(TypeKind k) {
  switch (k) {
    case TypeKind::String: case TypeKind::Bool: case TypeKind::Int32: case TypeKind::Int64: case TypeKind::Double:
    case TypeKind::Time: case TypeKind::Bytes: case TypeKind::Quantity:
    case TypeKind::Array: case TypeKind::Map: case TypeKind::JsonText:
      return true;
    default:
      return false;
  }
}

// How a member's value is held on the wire where its C++ type does not say it (rr::PbAs): a
// MicroTime, JSON text in a message's field 1 (RawExtension), a list in a message's `items`, an
// empty object as a message without fields.
enum class PbAs { Plain, MicroTime, JsonMessage, ItemsMessage, EmptyMessage };

// A member's protobuf field (x-rrgen-protobuf).
struct PbField {
  int number = 0;
  PbAs as = PbAs::Plain;
  std::vector<int> embedded;  // the fields of the embedded Go structs that hold it, outermost first
};

struct FieldDef {
  std::string json_name;
  std::string cpp_name;
  TypeRef type;
  Presence presence = Presence::Optional;
  bool required = false;  // listed in the schema's `required`
  std::shared_ptr<const Constraints> constraints;  // of the property (a $ref's own, not its target's)
  Location location;
  std::string initializer;  // C++ initializer for Value members (root apiVersion/kind)
  bool omit_empty = false;  // Presence::Go: Go's `omitempty` (not in the schema's `required`)
  std::optional<PbField> pb;  // its protobuf field, when the schema gives one
};

// A root's apiVersion or kind: a string member with the kind's value as its initializer. Both
// codecs treat it as Go's TypeMeta (absent stays empty; empty is not written).
inline bool is_type_meta(const FieldDef& f) {
  return f.presence == Presence::Value && f.type.kind == TypeKind::String && !f.initializer.empty();
}

struct StructDef {
  std::string name;       // unqualified
  std::string qualified;  // ::ns::Name
  const Unit* unit = nullptr;
  std::shared_ptr<const Constraints> constraints;
  // Root kinds: what the CRD says about metadata.name and metadata.generateName (null if nothing).
  std::shared_ptr<const Constraints> metadata_name, metadata_generate_name;
  Location location;
  std::vector<FieldDef> fields;
  std::vector<std::string> undeclared_required;  // required names absent from properties
  bool is_root = false;
  // A Go struct of the API server (metav1.ObjectMeta ...): members are Presence::Go or Optional
  // (pointers); the server validates it in Go, not against its schema, so validate() checks
  // nothing; it compares member by member, in order.
  bool go_struct = false;
  std::string unknown_member = "unknown_fields";  // the rr::UnknownFields member
  // The rr::MissingMembers record of the Presence::Required members a decoded object lacked
  // (tolerant decoding); empty when the struct has none, or is declared by hand (strict).
  std::string missing_member;
  // Every member has its protobuf field (apiVersion and kind aside: the envelope's), and every
  // struct it holds a protobuf codec: rr_encode_pb/rr_decode_pb are generated.
  bool protobuf = false;
};

struct EnumDef {
  std::string name;
  std::string qualified;
  std::vector<std::string> values;       // JSON strings (unescaped)
  std::vector<std::string> enumerators;  // C++ names, parallel to values
};

struct KindInfo {
  std::string group, version, kind, plural, singular, list_kind;
  std::vector<std::string> short_names, categories;
  bool namespaced = true, has_status = false, has_scale = false;
  bool storage = true, served = true, deprecated = false;
  // Discovery's verbs on the main resource, sorted (a CRD's kind has all eight).
  std::vector<std::string> verbs;
};

// One generated header + source pair.
struct Unit {
  std::string ns;     // "monitoring_coreos_com::v1"
  std::string path;   // "monitoring_coreos_com/v1/prometheus" (no extension)
  std::string origin; // input file it came from
  std::vector<std::unique_ptr<EnumDef>> enums;
  std::vector<std::unique_ptr<StructDef>> structs;  // dependency order: members before users
  const StructDef* root = nullptr;
  std::optional<KindInfo> kind;
  // OpenAPI definitions: every {group, version, kind} of x-kubernetes-group-version-kind, resource
  // kind or not (Scale, Eviction, DeleteOptions in every group): what the table of kinds lists.
  std::vector<std::array<std::string, 3>> object_kinds;
  std::vector<const Unit*> depends;  // units whose headers this one includes
  // Units whose root this one holds only through rr::Box (a cycle across units): the header
  // declares their struct, the source includes their header.
  std::vector<const Unit*> boxed_depends;
  // Non-empty: the structs are declared by hand in this header (rr/core/meta.hpp), so only their
  // codec is generated, as the free functions and operator== that header declares.
  std::string declared_in;
  // A CRD version's root unit: the part of its schema its CEL rules and junctors need, as JSON
  // (sema/rules_schema.hpp), which validate() embeds; empty when it has none.
  std::string rules_schema;
};

struct Model {
  std::vector<std::unique_ptr<Unit>> units;
};

}  // namespace rrgen
