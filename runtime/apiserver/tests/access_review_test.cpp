// The access reviews over HTTP, and RBAC enforcement: who a request is (development admin,
// static token, client certificate, impersonation) and the 403 Status of a denial.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include <openssl/pem.h>

#include "rr/apiserver/dev_certificates.hpp"
#include "test_server.hpp"

using namespace rr;
using namespace rr::apiserver_test;

namespace {

const char* ssar_path = "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews";
const char* rules_path = "/apis/authorization.k8s.io/v1/selfsubjectrulesreviews";

Json access_review(const std::string& verb, const std::string& resource, const std::string& ns,
                   const std::string& group = "") {
  return Json{
      {"apiVersion", "authorization.k8s.io/v1"},
      {"kind", "SelfSubjectAccessReview"},
      {"spec",
       {{"resourceAttributes", {{"verb", verb}, {"resource", resource}, {"namespace", ns}, {"group", group}}}}}};
}

const std::string secret_role = R"({"apiVersion":"rbac.authorization.k8s.io/v1","kind":"Role",
  "metadata":{"name":"secret-reader","namespace":"shop"},
  "rules":[{"apiGroups":[""],"resources":["secrets"],"verbs":["get","list"]}]})";
const std::string secret_binding = R"({"apiVersion":"rbac.authorization.k8s.io/v1","kind":"RoleBinding",
  "metadata":{"name":"app-reads-secrets","namespace":"shop"},
  "roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"Role","name":"secret-reader"},
  "subjects":[{"kind":"ServiceAccount","name":"app","namespace":"shop"}]})";

ApiServerOptions rbac_with_tokens() {
  ApiServerOptions options;
  options.authorization = AuthorizationMode::RBAC;
  options.static_tokens = {StaticToken{"admin-token", "root", {"system:masters"}},
                           StaticToken{"jane-token", "jane", {"developers"}}};
  return options;
}

httplib::Headers bearer(const std::string& token) { return {{"Authorization", "Bearer " + token}}; }

void create_namespace(httplib::Client& c, const httplib::Headers& headers, const std::string& name) {
  const auto created = c.Post("/api/v1/namespaces", headers,
                              R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":")" + name + R"("}})",
                              "application/json");
  REQUIRE(created);
  REQUIRE(created->status == 201);
}

}  // namespace

TEST_CASE("discovery lists the reviews under authorization.k8s.io and authentication.k8s.io, verb create only") {
  TestServer t;
  auto c = t.client();
  const Json groups = body_of(c->Get("/apis"));
  bool authorization = false, authentication = false;
  for (const Json& group : groups["groups"]) {
    authorization = authorization || group["name"] == "authorization.k8s.io";
    authentication = authentication || group["name"] == "authentication.k8s.io";
  }
  CHECK(authorization);
  CHECK(authentication);
  const Json resources = body_of(c->Get("/apis/authorization.k8s.io/v1"));
  REQUIRE(resources["resources"].is_array());
  std::set<std::string> names;
  for (const Json& resource : resources["resources"]) {
    names.insert(resource["name"].get<std::string>());
    CHECK(resource["verbs"] == Json::array({"create"}));
  }
  CHECK(names == std::set<std::string>{"localsubjectaccessreviews", "selfsubjectaccessreviews",
                                       "selfsubjectrulesreviews", "subjectaccessreviews"});
  CHECK(body_of(c->Get("/apis/authentication.k8s.io/v1"))["resources"][0]["name"] == "selfsubjectreviews");
  // Not stored: no GET.
  CHECK(c->Get(ssar_path)->status == 405);
}

TEST_CASE("AlwaysAllow: the reviews allow everything; the development admin is who asks") {
  ApiServerOptions options;
  options.authorization = AuthorizationMode::AlwaysAllow;
  TestServer t(options);
  auto c = t.client();
  const auto answered = c->Post(ssar_path, access_review("delete", "secrets", "shop").dump(), "application/json");
  REQUIRE(answered);
  CHECK(answered->status == 201);
  const Json review = body_of(answered);
  CHECK(review["kind"] == "SelfSubjectAccessReview");
  CHECK(review["status"]["allowed"] == true);
  CHECK(review["spec"]["resourceAttributes"]["verb"] == "delete");

  const Json whoami = body_of(c->Post("/apis/authentication.k8s.io/v1/selfsubjectreviews",
                                      R"({"apiVersion":"authentication.k8s.io/v1","kind":"SelfSubjectReview"})",
                                      "application/json"));
  CHECK(whoami["status"]["userInfo"]["username"] == "rrgen-admin");
  CHECK(whoami["status"]["userInfo"]["groups"] == Json::array({"system:masters", "system:authenticated"}));

  const Json rules = body_of(c->Post(rules_path, R"({"spec":{"namespace":"default"}})", "application/json"));
  CHECK(rules["status"]["resourceRules"] == Json::parse(R"([{"verbs":["*"],"apiGroups":["*"],"resources":["*"]}])"));

  const auto malformed = c->Post(ssar_path, R"({"spec":{}})", "application/json");
  CHECK(malformed->status == 422);
}

TEST_CASE("RBAC: a RoleBinding turns a service account's review from no to yes; impersonation asks as it") {
  ApiServerOptions options;
  options.authorization = AuthorizationMode::RBAC;
  TestServer t(options);
  auto c = t.client();
  const httplib::Headers as_app = {{"Impersonate-User", "system:serviceaccount:shop:app"}};
  // The development admin is in system:masters.
  CHECK(body_of(c->Post(ssar_path, access_review("list", "pods", "default").dump(),
                        "application/json"))["status"]["allowed"] == true);
  create_namespace(*c, {}, "shop");
  auto ask = [&] {
    return body_of(c->Post(ssar_path, as_app, access_review("list", "secrets", "shop").dump(), "application/json"));
  };
  CHECK(ask()["status"]["allowed"] == false);
  REQUIRE(
      c->Post("/apis/rbac.authorization.k8s.io/v1/namespaces/shop/roles", secret_role, "application/json")->status ==
      201);
  REQUIRE(c->Post("/apis/rbac.authorization.k8s.io/v1/namespaces/shop/rolebindings", secret_binding, "application/json")
              ->status == 201);
  const Json allowed = ask();
  CHECK(allowed["status"]["allowed"] == true);
  CHECK(allowed["status"]["reason"] == "RBAC: allowed by RoleBinding \"app-reads-secrets/shop\" of Role "
                                       "\"secret-reader\" to ServiceAccount \"app/shop\"");

  // The impersonated service account is in its groups and system:authenticated.
  const Json whoami = body_of(
      c->Post("/apis/authentication.k8s.io/v1/selfsubjectreviews", as_app, "{}", "application/json"));
  CHECK(whoami["status"]["userInfo"]["groups"] ==
        Json::array({"system:serviceaccounts", "system:serviceaccounts:shop", "system:authenticated"}));

  // The rules review of the service account in shop: its Role and the defaults for everyone.
  const Json rules = body_of(c->Post(rules_path, as_app, R"({"spec":{"namespace":"shop"}})", "application/json"));
  bool secrets = false;
  for (const Json& rule : rules["status"]["resourceRules"])
    secrets = secrets || rule["resources"] == Json::array({"secrets"});
  CHECK(secrets);
  CHECK_FALSE(rules["status"]["nonResourceRules"].empty());

  // A SubjectAccessReview names the user.
  const Json sar = body_of(c->Post("/apis/authorization.k8s.io/v1/subjectaccessreviews",
                                   R"({"spec":{"user":"system:serviceaccount:shop:app",
                                       "resourceAttributes":{"verb":"get","resource":"secrets","namespace":"shop","name":"s"}}})",
                                   "application/json"));
  CHECK(sar["status"]["allowed"] == true);
}

TEST_CASE("RBAC enforcement: a token user without rights gets the API server's 403 messages") {
  TestServer t(rbac_with_tokens());
  auto c = t.client();
  create_namespace(*c, bearer("admin-token"), "shop");

  const auto list = c->Get("/api/v1/namespaces/shop/secrets", bearer("jane-token"));
  REQUIRE(list);
  CHECK(list->status == 403);
  const Json status = body_of(list);
  CHECK(status["reason"] == "Forbidden");
  CHECK(status["message"] == "secrets is forbidden: User \"jane\" cannot list resource \"secrets\" in API group \"\" "
                             "in the namespace \"shop\"");
  CHECK(status["details"]["kind"] == "secrets");

  const Json named = body_of(c->Get("/apis/apps/v1/namespaces/shop/deployments/web/scale", bearer("jane-token")));
  CHECK(named["message"] ==
        "deployments.apps \"web\" is forbidden: User \"jane\" cannot get resource \"deployments/scale\" in API group "
        "\"apps\" in the namespace \"shop\"");
  CHECK(body_of(c->Get("/api/v1/nodes", bearer("jane-token")))["message"] ==
        "nodes is forbidden: User \"jane\" cannot list resource \"nodes\" in API group \"\" at the cluster scope");
  CHECK(body_of(c->Get("/logs", bearer("jane-token")))["message"] ==
        "forbidden: User \"jane\" cannot get path \"/logs\"");

  // Discovery, version and health are open to authenticated users; health and version to anyone.
  CHECK(c->Get("/api", bearer("jane-token"))->status == 200);
  CHECK(c->Get("/apis/apps/v1", bearer("jane-token"))->status == 200);
  CHECK(c->Get("/version")->status == 200);
  CHECK(c->Get("/healthz")->status == 200);
  CHECK(c->Get("/api")->status == 401);
  // Everyone may ask about themselves.
  CHECK(c->Post(ssar_path, bearer("jane-token"), access_review("get", "pods", "shop").dump(), "application/json")
            ->status == 201);

  // jane may not impersonate; system:masters may.
  const httplib::Headers jane_as_admin = {{"Authorization", "Bearer jane-token"}, {"Impersonate-User", "root"}};
  const Json refused = body_of(c->Get("/api/v1/namespaces", jane_as_admin));
  CHECK(refused["message"] ==
        "users \"root\" is forbidden: User \"jane\" cannot impersonate resource \"users\" in API group \"\" at the "
        "cluster scope");
  const httplib::Headers admin_as_jane = {{"Authorization", "Bearer admin-token"}, {"Impersonate-User", "jane"}};
  CHECK(c->Get("/api/v1/namespaces/shop/secrets", admin_as_jane)->status == 403);
  // A uid and extras travel with the impersonated user (kubectl --as-uid; auth whoami shows them).
  const httplib::Headers admin_as_jane_fully = {{"Authorization", "Bearer admin-token"},
                                                {"Impersonate-User", "jane"},
                                                {"Impersonate-Uid", "1234"},
                                                {"Impersonate-Extra-Scopes", "view"},
                                                {"Impersonate-Extra-Scopes", "edit"},
                                                {"Impersonate-Extra-example.com%2fteam", "shop"}};
  const Json review = body_of(c->Post("/apis/authentication.k8s.io/v1/selfsubjectreviews", admin_as_jane_fully,
                                      R"({"apiVersion":"authentication.k8s.io/v1","kind":"SelfSubjectReview"})",
                                      "application/json"));
  CHECK(review["status"]["userInfo"] ==
        Json::parse(R"({"username":"jane","uid":"1234","groups":["system:authenticated"],
                        "extra":{"example.com/team":["shop"],"scopes":["view","edit"]}})"));
  // jane may not impersonate a uid or an extra even of herself, nor name them without a user.
  const httplib::Headers jane_uid = {{"Authorization", "Bearer jane-token"}, {"Impersonate-Uid", "1234"}};
  CHECK(c->Get("/api/v1/namespaces", jane_uid)->status == 400);
  CHECK(body_of(c->Get("/api/v1/namespaces/shop/pods", {{"Authorization", "Bearer admin-token"},
                                                        {"Impersonate-User", "jane"},
                                                        {"Impersonate-Extra-scopes", "view"}}))["code"] == 403);

  // Granted through the default edit role (aggregated from system:aggregate-to-edit and view).
  const std::string edit_binding = R"({"apiVersion":"rbac.authorization.k8s.io/v1","kind":"RoleBinding",
    "metadata":{"name":"jane-edits","namespace":"shop"},
    "roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole","name":"edit"},
    "subjects":[{"kind":"Group","name":"developers"}]})";
  REQUIRE(c->Post("/apis/rbac.authorization.k8s.io/v1/namespaces/shop/rolebindings", bearer("admin-token"),
                  edit_binding, "application/json")
              ->status == 201);
  CHECK(c->Get("/api/v1/namespaces/shop/secrets", bearer("jane-token"))->status == 200);
  CHECK(c->Get("/api/v1/namespaces/shop/pods", bearer("jane-token"))->status == 200);  // view's, via edit
  CHECK(c->Get("/api/v1/namespaces/default/secrets", bearer("jane-token"))->status == 403);
  CHECK(c->Get("/apis/rbac.authorization.k8s.io/v1/namespaces/shop/roles", bearer("jane-token"))->status == 403);
}

TEST_CASE("RBAC is the default mode; the default roles are served in both modes") {
  CHECK(ApiServerOptions{}.authorization == AuthorizationMode::RBAC);
  ApiServerOptions allow_all;
  allow_all.authorization = AuthorizationMode::AlwaysAllow;
  for (const ApiServerOptions& options : {ApiServerOptions{}, allow_all}) {
    TestServer t(options);
    auto c = t.client();
    for (const char* name : {"cluster-admin", "admin", "edit", "view", "system:discovery", "system:basic-user",
                             "system:public-info-viewer"}) {
      CAPTURE(name);
      CHECK(c->Get(std::string("/apis/rbac.authorization.k8s.io/v1/clusterroles/") + name)->status == 200);
    }
  }
}

TEST_CASE("a client certificate's CN and O are the user and groups") {
  const DevCertificates certs = make_dev_certificates("alice");
  ApiServerOptions options;
  options.tls = tls_options(certs);
  TestServer t(options);
  const std::string dir = std::filesystem::temp_directory_path() / ("rr-rbac-ca-" + std::to_string(::getpid()));
  std::ofstream(dir) << certs.ca_pem;
  BIO* cert_bio = BIO_new_mem_buf(certs.client_cert_pem.data(), static_cast<int>(certs.client_cert_pem.size()));
  X509* cert = PEM_read_bio_X509(cert_bio, nullptr, nullptr, nullptr);
  BIO_free(cert_bio);
  BIO* key_bio = BIO_new_mem_buf(certs.client_key_pem.data(), static_cast<int>(certs.client_key_pem.size()));
  EVP_PKEY* key = PEM_read_bio_PrivateKey(key_bio, nullptr, nullptr, nullptr);
  BIO_free(key_bio);
  {
    httplib::SSLClient client("127.0.0.1", t.server->port(), cert, key);
    client.set_ca_cert_path(dir.c_str());
    client.enable_server_certificate_verification(true);
    const Json whoami = body_of(
        client.Post("/apis/authentication.k8s.io/v1/selfsubjectreviews", "{}", "application/json"));
    CHECK(whoami["status"]["userInfo"]["username"] == "alice");
    CHECK(whoami["status"]["userInfo"]["groups"] == Json::array({"system:masters", "system:authenticated"}));
  }
  X509_free(cert);
  EVP_PKEY_free(key);
  std::filesystem::remove(dir);
}
