// What admission plugins read of a write the same way: the operation's name, an object's labels
// and the requesting user as an AdmissionReview writes them. Shared by the policies and the local
// API server's webhook dispatcher.
#pragma once
#include <map>
#include <string>
#include <string_view>

#include "rr/cluster/cluster.hpp"

namespace rr::admission_policy {

// "CREATE", "UPDATE", "DELETE".
std::string_view operation_text(AdmissionOperation op);

// The labels of an object's metadata (none for nullptr).
std::map<std::string, std::string> labels_of(const Json* object);

// authentication.k8s.io UserInfo: username, and uid, groups, extra when set.
Json user_json(const RequestUser* user);

}  // namespace rr::admission_policy
