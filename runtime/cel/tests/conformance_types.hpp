// The conformance files' Type objects (cel.expr.Type in the proto3 JSON mapping, see the corpus
// README) spelt as rr::cel::CelType::to_string() spells a type, so a check_only case can compare
// the type the checker deduced with the one it expects.
#pragma once
#include <optional>
#include <string>

#include "rr/core/json.hpp"

namespace rr::cel::conformance {

// nullopt with `why` set for a type this implementation has no counterpart of (protobuf messages
// and wrappers, type parameters, abstract types other than optional_type).
std::optional<std::string> type_text_of(const rr::Json& type, std::string& why);

}  // namespace rr::cel::conformance
