// The schemas admission policies are type-checked against: $refs inlined as upstream's
// resolver.PopulateRefs does, and the built-in kinds' from the embedded facts.
#include <doctest/doctest.h>

#include <chrono>
#include <memory>
#include <utility>

#include "policy_schemas.hpp"
#include "rr/cluster/cluster.hpp"

using rr::Json;

TEST_CASE("policy schemas: refs are inlined (allOf-wrapped too), a cycle ends in {type: object}") {
  const Json definitions = Json::parse(R"J({
    "Root": {"type": "object", "properties": {
      "child": {"allOf": [{"$ref": "#/components/schemas/Child"}], "description": "kept out"},
      "items": {"type": "array", "items": {"$ref": "#/components/schemas/Child"}},
      "byName": {"type": "object", "additionalProperties": {"$ref": "#/components/schemas/Port"}}}},
    "Child": {"type": "object", "properties": {"parent": {"$ref": "#/components/schemas/Root"},
                                               "name": {"type": "string"}}},
    "Port": {"format": "int-or-string", "oneOf": [{"type": "integer"}, {"type": "string"}]}})J");
  const auto root = rr::apiserver_detail::inline_refs(definitions, "Root");
  REQUIRE(root);
  const Json& child = (*root)["properties"]["child"];
  CHECK(child == Json::parse(R"J({"type": "object", "properties": {"parent": {"type": "object"},
                                                                      "name": {"type": "string"}}})J"));
  CHECK((*root)["properties"]["items"]["items"] == child);
  CHECK((*root)["properties"]["byName"]["additionalProperties"]["x-kubernetes-int-or-string"] == true);
  CHECK_FALSE(rr::apiserver_detail::inline_refs(definitions, "Missing"));
  const Json dangling = Json::parse(R"J({"A": {"properties": {"b": {"$ref": "#/components/schemas/B"}}}})J");
  CHECK_FALSE(rr::apiserver_detail::inline_refs(dangling, "A"));
}

TEST_CASE("policy schemas: a built-in kind's from the facts; none for an unknown kind") {
  auto cluster = std::make_shared<rr::Cluster>();
  const auto resolve = rr::apiserver_detail::policy_schema_resolver(cluster);
  auto timed = [&] {
    const auto started = std::chrono::steady_clock::now();
    auto schema = resolve({"apps", "v1", "Deployment"});
    return std::pair(std::move(schema),
                     std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count());
  };
  const auto first = timed();  // parses the embedded facts once
  const auto [deployment, took] = timed();
  MESSAGE("the Deployment schema with its refs inlined: " << first.second << " ms the first time, " << took
                                                          << " ms after");
  REQUIRE(deployment);
  CHECK((*deployment)["properties"]["spec"]["properties"]["replicas"]["type"] == "integer");
  CHECK((*deployment)["properties"]["metadata"]["properties"]["labels"]["additionalProperties"]["type"] == "string");
  CHECK((*deployment)["properties"]["spec"]["properties"]["strategy"]["properties"]["rollingUpdate"]["properties"]
                    ["maxSurge"]["x-kubernetes-int-or-string"] == true);
  CHECK((*deployment)["properties"]["spec"]["properties"]["template"]["properties"]["spec"]["properties"]["containers"]
                    ["items"]["properties"]["image"]["type"] == "string");
  CHECK(resolve({"", "v1", "ConfigMap"}));
  CHECK_FALSE(resolve({"example.dev", "v1", "Widget"}));  // no such CRD in the store
  CHECK_FALSE(resolve({"apps", "v1", "Nope"}));
}
