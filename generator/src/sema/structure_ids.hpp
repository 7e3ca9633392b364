// Interns schema subtrees by structure (descriptions excluded) so identical nested objects become
// one C++ type: Argo's Workflow repeats Container and friends dozens of times.
#pragma once
#include <string>
#include <unordered_map>

#include "load/schema.hpp"

namespace rrgen {

class StructureIds {
 public:
  // The same number for two subtrees exactly when they describe the same structure.
  int id(const Schema& s);

 private:
  std::unordered_map<std::string, int> ids_;
  std::unordered_map<const Schema*, int> memo_;
};

}  // namespace rrgen
