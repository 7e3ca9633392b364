// The local cluster writes members in the order a real API server does (rr::wire_order): Go field
// order for built-in kinds, Status and watch events, alphabetical for custom resources. The bodies
// are read as text with their order kept (nlohmann::ordered_json), not as rr::Json.
#include <doctest/doctest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "test_server.hpp"

using namespace rr;
using namespace rr::apiserver_test;

namespace {

using Ordered = nlohmann::ordered_json;
using Keys = std::vector<std::string>;

Keys keys_of(const Ordered& object) {
  Keys keys;
  for (const auto& item : object.items()) keys.push_back(item.key());
  return keys;
}

// The object's keys that are in `wanted`, in the order the object has them.
Keys present(const Ordered& object, const Keys& wanted) {
  Keys keys;
  for (const auto& item : object.items())
    if (std::find(wanted.begin(), wanted.end(), item.key()) != wanted.end()) keys.push_back(item.key());
  return keys;
}

const std::string pods = "/api/v1/namespaces/default/pods";

// Written alphabetically, as rr::Json::dump() does: the server must reorder it.
const std::string pod = R"({"apiVersion":"v1","kind":"Pod","metadata":{"labels":{"b":"1","a":"2"},"name":"p1",)"
                        R"("namespace":"default"},"spec":{"containers":[{"image":"busybox","name":"c"}],)"
                        R"("restartPolicy":"Always"}})";

}  // namespace

TEST_CASE("member order: a Pod, its list, a 404 Status and a watch event come in Go field order") {
  TestServer t;
  auto c = t.client();
  auto created = c->Post(pods, pod, "application/json");
  REQUIRE(created->status == 201);
  CHECK(keys_of(Ordered::parse(created->body)).front() == "kind");

  auto got = c->Get(pods + "/p1");
  REQUIRE(got->status == 200);
  const Ordered one = Ordered::parse(got->body);
  CHECK(keys_of(one) == Keys{"kind", "apiVersion", "metadata", "spec"});  // no node: no status yet
  CHECK(present(one["metadata"], {"name", "namespace", "uid", "resourceVersion", "creationTimestamp", "labels"}) ==
        Keys{"name", "namespace", "uid", "resourceVersion", "creationTimestamp", "labels"});
  CHECK(keys_of(one["metadata"]["labels"]) == Keys{"a", "b"});  // a map: sorted, as Go writes it
  CHECK(present(one["spec"]["containers"][0], {"name", "image"}) == Keys{"name", "image"});
  CHECK(present(one["spec"], {"containers", "restartPolicy"}) == Keys{"containers", "restartPolicy"});

  auto list = c->Get(pods);
  REQUIRE(list->status == 200);
  const Ordered listed = Ordered::parse(list->body);
  CHECK(keys_of(listed) == Keys{"kind", "apiVersion", "metadata", "items"});
  CHECK(present(listed["items"][0]["metadata"], {"name", "namespace"}) == Keys{"name", "namespace"});

  auto missing = c->Get(pods + "/nope");
  REQUIRE(missing->status == 404);
  const Ordered status = Ordered::parse(missing->body);
  CHECK(keys_of(status) == Keys{"kind", "apiVersion", "metadata", "status", "message", "reason", "details", "code"});
  CHECK(keys_of(status["details"]) == Keys{"name", "kind"});

  auto watch = c->Get(pods + "?watch=1&timeoutSeconds=1");
  REQUIRE(watch->status == 200);
  std::istringstream lines(watch->body);
  std::string first;
  REQUIRE(std::getline(lines, first));
  const Ordered event = Ordered::parse(first);
  CHECK(keys_of(event) == Keys{"type", "object"});
  CHECK(present(event["object"], {"kind", "apiVersion", "metadata", "spec"}) ==
        Keys{"kind", "apiVersion", "metadata", "spec"});
}

TEST_CASE("member order: a custom resource comes out alphabetically, as the API server writes an unstructured map") {
  TestServer t;
  auto c = t.client();
  REQUIRE(c->Post("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", gizmo_crd().dump(), "application/json")
              ->status == 201);
  const std::string gizmos = "/apis/test.rrgen.dev/v1/namespaces/default/gizmos";
  REQUIRE(c->Post(gizmos,
                  R"({"kind":"Gizmo","apiVersion":"test.rrgen.dev/v1","spec":{"size":3},"metadata":{"name":"g1"}})",
                  "application/json")
              ->status == 201);
  const Ordered one = Ordered::parse(c->Get(gizmos + "/g1")->body);
  CHECK(keys_of(one) == Keys{"apiVersion", "kind", "metadata", "spec"});
  const Ordered list = Ordered::parse(c->Get(gizmos)->body);
  CHECK(keys_of(list) == Keys{"apiVersion", "items", "kind", "metadata"});
}

TEST_CASE("member order: discovery documents come in their structs' order") {
  TestServer t;
  auto c = t.client();
  const Ordered core = Ordered::parse(c->Get("/api/v1")->body);
  CHECK(keys_of(core) == Keys{"kind", "apiVersion", "groupVersion", "resources"});
  CHECK(present(core["resources"][0], {"name", "singularName", "namespaced", "kind", "verbs"}) ==
        Keys{"name", "singularName", "namespaced", "kind", "verbs"});
  const Ordered groups = Ordered::parse(c->Get("/apis")->body);
  CHECK(keys_of(groups) == Keys{"kind", "apiVersion", "groups"});
  CHECK(present(groups["groups"][0], {"name", "versions", "preferredVersion"}) ==
        Keys{"name", "versions", "preferredVersion"});
  CHECK(keys_of(groups["groups"][0]["preferredVersion"]) == Keys{"groupVersion", "version"});
  const Ordered version = Ordered::parse(c->Get("/version")->body);
  CHECK(present(version, {"major", "minor", "gitVersion", "platform"}) ==
        Keys{"major", "minor", "gitVersion", "platform"});
}

TEST_CASE("member order: a Table (kubectl get) comes in metav1.Table's order") {
  TestServer t;
  auto c = t.client();
  REQUIRE(c->Post(pods, pod, "application/json")->status == 201);
  auto table = c->Get(pods, {{"Accept", "application/json;as=Table;g=meta.k8s.io;v=v1"}});
  REQUIRE(table->status == 200);
  const Ordered got = Ordered::parse(table->body);
  CHECK(keys_of(got) == Keys{"kind", "apiVersion", "metadata", "columnDefinitions", "rows"});
  CHECK(keys_of(got["columnDefinitions"][0]) == Keys{"name", "type", "format", "description", "priority"});
  CHECK(present(got["rows"][0], {"cells", "object"}) == Keys{"cells", "object"});
  CHECK(keys_of(got["rows"][0]["object"]) == Keys{"kind", "apiVersion", "metadata"});
}

TEST_CASE("bytes as Go's encoder writes them: <, > and & escaped, each body ending in a newline") {
  TestServer t;
  auto c = t.client();
  const std::string map = R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"html"},"data":{"k":"<a&b>"}})";
  auto created = c->Post("/api/v1/namespaces/default/configmaps", map, "application/json");
  REQUIRE(created->status == 201);
  CHECK(created->body.find(R"("k":"\u003ca\u0026b\u003e")") != std::string::npos);
  CHECK(created->body.ends_with("}\n"));
  auto missing = c->Get("/api/v1/namespaces/default/configmaps/none");
  REQUIRE(missing->status == 404);
  CHECK(missing->body.ends_with("\"code\":404}\n"));
  auto list = c->Get("/api/v1/namespaces/default/configmaps");
  REQUIRE(list->status == 200);
  CHECK(list->body.find('<') == std::string::npos);
  CHECK(Ordered::parse(list->body)["items"][0]["data"]["k"] == "<a&b>");
}
