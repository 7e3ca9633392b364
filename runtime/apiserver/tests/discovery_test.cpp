#include <doctest/doctest.h>

#include <algorithm>

#include "kind_catalog.hpp"
#include "test_server.hpp"

using namespace rr;
using namespace rr::apiserver_test;

namespace {

const Json* resource_named(const Json& list, const std::string& name) {
  for (const Json& r : list["resources"]) {
    if (r["name"] == name) return &r;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("version, health and the legacy /api document") {
  TestServer t;
  auto c = t.client();
  Json version = body_of(c->Get("/version"));
  CHECK(version["major"] == "1");
  CHECK(version["minor"] == "35");
  auto health = c->Get("/healthz");
  REQUIRE(health);
  CHECK(health->status == 200);
  CHECK(health->body == "ok");
  Json api = body_of(c->Get("/api"));
  CHECK(api["kind"] == "APIVersions");
  CHECK(api["versions"] == Json::array({"v1"}));
}

TEST_CASE("/apis answers a plain APIGroupList (client-go then falls back to legacy discovery)") {
  TestServer t;
  auto c = t.client();
  httplib::Headers aggregated = {{"Accept",
                                  "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,"
                                  "application/json"}};
  auto res = c->Get("/apis", aggregated);
  REQUIRE(res);
  CHECK(res->get_header_value("Content-Type") == "application/json");
  Json groups = body_of(res);
  CHECK(groups["kind"] == "APIGroupList");
  std::vector<std::string> names;
  for (const Json& g : groups["groups"]) names.push_back(g["name"]);
  for (const char* expected : {"apps", "rbac.authorization.k8s.io", "apiextensions.k8s.io", "events.k8s.io",
                               "coordination.k8s.io"}) {
    CHECK(std::find(names.begin(), names.end(), expected) != names.end());
  }
  Json apps = body_of(c->Get("/apis/apps"));
  CHECK(apps["kind"] == "APIGroup");
  CHECK(apps["preferredVersion"]["groupVersion"] == "apps/v1");
}

TEST_CASE("APIResourceList: verbs, namespaced, kind, singular and short names, status subresources") {
  TestServer t;
  auto c = t.client();
  Json core = body_of(c->Get("/api/v1"));
  CHECK(core["groupVersion"] == "v1");
  const Json* cm = resource_named(core, "configmaps");
  REQUIRE(cm);
  CHECK((*cm)["kind"] == "ConfigMap");
  CHECK((*cm)["singularName"] == "configmap");
  CHECK((*cm)["namespaced"] == true);
  CHECK((*cm)["shortNames"] == Json::array({"cm"}));
  CHECK((*cm)["verbs"].size() == 8);
  const Json* ns = resource_named(core, "namespaces");
  REQUIRE(ns);
  CHECK((*ns)["namespaced"] == false);
  CHECK((*ns)["shortNames"] == Json::array({"ns"}));
  const Json* pod_status = resource_named(core, "pods/status");
  REQUIRE(pod_status);
  CHECK((*pod_status)["verbs"] == Json::array({"get", "patch", "update"}));
  const Json* pod_log = resource_named(core, "pods/log");
  REQUIRE(pod_log);
  CHECK((*pod_log)["verbs"] == Json::array({"get"}));
  CHECK((*pod_log)["kind"] == "Pod");
  for (const char* sa : {"services", "serviceaccounts", "events", "secrets", "pods"}) CHECK(resource_named(core, sa));

  Json apps = body_of(c->Get("/apis/apps/v1"));
  const Json* deploy = resource_named(apps, "deployments");
  REQUIRE(deploy);
  CHECK((*deploy)["shortNames"] == Json::array({"deploy"}));
  CHECK(resource_named(apps, "deployments/status"));

  Json crds = body_of(c->Get("/apis/apiextensions.k8s.io/v1"));
  const Json* crd = resource_named(crds, "customresourcedefinitions");
  REQUIRE(crd);
  CHECK((*crd)["shortNames"] == Json::array({"crd", "crds"}));
  CHECK((*crd)["namespaced"] == false);

  CHECK(c->Get("/apis/nothing.example/v1")->status == 404);
  CHECK(c->Get("/apis/nothing.example")->status == 404);
}

TEST_CASE("OpenAPI v3 advertises fieldValidation on every kind's PATCH: v2 is not served") {
  TestServer t;
  auto c = t.client();
  Json root = body_of(c->Get("/openapi/v3"));
  REQUIRE(root["paths"].contains("api/v1"));
  REQUIRE(root["paths"].contains("apis/apps/v1"));
  const std::string url = root["paths"]["apis/apps/v1"]["serverRelativeURL"];
  CHECK(url.rfind("/openapi/v3/apis/apps/v1?hash=", 0) == 0);
  Json doc = body_of(c->Get(url));
  const Json& patch = doc["paths"]["/apis/apps/v1/namespaces/{namespace}/deployments/{name}"]["patch"];
  CHECK(patch["x-kubernetes-group-version-kind"] == Json{{"group", "apps"}, {"version", "v1"}, {"kind", "Deployment"}});
  bool field_validation = false;
  for (const Json& p : patch["parameters"]) field_validation |= p["name"] == "fieldValidation" && p["in"] == "query";
  CHECK(field_validation);
  Json core = body_of(c->Get("/openapi/v3/api/v1"));
  CHECK(core["paths"].contains("/api/v1/namespaces/{name}"));
  CHECK(c->Get("/openapi/v2")->status == 404);
}

TEST_CASE("unknown paths are a 404 Status, wrong methods a 405") {
  TestServer t;
  auto c = t.client();
  auto missing = c->Get("/nothing/here");
  REQUIRE(missing);
  CHECK(missing->status == 404);
  Json status = body_of(missing);
  CHECK(status["kind"] == "Status");
  CHECK(status["reason"] == "NotFound");
  CHECK(status["code"] == 404);
  CHECK(c->Post("/api", "{}", "application/json")->status == 405);
  CHECK(c->Delete("/version")->status == 405);
}

TEST_CASE("version priority: GA, then beta, then alpha, then others alphabetically") {
  using apiserver_detail::version_precedes;
  std::vector<std::string> versions = {"v1alpha1", "foo", "v1beta1", "v2", "v1", "v1beta2", "v10alpha3", "bar"};
  std::sort(versions.begin(), versions.end(), version_precedes);
  CHECK(versions == std::vector<std::string>{"v2", "v1", "v1beta2", "v1beta1", "v10alpha3", "v1alpha1", "bar", "foo"});
}

TEST_CASE("every stored kind of Kubernetes 1.35 is discovered, with the verbs, names and subresources of its facts") {
  TestServer t;
  auto c = t.client();
  const Json groups = body_of(c->Get("/apis"));
  std::size_t group_versions = 1;  // the core group's v1
  for (const Json& g : groups["groups"]) group_versions += g["versions"].size();
  // The 36 group-versions of schemas/kubernetes-1.35/: authentication.k8s.io/v1 and
  // authorization.k8s.io/v1 with their create-only reviews, answered but not stored.
  CHECK(group_versions == 36);
  CHECK(c->Get("/apis/authorization.k8s.io/v1")->status == 200);

  const Json apps = body_of(c->Get("/apis/apps/v1"));
  const Json* sts = resource_named(apps, "statefulsets");
  REQUIRE(sts);
  CHECK((*sts)["shortNames"] == Json::array({"sts"}));
  CHECK((*sts)["categories"] == Json::array({"all"}));
  CHECK(resource_named(apps, "statefulsets/status"));
  const Json* sts_scale = resource_named(apps, "statefulsets/scale");
  REQUIRE(sts_scale);
  CHECK((*sts_scale)["group"] == "autoscaling");
  CHECK((*sts_scale)["kind"] == "Scale");
  CHECK_FALSE(resource_named(apps, "controllerrevisions/scale"));

  const Json core = body_of(c->Get("/api/v1"));
  const Json* namespaces = resource_named(core, "namespaces");
  REQUIRE(namespaces);  // no deletecollection on namespaces
  CHECK((*namespaces)["verbs"] == Json::array({"create", "delete", "get", "list", "patch", "update", "watch"}));
  const Json* statuses = resource_named(core, "componentstatuses");
  REQUIRE(statuses);
  CHECK((*statuses)["verbs"] == Json::array({"get", "list"}));
  CHECK(resource_named(core, "persistentvolumeclaims"));
  CHECK(resource_named(core, "replicationcontrollers/scale"));

  for (const char* path : {"/apis/batch/v1", "/apis/policy/v1", "/apis/networking.k8s.io/v1",
                           "/apis/rbac.authorization.k8s.io/v1", "/apis/autoscaling/v2", "/apis/resource.k8s.io/v1"}) {
    CAPTURE(path);
    auto res = c->Get(path);
    REQUIRE(res);
    CHECK(res->status == 200);
    CHECK_FALSE(body_of(res)["resources"].empty());
  }
  const Json policy = body_of(c->Get("/apis/policy/v1"));
  const Json* pdb = resource_named(policy, "poddisruptionbudgets");
  REQUIRE(pdb);
  CHECK((*pdb)["shortNames"] == Json::array({"pdb"}));
}

TEST_CASE("a built-in write is defaulted and validated by its generated type") {
  TestServer t;
  auto c = t.client();
  const char* sts = R"({"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"db"},
    "spec":{"selector":{"matchLabels":{"app":"db"}},"serviceName":"db",
            "template":{"metadata":{"labels":{"app":"db"}},"spec":{"containers":[{"name":"db","image":"kv:1",
                        "ports":[{"containerPort":6379}]}]}}}})";
  auto created = c->Post("/apis/apps/v1/namespaces/default/statefulsets", sts, "application/json");
  REQUIRE(created);
  CHECK(created->status == 201);
  // protocol: TCP is the schema's declared default of a container port.
  CHECK(body_of(created)["spec"]["template"]["spec"]["containers"][0]["ports"][0]["protocol"] == "TCP");

  // A Service gets a cluster IP, a headless one keeps "None".
  const char* svc = R"({"apiVersion":"v1","kind":"Service","metadata":{"name":"web"},"spec":{"ports":[{"port":80}]}})";
  const Json web = body_of(c->Post("/api/v1/namespaces/default/services", svc, "application/json"));
  CHECK(web["spec"]["clusterIP"].get<std::string>().rfind("10.96.", 0) == 0);
  CHECK(web["spec"]["clusterIPs"] == Json::array({web["spec"]["clusterIP"]}));
  const char* headless =
      R"({"apiVersion":"v1","kind":"Service","metadata":{"name":"db"},"spec":{"clusterIP":"None","ports":[{"port":5432}]}})";
  CHECK(body_of(c->Post("/api/v1/namespaces/default/services", headless, "application/json"))["spec"]["clusterIP"] ==
        "None");

  const char* no_containers = R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{}})";
  auto refused = c->Post("/api/v1/namespaces/default/pods", no_containers, "application/json");
  REQUIRE(refused);
  CHECK(refused->status == 422);
  CHECK(body_of(refused)["reason"] == "Invalid");
}
