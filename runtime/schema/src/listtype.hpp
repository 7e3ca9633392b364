// The uniqueness of x-kubernetes-list-type set and map lists, as apiextensions checks it
// (pkg/apiserver/schema/listtype): a pass of its own upstream, with field paths ([key] for map
// values) and only the second appearance of each repeated element reported.
#pragma once
#include <string>
#include <vector>

#include "node.hpp"

namespace rr::schema {

// `path` is the list's field path ("spec.ports", "spec.byName[a].ports").
void check_list_type(const Node& list, const Json& value, const std::string& path, std::vector<FieldError>& out);

}  // namespace rr::schema
