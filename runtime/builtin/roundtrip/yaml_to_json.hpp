// YAML (as Kubernetes' tools write it: sigs.k8s.io/yaml, kubectl -o yaml) to JSON text, for tools
// that read fixtures and manifests without the generator. Plain scalars resolve as YAML 1.2's core
// schema does (null, true/false, integers, floats, else a string); quoted scalars are strings.
// One document; anchors and aliases are refused, not expanded (no alias bombs).
#pragma once
#include <stdexcept>
#include <string>
#include <string_view>

namespace rr::roundtrip {

struct YamlError : std::runtime_error {
  YamlError(std::size_t line, std::size_t column, const std::string& what)
      : std::runtime_error(std::to_string(line) + ":" + std::to_string(column) + ": " + what),
        line(line),
        column(column) {}
  std::size_t line, column;  // 1-based
};

// Throws YamlError on malformed YAML, several documents, aliases, or non-string mapping keys.
std::string yaml_to_json(std::string_view yaml);

}  // namespace rr::roundtrip
