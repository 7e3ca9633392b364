// The scale subresource: autoscaling/v1 Scale on the built-in kinds that have one and on custom
// resources whose CRD declares it; GET, PUT (with a resourceVersion precondition) and PATCH.
#include <doctest/doctest.h>

#include "scale_subresource.hpp"
#include "test_server.hpp"

using namespace rr;
using namespace rr::apiserver_test;

namespace {

Json deployment(const std::string& name, int replicas) {
  return Json::parse(R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":")" + name +
                     R"("},"spec":{"replicas":)" + std::to_string(replicas) +
                     R"(,"selector":{"matchLabels":{"app":"web","tier":"front"}},
                        "template":{"metadata":{"labels":{"app":"web","tier":"front"}},
                                    "spec":{"containers":[{"name":"web","image":"nginx"}]}}}})");
}

const char* kDeployments = "/apis/apps/v1/namespaces/default/deployments";

}  // namespace

TEST_CASE("GET scale of a Deployment: spec and status replicas, the selector as a string") {
  TestServer t;
  auto c = t.client();
  REQUIRE(c->Post(kDeployments, deployment("web", 3).dump(), "application/json")->status == 201);
  auto res = c->Get(std::string(kDeployments) + "/web/scale");
  REQUIRE(res);
  CHECK(res->status == 200);
  const Json scale = body_of(res);
  CHECK(scale["apiVersion"] == "autoscaling/v1");
  CHECK(scale["kind"] == "Scale");
  CHECK(scale["metadata"]["name"] == "web");
  CHECK(scale["metadata"]["namespace"] == "default");
  CHECK(scale["spec"]["replicas"] == 3);
  CHECK(scale["status"]["selector"] == "app=web,tier=front");
  CHECK(c->Get(std::string(kDeployments) + "/absent/scale")->status == 404);
}

TEST_CASE("PATCH and PUT scale change the Deployment's spec.replicas; a stale resourceVersion is 409") {
  TestServer t;
  auto c = t.client();
  REQUIRE(c->Post(kDeployments, deployment("web", 1).dump(), "application/json")->status == 201);
  const std::string scale_path = std::string(kDeployments) + "/web/scale";
  auto patched = c->Patch(scale_path, R"({"spec":{"replicas":4}})", "application/merge-patch+json");
  REQUIRE(patched);
  CHECK(patched->status == 200);
  CHECK(body_of(patched)["spec"]["replicas"] == 4);
  CHECK(body_of(c->Get(std::string(kDeployments) + "/web"))["spec"]["replicas"] == 4);

  auto json_patch = c->Patch(scale_path, R"([{"op":"replace","path":"/spec/replicas","value":2}])",
                             "application/json-patch+json");
  REQUIRE(json_patch);
  CHECK(body_of(json_patch)["spec"]["replicas"] == 2);

  Json scale = body_of(c->Get(scale_path));
  scale["spec"]["replicas"] = 5;
  auto put = c->Put(scale_path, scale.dump(), "application/json");
  REQUIRE(put);
  CHECK(put->status == 200);
  CHECK(body_of(c->Get(std::string(kDeployments) + "/web"))["spec"]["replicas"] == 5);
  auto stale = c->Put(scale_path, scale.dump(), "application/json");  // the resourceVersion of before
  REQUIRE(stale);
  CHECK(stale->status == 409);

  auto negative = c->Patch(scale_path, R"({"spec":{"replicas":-1}})", "application/merge-patch+json");
  REQUIRE(negative);
  CHECK(negative->status == 422);
  CHECK(body_of(negative)["details"]["causes"][0]["field"] == "spec.replicas");
}

TEST_CASE("a kind without a scale subresource answers 404 on /scale") {
  TestServer t;
  auto c = t.client();
  REQUIRE(
      c->Post("/api/v1/namespaces/default/configmaps", R"({"metadata":{"name":"cm"}})", "application/json")->status ==
      201);
  CHECK(c->Get("/api/v1/namespaces/default/configmaps/cm/scale")->status == 404);
}

TEST_CASE("a custom resource's scale follows its CRD's specReplicasPath, statusReplicasPath and labelSelectorPath") {
  TestServer t;
  auto c = t.client();
  const char* crd = R"({"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
    "metadata":{"name":"pools.example.rrgen.dev"},
    "spec":{"group":"example.rrgen.dev","scope":"Namespaced",
      "names":{"plural":"pools","singular":"pool","kind":"Pool"},
      "versions":[{"name":"v1","served":true,"storage":true,
        "schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}},
        "subresources":{"status":{},"scale":{"specReplicasPath":".spec.size","statusReplicasPath":".status.size",
                                           "labelSelectorPath":".status.selector"}}}]}})";
  REQUIRE(c->Post("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd, "application/json")->status == 201);
  const std::string pools = "/apis/example.rrgen.dev/v1/namespaces/default/pools";
  int created = 0;
  for (int i = 0; i < 100 && created != 201; ++i) {  // the CRD controller serves it shortly
    created = c->Post(
                   pools,
                   R"({"apiVersion":"example.rrgen.dev/v1","kind":"Pool","metadata":{"name":"p"},"spec":{"size":2}})",
                   "application/json")
                  ->status;
    if (created != 201) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  REQUIRE(created == 201);
  Json pool = body_of(c->Get(pools + "/p"));
  pool["status"] = {{"size", 1}, {"selector", "app=pool"}};
  REQUIRE(c->Put(pools + "/p/status", pool.dump(), "application/json")->status == 200);

  const Json scale = body_of(c->Get(pools + "/p/scale"));
  CHECK(scale["spec"]["replicas"] == 2);
  CHECK(scale["status"]["replicas"] == 1);
  CHECK(scale["status"]["selector"] == "app=pool");
  REQUIRE(c->Patch(pools + "/p/scale", R"({"spec":{"replicas":7}})", "application/merge-patch+json")->status == 200);
  CHECK(body_of(c->Get(pools + "/p"))["spec"]["size"] == 7);

  const Json resources = body_of(c->Get("/apis/example.rrgen.dev/v1"));
  bool listed = false;
  for (const Json& r : resources["resources"]) listed = listed || r["name"] == "pools/scale";
  CHECK(listed);
}

TEST_CASE("format_label_selector: matchLabels, then the expressions as Go's selectors print them") {
  using rr::apiserver_detail::format_label_selector;
  CHECK(format_label_selector(Json::parse(R"({"matchLabels":{"b":"2","a":"1"}})")) == "a=1,b=2");
  CHECK(format_label_selector(Json::parse(
            R"({"matchExpressions":[{"key":"env","operator":"In","values":["prod","qa"]},
                                    {"key":"tier","operator":"NotIn","values":["db"]},
                                    {"key":"gpu","operator":"Exists"},{"key":"debug","operator":"DoesNotExist"}]})")) ==
        "env in (prod,qa),tier notin (db),gpu,!debug");
  CHECK(format_label_selector(Json::parse(R"({"app":"web"})")) == "app=web");  // a ReplicationController's map
  CHECK(format_label_selector(Json::object()) == "");
}
