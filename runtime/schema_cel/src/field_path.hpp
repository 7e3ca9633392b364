// A rule's fieldPath (`.spec.replicas`, `.labels['app.kubernetes.io/name']`), resolved against the
// schema of the node carrying the rule as the API server's ValidFieldPath does: `.name` and
// `['name']` select a declared property, or a key where the node is a map (additionalProperties).
#pragma once
#include <optional>
#include <string>

#include "rr/core/json.hpp"

namespace rr::schema::detail {

struct ResolvedFieldPath {
  std::string path;   // in field-path form relative to the node: "spec.replicas", "labels[app]"
  std::string error;  // why it does not resolve (empty when it does)
};

ResolvedFieldPath resolve_field_path(const std::string& field_path, const rr::Json& node_schema);

}  // namespace rr::schema::detail
