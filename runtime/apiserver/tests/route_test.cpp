#include <doctest/doctest.h>

#include "route.hpp"

using namespace rr::apiserver_detail;

TEST_CASE("a namespaced item, its collection and its status subresource") {
  Route r = parse_route("/api/v1/namespaces/ns1/configmaps/cm1");
  CHECK(r.endpoint == Endpoint::Resource);
  CHECK(r.group.empty());
  CHECK(r.version == "v1");
  CHECK(r.namespaced_path);
  CHECK(r.namespace_ == "ns1");
  CHECK(r.resource == "configmaps");
  CHECK(r.name == "cm1");
  CHECK(r.subresource.empty());

  r = parse_route("/apis/test.rrgen.dev/v1/namespaces/ns1/gizmos/g1/status");
  CHECK(r.group == "test.rrgen.dev");
  CHECK(r.resource == "gizmos");
  CHECK(r.name == "g1");
  CHECK(r.subresource == "status");

  r = parse_route("/apis/apps/v1/namespaces/ns1/deployments/");
  CHECK(r.resource == "deployments");
  CHECK(r.name.empty());
}

TEST_CASE("namespaces/<n>/status is the Namespace's subresource, namespaces/<n>/pods a collection in it") {
  Route ns = parse_route("/api/v1/namespaces/team-a/status");
  CHECK_FALSE(ns.namespaced_path);
  CHECK(ns.resource == "namespaces");
  CHECK(ns.name == "team-a");
  CHECK(ns.subresource == "status");

  Route pods = parse_route("/api/v1/namespaces/team-a/pods");
  CHECK(pods.namespaced_path);
  CHECK(pods.namespace_ == "team-a");
  CHECK(pods.resource == "pods");

  Route item = parse_route("/api/v1/namespaces/team-a");
  CHECK(item.resource == "namespaces");
  CHECK(item.name == "team-a");
}

TEST_CASE("cluster-wide collections and cluster-scoped items") {
  Route all = parse_route("/apis/apps/v1/deployments");
  CHECK(all.endpoint == Endpoint::Resource);
  CHECK_FALSE(all.namespaced_path);
  CHECK(all.resource == "deployments");
  Route crd = parse_route("/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gizmos.test.rrgen.dev");
  CHECK(crd.name == "gizmos.test.rrgen.dev");
}

TEST_CASE("discovery, OpenAPI, health and version paths") {
  CHECK(parse_route("/version").endpoint == Endpoint::Version);
  CHECK(parse_route("/healthz").endpoint == Endpoint::Health);
  CHECK(parse_route("/readyz/ping").endpoint == Endpoint::Health);
  CHECK(parse_route("/api").endpoint == Endpoint::LegacyVersions);
  CHECK(parse_route("/apis").endpoint == Endpoint::GroupList);
  CHECK(parse_route("/apis/apps").endpoint == Endpoint::Group);
  CHECK(parse_route("/api/v1").endpoint == Endpoint::ResourceList);
  Route rl = parse_route("/apis/apps/v1");
  CHECK(rl.endpoint == Endpoint::ResourceList);
  CHECK(rl.group == "apps");
  CHECK(parse_route("/openapi/v2").endpoint == Endpoint::OpenApiV2);
  CHECK(parse_route("/openapi/v3").endpoint == Endpoint::OpenApiV3Root);
  Route doc = parse_route("/openapi/v3/apis/apps/v1");
  CHECK(doc.endpoint == Endpoint::OpenApiV3Document);
  CHECK(doc.group == "apps");
  CHECK(doc.version == "v1");
  CHECK(parse_route("/openapi/v3/api/v1").endpoint == Endpoint::OpenApiV3Document);
}

TEST_CASE("paths that address nothing") {
  for (const char* path : {"", "x", "/", "/nothing", "/api/v1//configmaps", "/apis/apps/v1/namespaces/a/deployments/d/status/x",
                           "/api/v1/configmaps/a/b/c", "/openapi/v4", "/version/x"}) {
    INFO(std::string(path));
    CHECK(parse_route(path).endpoint == Endpoint::NotFound);
  }
}

TEST_CASE("the target's query is split and percent-decoded, '+' read as a space") {
  Target t = split_target("/api/v1/pods?labelSelector=app%3Dweb%2Ctier+in+(a%2Cb)&watch=1&limit=5&limit=7");
  CHECK(t.path == "/api/v1/pods");
  CHECK(t.query.find("labelSelector")->second == "app=web,tier in (a,b)");
  CHECK(t.query.count("limit") == 2);
  CHECK(t.query.find("watch")->second == "1");

  Target odd = split_target("/a%2Fb?%zz=%4&flag&=x");
  CHECK(odd.path == "/a/b");
  CHECK(odd.query.find("%zz")->second == "%4");
  CHECK(odd.query.find("flag")->second.empty());
}
