// Kinds from discovery: an APIResourceList (GET /api/v1, /apis/<group>/<version>) as KindInfos.
#pragma once
#include <string>
#include <vector>

#include "rr/client/kind.hpp"
#include "rr/core/json.hpp"

namespace rr::http_detail {

// One KindInfo per top-level resource ("widgets", not "widgets/status"); has_status when the
// list also names "<plural>/status". list_kind is "<Kind>List".
std::vector<KindInfo> kinds_of_resource_list(const std::string& group, const std::string& version,
                                             const Json& resource_list);

}  // namespace rr::http_detail
