// The proto2 subset of Kubernetes' generated.proto files (go-to-protobuf's output): syntax,
// package, import, option lines, messages (nested ones too) with `optional`/`repeated` fields and
// `map<K, V>` fields. What rrgen openapi-facts needs of them: each message's fields, their numbers
// and types, with every type name resolved to a full name (docs/kubernetes-api-facts.md).
#pragma once
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "support/diagnostics.hpp"

namespace rrgen {

struct ProtoField {
  std::string name;
  int number = 0;
  bool repeated = false;
  // A scalar ("string", "int64", "bytes" ...) or a message's full name without the leading dot
  // ("k8s.io.api.core.v1.PodSpec"); for a map field, the value's type, with `map_key` set.
  std::string type;
  std::string map_key;  // non-empty for `map<K, V>`: K
  Location location;
  bool is_map() const { return !map_key.empty(); }
};

struct ProtoMessage {
  std::string full_name;  // "k8s.io.api.apps.v1.Deployment"
  std::vector<ProtoField> fields;
  Location location;
};

struct ProtoFile {
  std::string package;
  std::vector<std::string> imports;
  std::vector<ProtoMessage> messages;  // nested ones after their parent, named Parent.Child
};

// Every proto scalar type name (double, float, int32 ... bytes).
bool is_proto_scalar(std::string_view type);

// Parses one file (`file` is an interned name, for diagnostics). Field types stay as written
// (relative or with a leading dot) until resolve_proto_types.
ProtoFile read_proto(const std::string* file, std::string_view text, Diagnostics& diags);

// The messages of a set of files by full name, with every field's message type resolved by
// protobuf's scoping rules (innermost scope first); an unknown type is an error.
std::map<std::string, ProtoMessage> resolve_proto_types(std::vector<ProtoFile> files, Diagnostics& diags);

}  // namespace rrgen
