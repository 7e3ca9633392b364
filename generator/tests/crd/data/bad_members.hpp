// Members and markers rrgen crd refuses, each an error at its own line (crd_command_test.cpp
// finds the lines by the names, so the order here is free).
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "rr/core/meta.hpp"
#include "rr/core/optional.hpp"

namespace bad {

struct Opaque;

union Either {
  int a;
  double b;
};

struct BadSpec {
  int* pointer_member;
  Either union_member;
  std::variant<int, std::string> variant_member;
  std::uint64_t unsigned64_member;
  std::map<int, std::string> int_keys_member;
  std::vector<Opaque> unseen_member;
  // +kubebuilder:validation:Pattern=^a$
  std::int32_t pattern_on_int;
  // +kubebuilder:validation:Frobnicate=1
  std::string unknown_marker;
  // +kubebuilder:validation:Minimum=abc
  std::int32_t minimum_not_a_number;
  // +kubebuilder:subresource:status
  std::string misplaced_marker;
};

// +kubebuilder:object:root=true
struct Bad {
  rr::ObjectMeta metadata;
  BadSpec spec;
};

}  // namespace bad
