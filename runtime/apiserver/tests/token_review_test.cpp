// TokenReview (authentication.k8s.io/v1) over HTTP: static and ServiceAccount tokens, audiences,
// unknown tokens, RBAC on create tokenreviews; and a SubjectAccessReview of a non-resource URL,
// the two calls a secure metrics endpoint makes (controller-runtime's metrics filter).
#include <doctest/doctest.h>

#include <set>
#include <string>

#include "rbac_objects.hpp"
#include "rr/apiserver/builtin_kinds.hpp"
#include "rr/apiserver/dev_certificates.hpp"
#include "test_server.hpp"

using namespace rr;
using namespace rr::apiserver_test;

namespace {

constexpr const char* token_reviews = "/apis/authentication.k8s.io/v1/tokenreviews";

Json token_review(const std::string& token, const Json& audiences = nullptr) {
  Json review = {{"apiVersion", "authentication.k8s.io/v1"}, {"kind", "TokenReview"}, {"spec", {{"token", token}}}};
  if (!audiences.is_null()) review["spec"]["audiences"] = audiences;
  return review;
}

struct RbacServer {
  DevCertificates certs = make_dev_certificates();
  TestServer t{[this] {
    ApiServerOptions options;
    options.tls = tls_options(certs);
    options.authorization = AuthorizationMode::RBAC;
    options.static_tokens = {{"admin-token", "admin", {"system:masters"}}};
    return options;
  }()};
  httplib::SSLClient client{"127.0.0.1", t.server->port()};

  RbacServer() { client.enable_server_certificate_verification(false); }

  httplib::Result post(const std::string& path, const std::string& token, const Json& body) {
    return client.Post(path, httplib::Headers{{"Authorization", "Bearer " + token}}, body.dump(), "application/json");
  }
  Json create(const std::string& path, const Json& body) {
    auto answer = post(path, "admin-token", body);
    REQUIRE(answer);
    INFO(answer->body);
    REQUIRE(answer->status == 201);
    return body_of(answer);
  }
  std::string token_for(const std::string& account, const Json& spec = Json::object()) {
    create("/api/v1/namespaces/default/serviceaccounts",
           Json{{"apiVersion", "v1"}, {"kind", "ServiceAccount"}, {"metadata", {{"name", account}}}});
    return create(
        "/api/v1/namespaces/default/serviceaccounts/" + account + "/token",
        Json{{"apiVersion", "authentication.k8s.io/v1"}, {"kind", "TokenRequest"}, {"spec", spec}})["status"]["token"];
  }
  void bind_cluster_role(const std::string& name, const Json& rules, const std::string& account) {
    create("/apis/rbac.authorization.k8s.io/v1/clusterroles", cluster_role_object(name, rules));
    create("/apis/rbac.authorization.k8s.io/v1/clusterrolebindings",
           cluster_role_binding_object(name, name, default_service_account(account)));
  }
};

}  // namespace

TEST_CASE("TokenReview: who a ServiceAccount token or a static token is, as the API server answers") {
  RbacServer s;
  const std::string token = s.token_for("metrics");
  const std::string uid = body_of(
      s.client.Get("/api/v1/namespaces/default/serviceaccounts/metrics",
                   httplib::Headers{{"Authorization", "Bearer admin-token"}}))["metadata"]["uid"];

  const Json account = s.create(token_reviews, token_review(token));
  CHECK(account["kind"] == "TokenReview");
  CHECK(account["status"]["authenticated"] == true);
  CHECK(account["status"]["user"]["username"] == "system:serviceaccount:default:metrics");
  CHECK(account["status"]["user"]["uid"] == uid);
  CHECK(account["status"]["user"]["groups"] ==
        Json::array({"system:serviceaccounts", "system:serviceaccounts:default", "system:authenticated"}));
  CHECK(account["status"]["audiences"] == Json::array({"https://kubernetes.default.svc.cluster.local"}));
  CHECK_FALSE(account["status"].contains("error"));

  const Json admin = s.create(token_reviews, token_review("admin-token"));
  CHECK(admin["status"]["authenticated"] == true);
  CHECK(admin["status"]["user"]["username"] == "admin");
  CHECK(admin["status"]["user"]["groups"] == Json::array({"system:masters", "system:authenticated"}));

  SUBCASE("an unknown token: not authenticated, no user, the bearer-token authenticator's error") {
    const Json unknown = s.create(token_reviews, token_review("not-a-token"));
    CHECK_FALSE(unknown["status"].value("authenticated", false));
    CHECK(unknown["status"]["user"] == Json::object());
    CHECK(unknown["status"]["error"] == "invalid bearer token");
  }
  SUBCASE("audiences: a token is reviewed for those it names") {
    const std::string vault = s.token_for("vault-reader", Json{{"audiences", {"vault"}}});
    CHECK_FALSE(s.create(token_reviews, token_review(vault))["status"].value("authenticated", false));
    const Json for_vault = s.create(token_reviews, token_review(vault, Json::array({"vault", "other"})));
    CHECK(for_vault["status"]["authenticated"] == true);
    CHECK(for_vault["status"]["audiences"] == Json::array({"vault"}));
    // A static token knows no audience but the API server's.
    CHECK_FALSE(s.create(token_reviews, token_review("admin-token", Json::array({"vault"})))["status"].value(
        "authenticated", false));
  }
  SUBCASE("a pod-bound token names its pod in extra") {
    s.create("/api/v1/namespaces/default/pods",
             Json{{"apiVersion", "v1"},
                  {"kind", "Pod"},
                  {"metadata", {{"name", "worker"}}},
                  {"spec", {{"containers", {{{"name", "c"}, {"image", "busybox"}}}}}}});
    const std::string bound = s.token_for("bound", Json{{"boundObjectRef", {{"kind", "Pod"}, {"name", "worker"}}}});
    const Json review = s.create(token_reviews, token_review(bound));
    CHECK(review["status"]["user"]["extra"]["authentication.kubernetes.io/pod-name"] == Json::array({"worker"}));
  }
  SUBCASE("bad requests") {
    auto no_token = s.post(token_reviews, "admin-token", Json{{"kind", "TokenReview"}, {"spec", Json::object()}});
    REQUIRE(no_token);
    CHECK(no_token->status == 400);
    CHECK(body_of(no_token)["message"] == "token is required for TokenReview in authentication");
    CHECK(s.client.Get(token_reviews, httplib::Headers{{"Authorization", "Bearer admin-token"}})->status == 405);
  }
}

TEST_CASE("TokenReview under RBAC: create tokenreviews is needed; discovery lists the resource") {
  RbacServer s;
  const std::string token = s.token_for("metrics");
  auto denied = s.post(token_reviews, token, token_review("admin-token"));
  REQUIRE(denied);
  CHECK(denied->status == 403);
  CHECK(body_of(denied)["message"] ==
        "tokenreviews.authentication.k8s.io is forbidden: User \"system:serviceaccount:default:metrics\" cannot "
        "create resource \"tokenreviews\" in API group \"authentication.k8s.io\" at the cluster scope");
  s.bind_cluster_role(
      "metrics-auth-role",
      Json::array(
          {{{"apiGroups", {"authentication.k8s.io"}}, {"resources", {"tokenreviews"}}, {"verbs", {"create"}}},
           {{"apiGroups", {"authorization.k8s.io"}}, {"resources", {"subjectaccessreviews"}}, {"verbs", {"create"}}}}),
      "metrics");
  auto allowed = s.post(token_reviews, token, token_review("admin-token"));
  REQUIRE(allowed);
  CHECK(allowed->status == 201);
  CHECK(body_of(allowed)["status"]["user"]["username"] == "admin");

  std::set<std::string> names;
  const Json discovery = body_of(
      s.client.Get("/apis/authentication.k8s.io/v1", httplib::Headers{{"Authorization", "Bearer admin-token"}}));
  for (const Json& resource : discovery["resources"]) {
    names.insert(resource["name"].get<std::string>());
    if (resource["name"] == "tokenreviews") {
      CHECK(resource["verbs"] == Json::array({"create"}));
      CHECK(resource["namespaced"] == false);
      CHECK(resource["kind"] == "TokenReview");
    }
  }
  CHECK(names == std::set<std::string>{"selfsubjectreviews", "tokenreviews"});
}

TEST_CASE("SubjectAccessReview of a non-resource URL: get /metrics for a ServiceAccount bound to metrics-reader") {
  RbacServer s;
  s.token_for("scraper");
  s.bind_cluster_role("metrics-reader", Json::array({{{"nonResourceURLs", {"/metrics"}}, {"verbs", {"get"}}}}),
                      "scraper");
  const auto review = [&](const std::string& path, const std::string& verb) {
    return s.create("/apis/authorization.k8s.io/v1/subjectaccessreviews",
                    Json{{"apiVersion", "authorization.k8s.io/v1"},
                         {"kind", "SubjectAccessReview"},
                         {"spec",
                          {{"nonResourceAttributes", {{"path", path}, {"verb", verb}}},
                           {"user", "system:serviceaccount:default:scraper"},
                           {"groups", {"system:serviceaccounts", "system:authenticated"}}}}})["status"];
  };
  CHECK(review("/metrics", "get")["allowed"] == true);
  CHECK(review("/metrics", "post")["allowed"] == false);
  CHECK(review("/metricsx", "get")["allowed"] == false);
}
