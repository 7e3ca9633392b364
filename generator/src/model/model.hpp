// The generator's model: what C++ to emit, with every naming and layout decision already made.
// Backends are pure functions of (Model, options); nothing here knows about text.
#pragma once
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
};

struct TypeRef {
  TypeKind kind = TypeKind::Json;
  const StructDef* def = nullptr;       // Struct
  const EnumDef* en = nullptr;          // Enum
  std::string external;                 // External: C++ name, e.g. "rr::Condition"
  std::shared_ptr<TypeRef> element;     // Array item / Map value
  std::shared_ptr<const Constraints> constraints;  // of this node (null for synthesised members)
  bool nullable = false;                // element of a container that may be JSON null
};

// How a member is represented: T (required), std::optional<T>, rr::Nullable<T>, or a plain value
// omitted when empty (root apiVersion/kind/metadata, which the API server always fills).
enum class Presence { Required, Optional, Nullable, Value };

struct FieldDef {
  std::string json_name;
  std::string cpp_name;
  TypeRef type;
  Presence presence = Presence::Optional;
  bool required = false;  // listed in the schema's `required`
  std::shared_ptr<const Constraints> constraints;  // of the property (a $ref's own, not its target's)
  Location location;
  std::string initializer;  // C++ initializer for Value members (root apiVersion/kind)
};

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
  std::vector<const Unit*> depends;  // units whose headers this one includes
};

struct Model {
  std::vector<std::unique_ptr<Unit>> units;
};

}  // namespace rrgen
