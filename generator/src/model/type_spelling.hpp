// How a model type is spelled in C++ (one place for every backend): the optional wrapper
// (rr::Optional<...>, rr::Nullable<...>) is the caller's business; this is the value type,
// e.g. "std::vector<rr::Nullable<std::string>>".
#pragma once
#include <string>

#include "model/model.hpp"

namespace rrgen {

// `scope_ns`: the namespace the spelling is written in ("monitoring_coreos_com::v1"); generated
// structs of that namespace, and enums (always declared beside their users), are named
// unqualified there. Empty: everything fully qualified (code in another namespace).
std::string cpp_value_type(const TypeRef& t, const std::string& scope_ns = {});
// An element of an array or map: rr::Nullable<T> where JSON null is allowed.
std::string cpp_element_type(const TypeRef& t, const std::string& scope_ns = {});

}  // namespace rrgen
