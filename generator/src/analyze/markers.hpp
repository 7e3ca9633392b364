// kubebuilder RBAC markers in comments, read as controller-gen reads them:
//   // +kubebuilder:rbac:groups=apps,resources=deployments,verbs=get;list;watch
//   // +kubebuilder:rbac:groups="",resources=secrets,verbs=get,namespace=team-a,resourceNames=db
//   // +kubebuilder:rbac:urls=/healthz,verbs=get
// A list is `a;b;c` or `{a,b,c}`; values may be quoted; `core` means the core group.
#pragma once
#include <string_view>
#include <vector>

#include "analyze/api_call.hpp"
#include "support/diagnostics.hpp"

namespace rrgen {

// Every marker of `text` (the content of `file`); a malformed one is an error
// [rbac-marker-invalid] at its position and is left out.
std::vector<RbacMarker> read_rbac_markers(const std::string* file, std::string_view text, Diagnostics& diags);

}  // namespace rrgen
