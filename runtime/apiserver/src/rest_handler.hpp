// The Kubernetes REST API over an rr::Cluster, one request at a time: routing, discovery,
// OpenAPI, resource verbs, Status errors, fault injection. Thread-safe (the cluster, catalog,
// CRD controller and fault injector are).
#pragma once
#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "access_reviews.hpp"
#include "authorization.hpp"
#include "crd_controller.hpp"
#include "crd_conversion.hpp"
#include "faults.hpp"
#include "http_types.hpp"
#include "kind_catalog.hpp"
#include "media_negotiation.hpp"
#include "query.hpp"
#include "route.hpp"
#include "rr/node/pod_logs.hpp"
#include "scale_subresource.hpp"
#include "service_account_tokens.hpp"
#include "table.hpp"
#include "token_review.hpp"

namespace rr {
class Cluster;
}

namespace rr::apiserver_detail {

// What a GET answers, from its Accept header (media_negotiation.hpp) and, for a Table, its query.
struct ResponseForm {
  OutputMedia media{};
  TableOptions table{};  // when media.form is Table
};

class RestHandler {
 public:
  RestHandler(std::shared_ptr<Cluster> cluster, KindCatalog& catalog, CrdController& crds, FaultInjector& faults,
              const Authorizer& authorizer, const ServiceAccountTokens& tokens,
              std::function<std::string()> server_address);

  // Never throws: failures become Status replies. The request runs as its user, or as the one it
  // impersonates; with RBAC enforced, only when authorised (403 Status otherwise).
  HttpReply handle(const HttpRequest& request) const;
  // Where pods/log reads (a node agent); none: every pod's log is empty.
  void set_pod_logs(std::shared_ptr<node::PodLogSource> source);
  // What TokenReview asks about: the server's bearer-token authentication (set before serving).
  void set_token_authenticator(TokenAuthenticator authenticate) { token_authenticator_ = std::move(authenticate); }

 private:
  HttpReply dispatch(const HttpRequest& request, const UserInfo& user, const Target& target) const;
  HttpReply resource(const HttpRequest& request, const UserInfo& user, const Route& route,
                     const QueryParams& params) const;
  // POST of a review resource: answered, not stored.
  HttpReply review(const HttpRequest& request, const UserInfo& user, const ReviewResource& resource,
                   const Route& route) const;
  // `form`: what the Accept header asked the answer to be (the object, a Table, its metadata).
  HttpReply read(const HttpRequest& request, const KindInfo& kind, const Route& route, RequestQuery query,
                 const ResponseForm& form) const;
  HttpReply watch(const KindInfo& kind, RequestQuery query, const ResponseForm& form) const;
  // An object or list in the form asked (406 for metadata of the wrong shape: a list asked as one
  // object or the other way round).
  Json shaped(const KindInfo& kind, const ResponseForm& form, const Json& object) const;
  // What a watch does to each event for the form asked; empty when nothing.
  std::function<WatchEvent(WatchEvent)> watch_shaper(const KindInfo& kind, const ResponseForm& form) const;
  // The Table columns of a kind: those of its CRD's version, or the built-in ones.
  std::vector<PrinterColumn> printer_columns(const KindInfo& kind) const;
  HttpReply create(const KindInfo& kind, const Route& route, const RequestQuery& query, const HttpRequest& request) const;
  HttpReply replace(const KindInfo& kind, const Route& route, const RequestQuery& query, const HttpRequest& request) const;
  HttpReply patch(const KindInfo& kind, const Route& route, const RequestQuery& query, const HttpRequest& request) const;
  void authorize_apply_create(const HttpRequest& request, const UserInfo& user, const KindInfo& kind,
                              const Route& route) const;
  HttpReply remove(const KindInfo& kind, const Route& route, const RequestQuery& query, const HttpRequest& request) const;
  HttpReply remove_collection(const KindInfo& kind, const Route& route, const RequestQuery& query,
                              const HttpRequest& request) const;
  // A request for a version of a custom resource other than its CRD's storage version
  // (conversion_handler.cpp): the storage version's kind stores, objects converted both ways.
  HttpReply converted(const HttpRequest& request, const UserInfo& user, const KindInfo& kind, const KindInfo& storage,
                      const CrdConversion& conversion, const Route& route, RequestQuery query,
                      const ResponseForm& form) const;
  // The CustomResourceDefinition that declares a kind; nullopt for a built-in kind (or a CRD gone).
  std::optional<Json> crd_of(const KindInfo& kind) const;
  // The scale subresource: where a kind keeps its replicas (nullopt: it has none).
  std::optional<ScalePaths> scale_paths(const KindInfo& kind) const;
  HttpReply scale(const HttpRequest& request, const KindInfo& kind, const ScalePaths& paths, const Route& route,
                  const RequestQuery& query) const;
  // POST serviceaccounts/<name>/token: a TokenRequest answered with a token, not stored.
  HttpReply token_request(const HttpRequest& request, const Route& route) const;
  // GET pods/<name>/log (pod_log_handler.cpp).
  HttpReply pod_log(const HttpRequest& request, const KindInfo& kind, const Route& route,
                    const QueryParams& params) const;
  // With RBAC enforced, before a create, update or patch: the checks that depend on who writes what
  // (escalation through roles and bindings, permission to set owner references), run on the object
  // the write would store (a patch is tried as a dry run first).
  void admit_write_as(const HttpRequest& request, const UserInfo& user, const KindInfo& kind, const Route& route,
                      const RequestQuery& query) const;
  // After a write to a CRD: serve (or stop serving) what it declares.
  void after_write(const KindInfo& kind, const std::string& name, bool dry_run) const;

  std::shared_ptr<Cluster> cluster_;
  KindCatalog& catalog_;
  CrdController& crds_;
  FaultInjector& faults_;
  const Authorizer& authorizer_;
  const ServiceAccountTokens& tokens_;
  std::function<std::string()> server_address_;
  struct PodLogs {
    std::mutex mutex;
    std::shared_ptr<node::PodLogSource> source;
  };
  std::unique_ptr<PodLogs> pod_logs_ = std::make_unique<PodLogs>();
  TokenAuthenticator token_authenticator_;
};

// The namespace of the path is the object's (set when the body has none; 400 when it differs).
void place_in_namespace(const KindInfo& kind, const Route& route, Json& object);
// The WriteOptions of a write's query; the server's warnings go to `warnings`.
WriteOptions write_options(const RequestQuery& query, std::vector<std::string>* warnings = nullptr);
// Each warning as an HTTP Warning header (299, agent "-", the text quoted as Go does).
HttpReply with_warnings(HttpReply reply, const std::vector<std::string>& warnings);

// 400 when the body's apiVersion is not the one of the request's path.
void check_api_version(const Json& object, const std::string& expected);

// The PatchType of a PATCH Content-Type (parameters such as "; charset=utf-8" ignored).
std::optional<PatchType> patch_type_of(std::string_view content_type);
// The 415 of a PATCH whose Content-Type is none of the four patch types.
Status unsupported_patch_type();
// The status code of a PATCH's reply: 201 for an apply that creates the object (asked before the
// write: the object is not stored yet), 200 otherwise.
int patch_reply_code(const Cluster& cluster, const KindInfo& kind, const ObjectKey& key, PatchType type,
                     std::string_view subresource);
// DeleteOptions from a request body (JSON or YAML; empty = none) and the query; 400 on a bad
// body, 415 on another content type.
DeleteOptions delete_options_of(std::string_view content_type, const std::string& body, const RequestQuery& query);
// The checks of ListOptions the API server makes (422 Invalid on ListOptions.meta.k8s.io).
// watch_list_enabled false: a watch with sendInitialEvents is refused (FaultOptions::refuse_watch_list).
void validate_list_options(const RequestQuery& query, bool watch_list_enabled = true);
// ?resourceVersion= as the storage reads it on a get, list or watch: a malformed one is the API
// server's reasonless 500 (rr/client/resource_version.hpp).
void check_query_resource_version(const std::string& rv);

}  // namespace rr::apiserver_detail
