// The OpenAPI v3 schema subset Kubernetes uses (CRD structural schemas and the built-in OpenAPI
// documents), as a located tree. Produced by schema_reader, consumed by sema.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "support/diagnostics.hpp"

namespace rrgen {

struct CelRule {
  std::string rule, message, message_expression, reason, field_path;
  bool optional_old_self = false;
};

// x-rrgen-* extensions, read from OpenAPI documents only: how the runtime's hand-declared shapes
// (rr/core/meta.hpp) map onto a schema. Internal to rrgen's own build (docs/runtime-schemas.md).
// x-rrgen-protobuf on a property: its protobuf field, as rrgen openapi-facts derives it from
// Kubernetes' .proto files (docs/kubernetes-api-facts.md).
struct ProtobufFacts {
  int number = 0;
  std::string type;  // a proto scalar ("string", "int64" ...) or a message's full name (has a dot)
  bool repeated = false;
  std::string map_key;        // a map<K, V> field: K (type is V)
  std::string items;          // type is a message wrapping `repeated <items> items = 1` (ExtraValue)
  bool empty = false;         // type is a message without fields (a Go struct with no members)
  std::vector<int> embedded;  // the fields of the embedded Go structs that hold it, outermost first
};

struct RrgenExtensions {
  std::string cpp_type;        // x-rrgen-cpp-type: the hand-declared C++ struct ("rr::ObjectMeta")
  std::string cpp_name;        // x-rrgen-cpp-name: the member's C++ name ("fields_v1_json")
  std::string unknown_fields;  // x-rrgen-unknown-fields: the member keeping undeclared members
  bool go_json = false;        // x-rrgen-go-json: a Go struct under encoding/json semantics
  bool go_pointer = false;     // x-rrgen-go-pointer: a pointer member of such a struct
  bool json_text = false;      // x-rrgen-json-text: the value kept as minified JSON text
  std::optional<ProtobufFacts> protobuf;  // x-rrgen-protobuf: the property's protobuf field
  bool present = false;        // any x-rrgen-* keyword was given
  Location location;           // of the first one
};

struct Schema {
  Location location;
  std::string type;  // "", object, array, string, integer, number, boolean
  std::string format;
  std::string description;
  std::string ref;   // $ref target name (OpenAPI documents only)

  std::optional<double> minimum, maximum, multiple_of;
  bool exclusive_minimum = false, exclusive_maximum = false;
  std::optional<std::int64_t> min_length, max_length, min_items, max_items, min_properties, max_properties;
  std::optional<std::string> pattern;
  bool unique_items = false;

  bool nullable = false;
  bool int_or_string = false;
  bool preserve_unknown = false;
  bool embedded_resource = false;
  std::string list_type;                  // atomic | set | map
  std::vector<std::string> list_map_keys;
  std::string map_type;                   // granular | atomic

  std::vector<std::pair<std::string, std::unique_ptr<Schema>>> properties;  // document order
  std::vector<Location> property_locations;
  std::vector<std::string> required;
  std::unique_ptr<Schema> items;
  std::unique_ptr<Schema> additional_properties;  // schema form
  bool additional_properties_any = false;         // `additionalProperties: true`

  std::vector<std::string> enum_json;             // each allowed value as compact JSON text
  std::optional<std::string> default_json;        // compact JSON text
  std::vector<CelRule> validations;
  // Junctors constrain only (structural rule 2); kept as JSON text for the model dump.
  std::vector<std::string> junctors_json;
  RrgenExtensions rrgen;

  const Schema* property(std::string_view name) const {
    for (const auto& [n, s] : properties)
      if (n == name) return s.get();
    return nullptr;
  }
  bool is_required(std::string_view name) const {
    for (const auto& r : required)
      if (r == name) return true;
    return false;
  }
};

}  // namespace rrgen
