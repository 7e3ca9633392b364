// ServiceAccount tokens: TokenRequest over HTTP, then the token authenticating (or not) under RBAC.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>

#include "rr/apiserver/builtin_kinds.hpp"
#include "rr/apiserver/dev_certificates.hpp"
#include "service_account_tokens.hpp"
#include "test_server.hpp"

using namespace rr;
using namespace rr::apiserver_test;
using rr::apiserver_detail::ServiceAccountTokens;

namespace {

const GroupVersionKind service_account_gvk{"", "v1", "ServiceAccount"};

KindInfo kind_of(Cluster& cluster, const GroupVersionKind& gvk) {
  auto kind = cluster.find_kind(gvk);
  REQUIRE(kind);
  return *kind;
}

void create_account(Cluster& cluster, const std::string& ns, const std::string& name) {
  cluster.create(
      kind_of(cluster, service_account_gvk),
      Json{{"apiVersion", "v1"}, {"kind", "ServiceAccount"}, {"metadata", {{"name", name}, {"namespace", ns}}}});
}

std::shared_ptr<Cluster> cluster_with_builtins() {
  auto cluster = std::make_shared<Cluster>();
  register_builtin_kinds(*cluster);
  return cluster;
}

// A token's claims: the JWT's middle part, base64url-decoded.
Json claims_of(const std::string& token) {
  const auto first = token.find('.');
  const auto second = token.find('.', first + 1);
  std::string part = token.substr(first + 1, second - first - 1);
  for (char& c : part) c = c == '-' ? '+' : c == '_' ? '/' : c;
  while (part.size() % 4 != 0) part += '=';
  auto decoded = Bytes(part).decode();
  REQUIRE(decoded);
  return Json::parse(*decoded);
}

}  // namespace

TEST_CASE("TokenRequest: a token for the account, its claims, and who it authenticates as") {
  auto cluster = cluster_with_builtins();
  auto now = std::chrono::system_clock::now();
  ServiceAccountTokens tokens(cluster, [&] { return now; });
  create_account(*cluster, "default", "builder");

  const Json answer = tokens.issue("default", "builder", Json{{"spec", {{"expirationSeconds", 1200}}}});
  CHECK(answer["kind"] == "TokenRequest");
  CHECK(answer["spec"]["audiences"] == Json::array({"https://kubernetes.default.svc.cluster.local"}));
  CHECK(answer["spec"]["expirationSeconds"] == 1200);
  const std::string token = answer["status"]["token"];
  CHECK(std::count(token.begin(), token.end(), '.') == 2);
  const Json claims = claims_of(token);
  CHECK(claims["sub"] == "system:serviceaccount:default:builder");
  CHECK(claims["kubernetes.io"]["serviceaccount"]["name"] == "builder");
  CHECK(claims["exp"].get<std::int64_t>() - claims["iat"].get<std::int64_t>() == 1200);

  const auto user = tokens.authenticate(token);
  REQUIRE(user);
  CHECK(user->name == "system:serviceaccount:default:builder");
  CHECK(user->groups ==
        std::vector<std::string>{"system:serviceaccounts", "system:serviceaccounts:default", "system:authenticated"});

  SUBCASE("expired") {
    now += std::chrono::seconds(1200);
    CHECK_FALSE(tokens.authenticate(token));
  }
  SUBCASE("tampered: another subject with the old signature") {
    std::string forged = token;
    forged[forged.find('.') + 5] ^= 1;
    CHECK_FALSE(tokens.authenticate(forged));
    CHECK_FALSE(tokens.authenticate("not-a-jwt"));
    CHECK_FALSE(tokens.authenticate("a.b.c"));
  }
  SUBCASE("another server's key") {
    ServiceAccountTokens other(cluster, [&] { return now; });
    CHECK_FALSE(other.authenticate(token));
  }
  SUBCASE("the account deleted, then recreated with a new UID") {
    cluster->remove(kind_of(*cluster, service_account_gvk), ObjectKey{"default", "builder"});
    CHECK_FALSE(tokens.authenticate(token));
    create_account(*cluster, "default", "builder");
    CHECK_FALSE(tokens.authenticate(token));
    CHECK(
        tokens.authenticate(tokens.issue("default", "builder", Json::object())["status"]["token"].get<std::string>()));
  }
  SUBCASE("a token for another audience does not authenticate to the API server") {
    const Json vault = tokens.issue("default", "builder", Json{{"spec", {{"audiences", {"vault"}}}}});
    CHECK(vault["spec"]["audiences"] == Json::array({"vault"}));
    CHECK_FALSE(tokens.authenticate(vault["status"]["token"].get<std::string>()));
  }
}

TEST_CASE("TokenRequest: validation and missing objects as the API server reports them") {
  auto cluster = cluster_with_builtins();
  ServiceAccountTokens tokens(cluster);
  create_account(*cluster, "default", "builder");
  try {
    tokens.issue("default", "builder", Json{{"spec", {{"expirationSeconds", 5}}}});
    FAIL("a five-second token was issued");
  } catch (const ApiError& e) {
    CHECK(e.status().code == 422);
    CHECK(e.status().message ==
          "TokenRequest.authentication.k8s.io \"builder\" is invalid: spec.expirationSeconds: Invalid value: 5: may "
          "not specify a duration less than 10 minutes");
  }
  try {
    tokens.issue("default", "nobody", Json::object());
    FAIL("a token for a missing account was issued");
  } catch (const ApiError& e) {
    CHECK(e.status().code == 404);
    CHECK(e.status().message == "serviceaccounts \"nobody\" not found");
  }
  try {
    tokens.issue("default", "builder", Json{{"spec", {{"boundObjectRef", {{"kind", "ConfigMap"}, {"name", "x"}}}}}});
    FAIL("a token bound to a ConfigMap was issued");
  } catch (const ApiError& e) {
    CHECK(e.status().code == 422);
  }
}

TEST_CASE("TokenRequest: a token bound to a Pod dies with the Pod") {
  auto cluster = cluster_with_builtins();
  ServiceAccountTokens tokens(cluster);
  create_account(*cluster, "default", "builder");
  const KindInfo pod = kind_of(*cluster, {"", "v1", "Pod"});
  cluster->create(pod, Json{{"apiVersion", "v1"},
                            {"kind", "Pod"},
                            {"metadata", {{"name", "worker"}, {"namespace", "default"}}},
                            {"spec", {{"containers", {{{"name", "c"}, {"image", "busybox"}}}}}}});
  const std::string token = tokens.issue(
      "default", "builder",
      Json{{"spec", {{"boundObjectRef", {{"kind", "Pod"}, {"name", "worker"}}}}}})["status"]["token"];
  CHECK(claims_of(token)["kubernetes.io"]["pod"]["name"] == "worker");
  CHECK(tokens.authenticate(token));
  cluster->remove(pod, ObjectKey{"default", "worker"});
  CHECK_FALSE(tokens.authenticate(token));
}

TEST_CASE("TokenRequest over HTTP: kubectl create token's call, then the token under RBAC") {
  const DevCertificates certs = make_dev_certificates();
  ApiServerOptions options;
  options.tls = tls_options(certs);
  options.authorization = AuthorizationMode::RBAC;
  options.static_tokens = {{"admin-token", "admin", {"system:masters"}}};
  TestServer t(options);
  create_account(*t.cluster, "default", "builder");

  httplib::SSLClient admin("127.0.0.1", t.server->port());
  admin.enable_server_certificate_verification(false);
  const httplib::Headers as_admin = {{"Authorization", "Bearer admin-token"}};
  auto issued = admin.Post("/api/v1/namespaces/default/serviceaccounts/builder/token", as_admin,
                           R"({"apiVersion":"authentication.k8s.io/v1","kind":"TokenRequest","spec":{}})",
                           "application/json");
  REQUIRE(issued);
  REQUIRE(issued->status == 201);
  const std::string token = body_of(issued)["status"]["token"];

  auto missing = admin.Post("/api/v1/namespaces/default/serviceaccounts/nobody/token", as_admin, "{}",
                            "application/json");
  REQUIRE(missing);
  CHECK(missing->status == 404);

  const httplib::Headers as_builder = {{"Authorization", "Bearer " + token}};
  auto denied = admin.Get("/api/v1/namespaces/default/configmaps", as_builder);
  REQUIRE(denied);
  CHECK(denied->status == 403);
  CHECK(body_of(denied)["message"] ==
        "configmaps is forbidden: User \"system:serviceaccount:default:builder\" cannot list resource \"configmaps\" "
        "in API group \"\" in the namespace \"default\"");
  // The account cannot mint tokens for itself either: that is create on serviceaccounts/token.
  auto self_issue = admin.Post("/api/v1/namespaces/default/serviceaccounts/builder/token", as_builder, "{}",
                               "application/json");
  REQUIRE(self_issue);
  CHECK(self_issue->status == 403);

  auto bogus = admin.Get("/api/v1/namespaces/default/configmaps", httplib::Headers{{"Authorization", "Bearer x.y.z"}});
  REQUIRE(bogus);
  CHECK(bogus->status == 401);

  auto discovery = admin.Get("/api/v1", as_admin);
  REQUIRE(discovery);
  Json listed;
  const Json v1 = body_of(discovery);
  for (const Json& resource : v1["resources"]) {
    if (resource["name"] == "serviceaccounts/token") listed = resource;
  }
  CHECK(listed.dump() ==
        R"({"group":"authentication.k8s.io","kind":"TokenRequest","name":"serviceaccounts/token","namespaced":true,)"
        R"("singularName":"","verbs":["create"],"version":"v1"})");
}
