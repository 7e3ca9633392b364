// controller-tools' testdata kind Enum (testdata.kubebuilder.io/v1), translated by hand: a string
// enum from an enum class, its enumerators the values.
#pragma once
#include <string>

#include "rr/core/meta.hpp"
#include "rr/core/optional.hpp"

namespace testdata {

enum class EnumField { Value1, Value2 };

struct EnumSpec {
  rr::Optional<EnumField> field;
};

// +kubebuilder:object:root=true
struct Enum {
  std::string api_version;
  std::string kind;
  rr::ObjectMeta metadata;
  rr::Optional<EnumSpec> spec;
};

}  // namespace testdata
