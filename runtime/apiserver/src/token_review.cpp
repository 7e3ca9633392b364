// TokenReview answers (see token_review.hpp).
#include "token_review.hpp"

#include "json_members.hpp"
#include "rr/client/api_error.hpp"
#include "rr/core/errors.hpp"
#include "service_account_tokens.hpp"

namespace rr::apiserver_detail {

Json answer_token_review(const Json& body, const TokenAuthenticator& authenticate) {
  if (!body.is_object()) throw ApiError(api_errors::bad_request("not a TokenReview"));
  Json out = body;
  out["apiVersion"] = "authentication.k8s.io/v1";
  out["kind"] = "TokenReview";
  if (!out.contains("metadata") || !out["metadata"].is_object()) out["metadata"] = Json::object();
  if (const std::string ns = member_string(out["metadata"], "namespace"); !ns.empty()) {
    throw ApiError(api_errors::bad_request("namespace is not allowed on this type: " + ns));
  }
  if (!out.contains("spec") || !out["spec"].is_object()) out["spec"] = Json::object();
  const std::string token = member_string(out["spec"], "token");
  if (token.empty()) throw ApiError(api_errors::bad_request("token is required for TokenReview in authentication"));
  std::vector<std::string> audiences = member_strings(out["spec"], "audiences");
  if (audiences.empty()) audiences.emplace_back(api_server_audience);

  Json status = {{"user", Json::object()}};
  if (const auto found = authenticate(token, audiences)) {
    const UserInfo& user = found->first;
    Json info = {{"username", user.name}, {"groups", user.groups}};
    if (!user.uid.empty()) info["uid"] = user.uid;
    if (!user.extra.empty()) info["extra"] = user.extra;
    status = {{"authenticated", true}, {"user", info}, {"audiences", found->second}};
  } else {
    status["error"] = "invalid bearer token";
  }
  out["status"] = status;
  return out;
}

}  // namespace rr::apiserver_detail
