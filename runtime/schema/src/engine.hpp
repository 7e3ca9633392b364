// The passes over a compiled tree, shared by Schema's methods and by compile()'s check of defaults.
#pragma once
#include <string>
#include <vector>

#include "node.hpp"

namespace rr::schema {

// Every finding for `value` at `node` (schema findings, then the NodeChecks' unless a type error
// withholds them). Paths start at `root` ("" for an object).
// `list_types`: run the list-type pass (upstream does not for defaults).
std::vector<FieldError> validate_tree(const Node& node, const Json& value, const Json* old,
                                      const ValidateOptions& options, const std::string& root = {},
                                      bool list_types = true);

void default_value(const Node& node, Json& value);

// `path` is the value's path in `unknown field` form ("spec.items[0]"); `resource` keeps the
// apiVersion, kind and metadata of an object (the root, an embedded resource).
void prune_value(const Node& node, Json& value, bool resource, const std::string& path,
                 std::vector<std::string>& pruned);

// compile()'s check that each default is pruned and valid, with errors at "<node>.default...".
std::vector<FieldError> default_errors(const Node& root, const std::string& schema_path);

}  // namespace rr::schema
