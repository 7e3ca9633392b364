// authentication.k8s.io/v1 TokenReview: who a bearer token stands for, answered as the API
// server's tokenreview REST storage answers (pkg/registry/authentication/tokenreview), never stored.
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rbac_authorizer.hpp"
#include "rr/core/json.hpp"

namespace rr::apiserver_detail {

// The user a token authenticates as for the `audiences` asked, with those of them the token is
// valid for; nullopt when the server does not accept the token for any of them.
using TokenAuthenticator = std::function<std::optional<std::pair<UserInfo, std::vector<std::string>>>(
    std::string_view token, const std::vector<std::string>& audiences)>;

// The review `body` asks for, with its status: authenticated, user (username, uid, groups, extra)
// and audiences; for a token it does not accept, authenticated false and error "invalid bearer
// token" (the API server's bearer-token authenticator). spec.audiences defaults to the API
// server's audience. ApiError 400 without spec.token or with a namespace.
Json answer_token_review(const Json& body, const TokenAuthenticator& authenticate);

}  // namespace rr::apiserver_detail
