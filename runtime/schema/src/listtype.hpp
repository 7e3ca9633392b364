// The uniqueness of x-kubernetes-list-type set and map lists, as apiextensions checks it
// (pkg/apiserver/schema/listtype): a pass of its own upstream, after the schema's, with field paths
// ([key] for map values) and only the second appearance of each repeated element reported.
#pragma once
#include <string>
#include <vector>

#include "node.hpp"

namespace rr::schema {

// Every set and map list below `value` (the object at `node`), as ValidateListSetsAndMaps walks
// it: properties, map values ("spec.byName[a].ports") and items.
void list_type_errors(const Node& node, const Json& value, const std::string& path, std::vector<FieldError>& out);

}  // namespace rr::schema
