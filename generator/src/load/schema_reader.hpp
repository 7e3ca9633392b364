// Node -> Schema. Knows the keywords, their value types and, for CRDs, the structural-schema
// rules the API server enforces (so rrgen rejects what `kubectl apply` would reject).
#pragma once
#include <memory>

#include "support/diagnostics.hpp"
#include "load/schema.hpp"
#include "load/yaml_node.hpp"

namespace rrgen {

enum class SchemaDialect { Crd, OpenApi };

// Returns nullptr only when the node is not a mapping; otherwise a schema with every problem
// reported (the caller checks diags.has_errors()).
std::unique_ptr<Schema> read_schema(const Node& node, SchemaDialect dialect, Diagnostics& diags);

// "", 0, false or {} as compact JSON text: in an OpenAPI document (not a CRD), a `default` with
// such a value is Go's zero value of a non-pointer member, and read_schema drops it.
bool is_go_zero_value(const std::string& json);

}  // namespace rrgen
