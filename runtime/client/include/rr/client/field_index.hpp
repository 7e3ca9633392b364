// Field indexes (controller-runtime's FieldIndexer.IndexField): a cache indexes the objects of a
// kind under the values a function extracts, and answers a list whose field selector names that
// field ("<field>=<value>", exact match) from the index instead of scanning the namespace.
// Client::has_field_index says whether a client can; the API server cannot.
#pragma once
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "rr/core/json.hpp"

namespace rr {

// The values an object is indexed under for one field (none: not in the index). Must not throw.
using FieldIndexFn = std::function<std::vector<std::string>(const Json& object)>;

// Built into every cache, created on first use: the uid of the object's controller owner
// reference (none when it has no controller). A ChildReconciler lists its children with it.
inline constexpr std::string_view controller_owner_field = ".metadata.controller";
std::vector<std::string> controller_owner_uid(const Json& object);

// "<field>=<value>" with the value escaped as the field selector grammar needs.
std::string field_equals(std::string_view field, std::string_view value);

}  // namespace rr
