// kubectl auth can-i / whoami against the reviews, and kubectl refused by RBAC enforcement.
#include "kubectl_support.hpp"

using namespace rr;
using namespace rr::apiserver_test;

namespace {

const char* shop_rbac = R"(apiVersion: v1
kind: Namespace
metadata:
  name: shop
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: secret-reader
  namespace: shop
rules:
- apiGroups: [""]
  resources: ["secrets"]
  verbs: ["get", "list"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: app-reads-secrets
  namespace: shop
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: Role
  name: secret-reader
subjects:
- kind: ServiceAccount
  name: app
  namespace: shop
)";

// TLS, the development admin's client certificate in kubectl's kubeconfig, RBAC enforced.
ApiServerOptions rbac_options(const DevCertificates& certs) {
  ApiServerOptions options;
  options.tls = tls_options(certs);
  options.kubeconfig_user = kubeconfig_user(certs);
  options.authorization = AuthorizationMode::RBAC;
  return options;
}

}  // namespace

TEST_CASE("kubectl auth can-i: the development admin, then a service account before and after a RoleBinding") {
  SKIP_WITHOUT_KUBECTL();
  ApiServerOptions options;
  options.authorization = AuthorizationMode::RBAC;
  TestServer t(options);
  Kubectl kubectl(*t.server);

  Run admin = kubectl("auth can-i list pods");
  INFO(admin.output);
  CHECK(admin.code == 0);
  CHECK(admin.output == "yes\n");
  Run whoami = kubectl("auth whoami -o jsonpath='{.status.userInfo.username}'");
  INFO(whoami.output);
  CHECK(whoami.output == "rrgen-admin");

  const std::string as_app = " --as=system:serviceaccount:shop:app -n shop";
  Run before = kubectl("auth can-i list secrets" + as_app);
  INFO(before.output);
  CHECK(before.code == 1);
  CHECK(before.output == "no\n");

  Run applied = kubectl("apply -f " + kubectl.write("shop.yaml", shop_rbac));
  INFO(applied.output);
  REQUIRE(applied.code == 0);
  Run after = kubectl("auth can-i list secrets" + as_app);
  INFO(after.output);
  CHECK(after.code == 0);
  CHECK(after.output == "yes\n");
  CHECK(kubectl("auth can-i delete secrets" + as_app).output == "no\n");

  Run list = kubectl("auth can-i --list" + as_app);
  INFO(list.output);
  CHECK(list.code == 0);
  bool secrets = false;
  for (const auto& row : table_rows(list.output)) {
    secrets = secrets || (row.size() == 5 && row[0] == "secrets" && row[3] == "[get" && row[4] == "list]");
  }
  CHECK(secrets);
}

TEST_CASE("kubectl as a token user without rights is refused with the API server's 403") {
  SKIP_WITHOUT_KUBECTL();
  const DevCertificates certs = make_dev_certificates();
  ApiServerOptions options;
  options.tls = token_only_tls(certs);
  options.authorization = AuthorizationMode::RBAC;
  options.static_tokens = {StaticToken{"admin-token", "root", {"system:masters"}},
                           StaticToken{"jane-token", "jane", {}}};
  TestServer t(options);
  KubeconfigUser admin_user;
  admin_user.token = "admin-token";
  Kubectl admin(*t.server, &admin_user);
  REQUIRE(admin("create namespace shop").code == 0);

  KubeconfigUser jane_user;
  jane_user.name = "jane";
  jane_user.token = "jane-token";
  Kubectl jane(*t.server, &jane_user);
  Run refused = jane("get secrets -n shop");
  INFO(refused.output);
  CHECK(refused.code == 1);
  CHECK(refused.output.find("Error from server (Forbidden): secrets is forbidden: User \"jane\" cannot list resource "
                            "\"secrets\" in API group \"\" in the namespace \"shop\"") != std::string::npos);
  Run can_i = jane("auth can-i get secrets -n shop");
  CHECK(can_i.output == "no\n");
  Run impersonate = jane("get pods --as=root");
  INFO(impersonate.output);
  CHECK(impersonate.code == 1);
  CHECK(impersonate.output.find("cannot impersonate resource \"users\"") != std::string::npos);
}

TEST_CASE("kubectl create token: a ServiceAccount's forbidden get, delete and watch, and a refused escalation") {
  SKIP_WITHOUT_KUBECTL();
  const DevCertificates certs = make_dev_certificates();
  TestServer t(rbac_options(certs));
  Kubectl admin(*t.server);
  REQUIRE(admin("create namespace shop").code == 0);
  REQUIRE(admin("create serviceaccount app -n shop").code == 0);
  REQUIRE(admin("create secret generic db -n shop --from-literal=password=swordfish").code == 0);
  Run token = admin("create token app -n shop --duration=15m");
  INFO(token.output);
  REQUIRE(token.code == 0);

  KubeconfigUser app_user;
  app_user.name = "app";
  app_user.token = token.output.substr(0, token.output.find_last_not_of("\n") + 1);
  Kubectl app(*t.server, &app_user);
  CHECK(app("auth whoami -o jsonpath='{.status.userInfo.username}'").output == "system:serviceaccount:shop:app");
  const auto refused = [&](const std::string& args, const std::string& verb) {
    Run run = app(args);
    INFO(args, "\n", run.output);
    CHECK(run.code != 0);
    CHECK(run.output.find("User \"system:serviceaccount:shop:app\" cannot " + verb +
                          " resource \"secrets\" in API group \"\" in the namespace \"shop\"") != std::string::npos);
  };
  refused("get secret db -n shop", "get");

  // The account may read secrets and write roles and bindings, but not delete or watch secrets.
  Run granted = admin("apply -f " + admin.write("grant.yaml", R"(apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: reader, namespace: shop}
rules:
- apiGroups: [""]
  resources: ["secrets"]
  verbs: ["get", "list"]
- apiGroups: ["rbac.authorization.k8s.io"]
  resources: ["roles", "rolebindings"]
  verbs: ["create"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: app-reader, namespace: shop}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: reader}
subjects: [{kind: ServiceAccount, name: app, namespace: shop}]
)"));
  INFO(granted.output);
  REQUIRE(granted.code == 0);
  CHECK(app("get secret db -n shop -o jsonpath='{.data.password}'").output == "c3dvcmRmaXNo");
  refused("delete secret db -n shop", "delete");
  refused("get secrets -n shop --watch --request-timeout=5s", "watch");

  Run escalation = app("create role deleter -n shop --verb=delete --resource=secrets");
  INFO(escalation.output);
  CHECK(escalation.code != 0);
  CHECK(escalation.output.find("roles.rbac.authorization.k8s.io \"deleter\" is forbidden: user "
                               "\"system:serviceaccount:shop:app\" (groups=[\"system:serviceaccounts\" "
                               "\"system:serviceaccounts:shop\" \"system:authenticated\"]) is attempting to grant "
                               "RBAC permissions not currently held:\n{APIGroups:[\"\"], Resources:[\"secrets\"], "
                               "Verbs:[\"delete\"]}") != std::string::npos);
  Run bind_admin = app("create rolebinding app-admin -n shop --clusterrole=admin --serviceaccount=shop:app");
  INFO(bind_admin.output);
  CHECK(bind_admin.code != 0);
  CHECK(bind_admin.output.find("rolebindings.rbac.authorization.k8s.io \"app-admin\" is forbidden") !=
        std::string::npos);
  CHECK(app("create role reader-too -n shop --verb=get --resource=secrets").code == 0);  // held: allowed
}

TEST_CASE("kubectl create -f a TokenReview: who a ServiceAccount token is, and an unknown token") {
  SKIP_WITHOUT_KUBECTL();
  const DevCertificates certs = make_dev_certificates();
  TestServer t(rbac_options(certs));
  Kubectl admin(*t.server);
  REQUIRE(admin("create serviceaccount scraper").code == 0);
  Run token = admin("create token scraper");
  REQUIRE(token.code == 0);
  const std::string review = "apiVersion: authentication.k8s.io/v1\nkind: TokenReview\nspec:\n  token: ";
  // --validate=false: the local cluster publishes no OpenAPI document for the review resources.
  Run known = admin("create --validate=false -o yaml -f " +
                    admin.write("known.yaml", review + token.output.substr(0, token.output.find('\n')) + "\n"));
  INFO(known.output);
  REQUIRE(known.code == 0);
  CHECK(known.output.find("kind: TokenReview") != std::string::npos);
  CHECK(known.output.find("  authenticated: true\n") != std::string::npos);
  CHECK(known.output.find("    username: system:serviceaccount:default:scraper\n") != std::string::npos);
  CHECK(known.output.find("  audiences:\n  - https://kubernetes.default.svc.cluster.local\n") != std::string::npos);
  Run unknown = admin("create --validate=false -o yaml -f " + admin.write("unknown.yaml", review + "not-a-token\n"));
  INFO(unknown.output);
  REQUIRE(unknown.code == 0);
  CHECK(unknown.output.find("  error: invalid bearer token\n") != std::string::npos);
  CHECK(unknown.output.find("authenticated: true") == std::string::npos);
}
