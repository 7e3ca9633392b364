// Reads YAML (and JSON, which the same parser accepts) into located Node trees using libyaml's
// event API. Syntax errors, excessive nesting and alias bombs become diagnostics, never crashes.
#pragma once
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "support/diagnostics.hpp"
#include "load/yaml_node.hpp"

namespace rrgen {

struct LoadLimits {
  std::size_t max_depth = 256;            // deeper documents are rejected (input-too-deep)
  std::size_t max_nodes = 4'000'000;      // per file, including alias expansions (input-too-large)
  std::size_t max_file_bytes = 256u << 20;
};

// Owns the contents of the files read in one run; their names are interned (intern_file_name),
// so Locations outlive the set.
class SourceSet {
 public:
  // Reads a file; on failure reports "rrgen: error: cannot open 'x': reason" and returns nullptr.
  const std::string* read(const std::string& path, Diagnostics& diags, const LoadLimits& limits = {});
  // Registers in-memory text (tests, fuzzing).
  const std::string* add(std::string name, std::string content);
  // The text last added under this name.
  std::string_view content(const std::string* name) const;

 private:
  std::deque<const std::string*> names_;
  std::deque<std::string> contents_;
};

// Every document of a YAML stream. Returns an empty vector (with errors reported) on bad syntax.
std::vector<Node> load_yaml(const std::string* file, std::string_view text, Diagnostics& diags,
                            const LoadLimits& limits = {});

}  // namespace rrgen
