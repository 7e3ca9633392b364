// OwnerReferencesPermissionEnforcement under RBAC: blockOwnerDeletion needs update on the owner's
// finalizers, changing owner references needs delete on the object.
#include <doctest/doctest.h>

#include "test_server.hpp"

using namespace rr;
using namespace rr::apiserver_test;

namespace {

Json owned_config_map(const std::string& name, const Json& owner_references = Json()) {
  Json object = {{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"name", name}, {"namespace", "default"}}}};
  if (!owner_references.is_null()) object["metadata"]["ownerReferences"] = owner_references;
  return object;
}

Json rbac_object(const std::string& kind, const std::string& name, const Json& body) {
  Json object = {{"apiVersion", "rbac.authorization.k8s.io/v1"},
                 {"kind", kind},
                 {"metadata", {{"name", name}, {"namespace", "default"}}}};
  object.update(body);
  return object;
}

}  // namespace

TEST_CASE("owner references under RBAC: blockOwnerDeletion needs the owner's finalizers, a change needs delete") {
  ApiServerOptions options;
  options.authorization = AuthorizationMode::RBAC;
  options.static_tokens = {{"admin-token", "admin", {"system:masters"}}, {"bob-token", "bob", {}}};
  TestServer t(options);
  auto client = t.client();
  auto send = [&](const std::string& token, const std::string& method, const std::string& path, const Json& body) {
    const httplib::Headers headers{{"Authorization", "Bearer " + token}};
    auto result = method == "POST"    ? client->Post(path, headers, body.dump(), "application/json")
                  : method == "PATCH" ? client->Patch(path, headers, body.dump(), "application/merge-patch+json")
                                      : client->Put(path, headers, body.dump(), "application/json");
    REQUIRE(result);
    return std::make_pair(result->status, body_of(result));
  };
  const std::string config_maps = "/api/v1/namespaces/default/configmaps";
  const std::string roles = "/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles";
  const std::string bindings = "/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings";
  const auto [owner_code, owner] = send("admin-token", "POST", config_maps, owned_config_map("owner"));
  REQUIRE(owner_code == 201);
  auto reference = [&, owner = owner](bool block) {
    return Json::array({{{"apiVersion", "v1"},
                         {"kind", "ConfigMap"},
                         {"name", "owner"},
                         {"uid", owner["metadata"]["uid"]},
                         {"controller", true},
                         {"blockOwnerDeletion", block}}});
  };
  Json writer_rules = Json::array(
      {{{"apiGroups", {""}}, {"resources", {"configmaps"}}, {"verbs", {"get", "create", "update", "patch"}}}});
  REQUIRE(send("admin-token", "POST", roles, rbac_object("Role", "writer", {{"rules", writer_rules}})).first == 201);
  REQUIRE(send("admin-token", "POST", bindings,
               rbac_object(
                   "RoleBinding", "bob-writer",
                   {{"roleRef", {{"apiGroup", "rbac.authorization.k8s.io"}, {"kind", "Role"}, {"name", "writer"}}},
                    {"subjects", {{{"kind", "User"}, {"name", "bob"}, {"apiGroup", "rbac.authorization.k8s.io"}}}}}))
              .first == 201);

  // A reference that does not block: creating is enough.
  CHECK(send("bob-token", "POST", config_maps, owned_config_map("plain", reference(false))).first == 201);
  // A blocking one needs update on configmaps/finalizers of the owner.
  const auto [blocked_code, blocked] = send("bob-token", "POST", config_maps,
                                            owned_config_map("child", reference(true)));
  CHECK(blocked_code == 403);
  CHECK(blocked["message"] ==
        "configmaps \"child\" is forbidden: cannot set blockOwnerDeletion if an ownerReference refers to a resource "
        "you can't set finalizers on: , <nil>");
  // Changing the references of an existing object needs delete on it.
  const auto [change_code, change] = send("bob-token", "PATCH", config_maps + "/plain",
                                          Json{{"metadata", {{"ownerReferences", nullptr}}}});
  CHECK(change_code == 403);
  CHECK(change["message"] ==
        "configmaps \"plain\" is forbidden: cannot set an ownerRef on a resource you can't delete: , <nil>");
  // Edits that leave the references alone need neither.
  CHECK(send("bob-token", "PATCH", config_maps + "/plain", Json{{"data", {{"a", "b"}}}}).first == 200);

  writer_rules.push_back({{"apiGroups", {""}}, {"resources", {"configmaps/finalizers"}}, {"verbs", {"update"}}});
  writer_rules[0]["verbs"].push_back("delete");
  REQUIRE(send("admin-token", "PATCH", roles + "/writer", Json{{"rules", writer_rules}}).first == 200);
  CHECK(send("bob-token", "POST", config_maps, owned_config_map("child", reference(true))).first == 201);
  CHECK(send("bob-token", "PATCH", config_maps + "/plain", Json{{"metadata", {{"ownerReferences", nullptr}}}}).first ==
        200);
}
