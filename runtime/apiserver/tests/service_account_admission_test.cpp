// The ServiceAccount admission plugin over HTTP: what a Pod create gets from it, exactly.
#include <doctest/doctest.h>

#include "test_server.hpp"

using namespace rr;
using namespace rr::apiserver_test;

namespace {

const std::string sa_pods = "/api/v1/namespaces/default/pods";
const std::string sa_accounts = "/api/v1/namespaces/default/serviceaccounts";
const char* sa_token_path = "/var/run/secrets/kubernetes.io/serviceaccount";

Json sa_pod(const std::string& name, const Json& spec_members = Json::object()) {
  Json spec = {{"containers", Json::array({{{"name", "app"}, {"image", "busybox"}}})}};
  spec.update(spec_members);
  return {{"apiVersion", "v1"}, {"kind", "Pod"}, {"metadata", {{"name", name}}}, {"spec", spec}};
}

Json sa_created(TestServer& t, const Json& object) {
  auto result = t.client()->Post(sa_pods, object.dump(), "application/json");
  REQUIRE(result);
  INFO(result->body);
  REQUIRE(result->status == 201);
  return body_of(result);
}

void sa_add_account(TestServer& t, const Json& account) {
  Json body = {{"apiVersion", "v1"}, {"kind", "ServiceAccount"}};
  body.update(account);
  auto result = t.client()->Post(sa_accounts, body.dump(), "application/json");
  REQUIRE(result);
  REQUIRE(result->status == 201);
}

// The volume upstream's TokenVolumeSource() describes, under `name`.
Json sa_token_volume(const std::string& name) {
  return Json::parse(R"({"name": ")" + name + R"(", "projected": {"defaultMode": 420, "sources": [
      {"serviceAccountToken": {"expirationSeconds": 3607, "path": "token"}},
      {"configMap": {"name": "kube-root-ca.crt", "items": [{"key": "ca.crt", "path": "ca.crt"}]}},
      {"downwardAPI": {"items": [{"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.namespace"}, "path": "namespace"}]}}
  ]}})");
}

Json sa_token_mount(const std::string& name) {
  return {{"name", name}, {"readOnly", true}, {"mountPath", sa_token_path}};
}

}  // namespace

TEST_CASE(
    "ServiceAccount admission: `default` account, the kube-api-access volume, a read-only mount in each container") {
  TestServer t;
  Json spec = {{"initContainers", Json::array({{{"name", "init"}, {"image", "busybox"}}})},
               {"containers",
                Json::array({{{"name", "app"}, {"image", "busybox"}},
                             {{"name", "own"},
                              {"image", "busybox"},
                              {"volumeMounts", Json::array({{{"name", "mine"}, {"mountPath", sa_token_path}}})}}})},
               {"volumes", Json::array({{{"name", "mine"}, {"emptyDir", Json::object()}}})}};
  const Json object = sa_created(t, sa_pod("p", spec));
  const Json& s = object["spec"];
  CHECK(s["serviceAccountName"] == "default");
  REQUIRE(s["volumes"].size() == 2);
  const std::string name = s["volumes"][1]["name"];
  REQUIRE(name.size() == std::string("kube-api-access-").size() + 5);
  CHECK(name.rfind("kube-api-access-", 0) == 0);
  CHECK(name.substr(16).find_first_not_of("bcdfghjklmnpqrstvwxz2456789") == std::string::npos);
  CHECK(s["volumes"][1] == sa_token_volume(name));
  CHECK(s["initContainers"][0]["volumeMounts"] == Json::array({sa_token_mount(name)}));
  CHECK(s["containers"][0]["volumeMounts"] == Json::array({sa_token_mount(name)}));
  // A container with its own mount at the path keeps it and gets no other.
  CHECK(s["containers"][1]["volumeMounts"] == Json::array({{{"name", "mine"}, {"mountPath", sa_token_path}}}));
  CHECK_FALSE(s.contains("imagePullSecrets"));

  // Stored as returned; a second pod gets a volume of its own name.
  CHECK(body_of(t.client()->Get(sa_pods + "/p"))["spec"] == s);
  const Json other = sa_created(t, sa_pod("q"));
  CHECK(other["spec"]["volumes"][0]["name"] != name);
}

TEST_CASE("ServiceAccount admission: an existing kube-api-access-* volume is reused, none added") {
  TestServer t;
  const Json mine = sa_token_volume("kube-api-access-mine1");
  const Json object = sa_created(t, sa_pod("p", {{"volumes", Json::array({mine})}}));
  CHECK(object["spec"]["volumes"] == Json::array({mine}));
  CHECK(object["spec"]["containers"][0]["volumeMounts"] == Json::array({sa_token_mount("kube-api-access-mine1")}));
}

TEST_CASE("ServiceAccount admission: a missing ServiceAccount is 403 Forbidden with upstream's message") {
  TestServer t;
  auto c = t.client();
  auto refused = c->Post(sa_pods, sa_pod("p", {{"serviceAccountName", "robot"}}).dump(), "application/json");
  REQUIRE(refused);
  CHECK(refused->status == 403);
  const Json status = body_of(refused);
  CHECK(status["reason"] == "Forbidden");
  CHECK(status["message"] ==
        "pods \"p\" is forbidden: error looking up service account default/robot: serviceaccount \"robot\" not found");
  CHECK(status["details"]["kind"] == "pods");
  CHECK(status["details"]["name"] == "p");
  CHECK(c->Get(sa_pods + "/p")->status == 404);

  // Another namespace without its `default` account: refused too (nothing made it there).
  Json elsewhere = sa_pod("p");
  elsewhere["metadata"]["namespace"] = "team";
  auto team = c->Post("/api/v1/namespaces/team/pods", elsewhere.dump(), "application/json");
  REQUIRE(team);
  CHECK(team->status == 403);
  CHECK(body_of(team)["message"] ==
        "pods \"p\" is forbidden: error looking up service account team/default: serviceaccount \"default\" not found");

  // Once the account exists the same pod is admitted.
  sa_add_account(t, {{"metadata", {{"name", "robot"}}}});
  CHECK(sa_created(t, sa_pod("p", {{"serviceAccountName", "robot"}}))["spec"]["serviceAccountName"] == "robot");
}

TEST_CASE("ServiceAccount admission: automountServiceAccountToken false, the pod's before the account's") {
  TestServer t;
  const Json off = sa_created(t, sa_pod("off", {{"automountServiceAccountToken", false}}));
  CHECK_FALSE(off["spec"].contains("volumes"));
  CHECK_FALSE(off["spec"]["containers"][0].contains("volumeMounts"));
  CHECK(off["spec"]["serviceAccountName"] == "default");

  sa_add_account(t, {{"metadata", {{"name", "quiet"}}}, {"automountServiceAccountToken", false}});
  const Json quiet = sa_created(t, sa_pod("quiet", {{"serviceAccountName", "quiet"}}));
  CHECK_FALSE(quiet["spec"].contains("volumes"));
  CHECK_FALSE(quiet["spec"]["containers"][0].contains("volumeMounts"));

  const Json wants = sa_created(
      t, sa_pod("wants", {{"serviceAccountName", "quiet"}, {"automountServiceAccountToken", true}}));
  REQUIRE(wants["spec"]["volumes"].size() == 1);
  CHECK(wants["spec"]["volumes"][0] == sa_token_volume(wants["spec"]["volumes"][0]["name"]));
}

TEST_CASE("ServiceAccount admission: imagePullSecrets from the account; enforce-mountable-secrets") {
  TestServer t;
  sa_add_account(t, {{"metadata", {{"name", "puller"}}}, {"imagePullSecrets", Json::array({{{"name", "registry"}}})}});
  CHECK(sa_created(t, sa_pod("a", {{"serviceAccountName", "puller"}}))["spec"]["imagePullSecrets"] ==
        Json::array({{{"name", "registry"}}}));
  // The pod's own list stays.
  CHECK(sa_created(
            t, sa_pod("b", {{"serviceAccountName", "puller"},
                            {"imagePullSecrets", Json::array({{{"name", "mine"}}})}}))["spec"]["imagePullSecrets"] ==
        Json::array({{{"name", "mine"}}}));

  sa_add_account(
      t, {{"metadata", {{"name", "strict"}, {"annotations", {{"kubernetes.io/enforce-mountable-secrets", "true"}}}}},
          {"secrets", Json::array({{{"name", "allowed"}}})}});
  Json spec = {{"serviceAccountName", "strict"},
               {"volumes", Json::array({{{"name", "s"}, {"secret", {{"secretName", "other"}}}}})}};
  auto refused = t.client()->Post(sa_pods, sa_pod("c", spec).dump(), "application/json");
  REQUIRE(refused);
  CHECK(refused->status == 403);
  CHECK(body_of(refused)["message"] ==
        "pods \"c\" is forbidden: volume with secret.secretName=\"other\" is not allowed because service account "
        "strict does not reference that secret");
  spec["volumes"][0]["secret"]["secretName"] = "allowed";
  CHECK(sa_created(t, sa_pod("c", spec))["spec"]["serviceAccountName"] == "strict");
}

TEST_CASE("ServiceAccount admission: a mirror pod is not changed, and may not name an account") {
  TestServer t;
  Json mirror = sa_pod("static-web");
  mirror["metadata"]["annotations"] = {{"kubernetes.io/config.mirror", "abc"}};
  mirror["spec"]["nodeName"] = "node-1";  // a mirror pod names its node
  const Json object = sa_created(t, mirror);
  CHECK_FALSE(object["spec"].contains("serviceAccountName"));
  CHECK_FALSE(object["spec"].contains("volumes"));

  mirror["metadata"]["name"] = "static-db";
  mirror["spec"]["serviceAccountName"] = "default";
  auto refused = t.client()->Post(sa_pods, mirror.dump(), "application/json");
  REQUIRE(refused);
  CHECK(refused->status == 403);
  CHECK(body_of(refused)["message"] ==
        "pods \"static-db\" is forbidden: a mirror pod may not reference service accounts");
}
