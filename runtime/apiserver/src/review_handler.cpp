// The review resources and TokenRequest over HTTP: answered and not stored.
#include "body_codec.hpp"
#include "rest_handler.hpp"
#include "token_review.hpp"

namespace rr::apiserver_detail {

HttpReply RestHandler::review(const HttpRequest& request, const UserInfo& user, const ReviewResource& resource,
                              const Route& route) const {
  if (!route.name.empty() || route.namespaced_path != resource.namespaced) {
    Status not_found;
    not_found.message = "the server could not find the requested resource";
    not_found.reason = "NotFound";
    not_found.code = 404;
    return status_reply(not_found);
  }
  if (request.method != "POST") {
    return status_reply(api_errors::method_not_supported(resource.plural + "." + resource.group, request.method));
  }
  const Json body = decode_body(request.content_type, request.body);
  if (resource.kind == "TokenReview") {
    return object_reply(request, answer_token_review(body, token_authenticator_), 201);
  }
  return object_reply(request, answer_review(resource, body, user, authorizer_, route.namespace_), 201);
}

HttpReply RestHandler::token_request(const HttpRequest& request, const Route& route) const {
  if (request.method != "POST") {
    return status_reply(api_errors::method_not_supported("serviceaccounts/token", request.method));
  }
  const Json body = request.body.empty() ? Json::object() : decode_body(request.content_type, request.body);
  // Compared as a std::string: g++ 12 at -O3 warns (-Warray-bounds, a false positive) on Json == "text" here.
  if (const auto kind = body.find("kind");
      kind != body.end() &&
      !(kind->is_string() && kind->get_ref<const std::string&>() == std::string("TokenRequest"))) {
    return status_reply(
        api_errors::bad_request("the body of a token request must be a TokenRequest, not " + kind->dump()));
  }
  return object_reply(request, tokens_.issue(route.namespace_, route.name, body), 201);
}

}  // namespace rr::apiserver_detail
