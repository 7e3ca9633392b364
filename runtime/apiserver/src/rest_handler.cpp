// Routing and the documents that are not resources (discovery, OpenAPI, health, version).
#include "rest_handler.hpp"

#include "discovery.hpp"
#include "openapi.hpp"
#include "rr/cluster/cluster.hpp"
#include "rr/wire_order/go_encoder.hpp"

namespace rr::apiserver_detail {

namespace {

Status path_not_found() {
  Status s;
  s.message = "the server could not find the requested resource";
  s.reason = "NotFound";
  s.code = 404;
  return s;
}

// `as`: the Go struct of a document that carries no kind of its own.
HttpReply json_reply(const Json& document, std::string_view as = {}) {
  HttpReply reply;
  reply.body = as.empty() ? wire_order::encode(document) : wire_order::encode_as(as, document);
  return reply;
}

}  // namespace

RestHandler::RestHandler(std::shared_ptr<Cluster> cluster, KindCatalog& catalog, CrdController& crds,
                         FaultInjector& faults, const Authorizer& authorizer, const ServiceAccountTokens& tokens,
                         std::function<std::string()> server_address)
    : cluster_(std::move(cluster)),
      catalog_(catalog),
      crds_(crds),
      faults_(faults),
      authorizer_(authorizer),
      tokens_(tokens),
      server_address_(std::move(server_address)) {}

HttpReply RestHandler::handle(const HttpRequest& request) const {
  try {
    const Target target = split_target(request.target);
    const UserInfo user = acting_user(authorizer_, request.user, request.impersonate);
    // Admission webhooks see who writes (AdmissionRequest.userInfo).
    const RequestUserScope user_scope(RequestUser{user.name, user.uid, user.groups, user.extra});
    if (authorizer_.enforcing()) {
      RequestAttributes attributes = request_attributes(request.method, target.path, parse_route(target.path),
                                                        target.query);
      attributes.user = user;
      const Decision decision = authorizer_.authorize(attributes);
      if (!decision.allowed) return status_reply(forbidden_status(attributes, decision.reason));
    }
    return dispatch(request, user, target);
  } catch (const ApiError& e) {
    return status_reply(e.status());
  } catch (const std::exception& e) {
    return status_reply(api_errors::internal_error(e.what()));
  }
}

HttpReply RestHandler::dispatch(const HttpRequest& request, const UserInfo& user, const Target& target) const {
  const Route route = parse_route(target.path);
  if (route.endpoint == Endpoint::Resource) return resource(request, user, route, target.query);
  if (route.endpoint == Endpoint::NotFound) return status_reply(path_not_found());
  if (request.method != "GET") {
    return status_reply(api_errors::method_not_supported(target.path, request.method));
  }
  switch (route.endpoint) {
    case Endpoint::Version: return json_reply(version_document(), "io.k8s.apimachinery.pkg.version.Info");
    case Endpoint::Health: {
      HttpReply reply;
      reply.content_type = "text/plain; charset=utf-8";
      reply.body = "ok";
      return reply;
    }
    case Endpoint::LegacyVersions:
      return json_reply(legacy_versions_document(server_address_()));
    case Endpoint::GroupList:
      return json_reply(group_list_document(catalog_));
    case Endpoint::Group:
      if (auto doc = group_document(catalog_, route.group)) return json_reply(*doc);
      break;
    case Endpoint::ResourceList:
      if (auto doc = resource_list_document(catalog_, route.group, route.version)) return json_reply(*doc);
      break;
    case Endpoint::OpenApiV3Root:
      return json_reply(openapi_v3_root(catalog_, [this](const KindInfo& kind) { return crd_of(kind); }));
    case Endpoint::OpenApiV3Document:
      if (auto doc = openapi_v3_document(catalog_, route.group, route.version,
                                         [this](const KindInfo& kind) { return crd_of(kind); })) {
        return json_reply(*doc);
      }
      break;
    case Endpoint::OpenApiV2:  // not served: see docs/runtime/19-local-cluster.md (kubectl does not need it)
    case Endpoint::NotFound:
    case Endpoint::Resource:
      break;
  }
  return status_reply(path_not_found());
}

}  // namespace rr::apiserver_detail
