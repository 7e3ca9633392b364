// Field indexes (controller-runtime's FieldIndexer.IndexField): a cache indexes the objects of a
// kind under the values a function extracts (rr/controller/field_indexer.hpp), and answers a list
// whose field selector names that field ("<field>=<value>", exact match) from the index instead of
// scanning the namespace. Client::has_field_index says whether a client can; the API server
// cannot. Kept free of JSON so that reconciler headers can name the fields cheaply.
#pragma once
#include <string>
#include <string_view>

namespace rr {

// Built into every cache, created on first use: the uid of the object's controller owner
// reference (none when it has no controller). A ChildReconciler lists its children with it.
inline constexpr std::string_view controller_owner_field = ".metadata.controller";

// "<field>=<value>" with the value escaped as the field selector grammar needs.
std::string field_equals(std::string_view field, std::string_view value);

}  // namespace rr
