// An apply that creates the object needs `create` as well as `patch`, as the API server's patch
// handler authorizes it; an apply to an existing object needs `patch` only.
#include <doctest/doctest.h>

#include "test_server.hpp"

using namespace rr;
using namespace rr::apiserver_test;

TEST_CASE("server-side apply under RBAC: creating needs create, changing needs patch") {
  ApiServerOptions options;
  options.authorization = AuthorizationMode::RBAC;
  options.static_tokens = {{"admin-token", "admin", {"system:masters"}},
                           {"patcher-token", "patcher", {}},
                           {"creator-token", "creator", {}}};
  TestServer t(options);
  auto client = t.client();
  auto send = [&](const std::string& token, const std::string& method, const std::string& path,
                  const std::string& body, const std::string& type) {
    const httplib::Headers headers{{"Authorization", "Bearer " + token}};
    auto result = method == "POST" ? client->Post(path, headers, body, type) : client->Patch(path, headers, body, type);
    REQUIRE(result);
    return std::make_pair(result->status, body_of(result));
  };
  const std::string rbac = "/apis/rbac.authorization.k8s.io/v1/namespaces/default/";
  auto grant = [&](const std::string& user, const Json& verbs) {
    const Json role = {{"apiVersion", "rbac.authorization.k8s.io/v1"},
                       {"kind", "Role"},
                       {"metadata", {{"name", user}, {"namespace", "default"}}},
                       {"rules", {{{"apiGroups", {""}}, {"resources", {"configmaps"}}, {"verbs", verbs}}}}};
    REQUIRE(send("admin-token", "POST", rbac + "roles", role.dump(), "application/json").first == 201);
    const Json binding = {
        {"apiVersion", "rbac.authorization.k8s.io/v1"},
        {"kind", "RoleBinding"},
        {"metadata", {{"name", user}, {"namespace", "default"}}},
        {"roleRef", {{"apiGroup", "rbac.authorization.k8s.io"}, {"kind", "Role"}, {"name", user}}},
        {"subjects", {{{"kind", "User"}, {"name", user}, {"apiGroup", "rbac.authorization.k8s.io"}}}}};
    REQUIRE(send("admin-token", "POST", rbac + "rolebindings", binding.dump(), "application/json").first == 201);
  };
  grant("patcher", {"patch"});
  grant("creator", {"create", "patch"});
  const std::string path = "/api/v1/namespaces/default/configmaps/";
  const std::string query = "?fieldManager=op";
  auto config = [](const std::string& name, const std::string& value) {
    return "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: " + name + "}\ndata: {k: " + value + "}\n";
  };
  const std::string apply = "application/apply-patch+yaml";

  // patch alone cannot bring an object into being.
  const auto [refused_code, refused] = send("patcher-token", "PATCH", path + "a" + query, config("a", "one"), apply);
  CHECK(refused_code == 403);
  CHECK(refused["reason"] == "Forbidden");
  CHECK(refused["message"].get<std::string>().rfind("configmaps \"a\" is forbidden: ", 0) == 0);
  CHECK(refused["details"]["name"] == "a");
  const auto absent = client->Get(path + "a", httplib::Headers{{"Authorization", "Bearer admin-token"}});
  REQUIRE(absent);
  CHECK(absent->status == 404);

  // create and patch: the apply creates (201); patch alone then changes it (200).
  CHECK(send("creator-token", "PATCH", path + "a" + query, config("a", "one"), apply).first == 201);
  const auto [changed_code, changed] = send("patcher-token", "PATCH", path + "a" + query, config("a", "two"), apply);
  CHECK(changed_code == 200);
  CHECK(changed["data"]["k"] == "two");
}
