// A read document written back with support/yaml_writer: scalars keep their YAML type (a quoted
// "3" stays a string, a plain 3 a number), map keys their order or, as kustomize writes objects,
// sorted.
#pragma once
#include "load/yaml_node.hpp"
#include "support/yaml_writer.hpp"

namespace rrgen {

enum class KeyOrder { AsWritten, Sorted };

Yaml yaml_copy(const Node& n, KeyOrder order = KeyOrder::AsWritten);

}  // namespace rrgen
