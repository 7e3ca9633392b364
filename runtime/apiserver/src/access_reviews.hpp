// The create-only review resources, answered and never stored: authorization.k8s.io/v1
// SelfSubjectAccessReview, SubjectAccessReview, LocalSubjectAccessReview, SelfSubjectRulesReview,
// and authentication.k8s.io/v1 SelfSubjectReview (kubectl auth can-i / whoami) and TokenReview
// (token_review.hpp).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "authorization.hpp"

namespace rr::apiserver_detail {

struct ReviewResource {
  std::string group, version, plural, kind;
  bool namespaced = false;
};

// What discovery lists of them (verb "create" only).
const std::vector<ReviewResource>& review_resources();
const ReviewResource* find_review_resource(const std::string& group, const std::string& version,
                                           const std::string& plural);

// The review `body` asks for, answered: the request with its status filled. `path_namespace`:
// the namespace of a LocalSubjectAccessReview's path. ApiError 400/422 on a malformed review.
Json answer_review(const ReviewResource& resource, const Json& body, const UserInfo& requester,
                   const Authorizer& authorizer, const std::string& path_namespace);

}  // namespace rr::apiserver_detail
