// The decoding part of the API facts, derived at build time (tools/decode_facts_main.cpp), against
// the facts it comes from: the same definitions (with what server-side apply reads: list and map
// types, list keys, scalar defaults), and the same decoding outcome for bodies with unknown
// members and values of the wrong type.
#include <doctest/doctest.h>

#include "embedded_facts.hpp"
#include "openapi_schemas.hpp"
#include "rr/validation/decoding.hpp"
#include "yaml_json.hpp"

using rr::Json;

namespace {

// Every definition of the embedded YAML facts, read whole.
Json full_definitions() {
  Json out = Json::object();
  for (const auto& file : rr::apiserver_detail::embedded_files()) {
    for (const Json& doc : rr::apiserver_detail::yaml_documents(std::string(file.content))) {
      if (!doc.contains("/components/schemas"_json_pointer)) continue;
      for (const auto& [name, schema] : doc.at("/components/schemas"_json_pointer).items()) out[name] = schema;
    }
  }
  return out;
}

// The members a definition declares, recursively through properties, items and map values.
void members(const Json& schema, const std::string& at, std::vector<std::string>& out) {
  if (!schema.is_object()) return;
  for (const char* key : {"$ref", "type", "format", "x-kubernetes-list-type", "x-kubernetes-list-map-keys",
                          "x-kubernetes-map-type", "x-kubernetes-patch-strategy", "x-kubernetes-patch-merge-key"}) {
    if (schema.contains(key)) out.push_back(at + " " + key + "=" + schema[key].dump());
  }
  // Server-side apply reads scalar defaults (a list key's, such as a port's protocol).
  if (schema.contains("default") && !schema["default"].is_structured()) {
    out.push_back(at + " default=" + schema["default"].dump());
  }
  if (schema.contains("properties")) {
    for (const auto& [name, member] : schema["properties"].items()) members(member, at + "." + name, out);
  }
  if (schema.contains("items")) members(schema["items"], at + "[]", out);
  if (schema.contains("additionalProperties")) members(schema["additionalProperties"], at + "{}", out);
  if (schema.contains("allOf")) {
    for (const Json& part : schema["allOf"]) members(part, at + "&", out);
  }
}

}  // namespace

TEST_CASE(
    "the build-time decoding facts hold every definition, member, type, list and map type and kind tag of the facts") {
  const Json full = full_definitions();
  const Json& compact = rr::apiserver_detail::builtin_definitions();
  REQUIRE(full.size() > 500);
  CHECK(compact.size() == full.size());
  for (auto it = full.begin(); it != full.end(); ++it) {  // not a structured binding: doctest's lambdas capture
    const std::string& name = it.key();
    const Json& schema = *it;
    REQUIRE_MESSAGE(compact.contains(name), name);
    std::vector<std::string> want, got;
    members(schema, name, want);
    members(compact[name], name, got);
    CHECK_MESSAGE(want == got, name);
    CHECK(schema.value("x-kubernetes-group-version-kind", Json()) ==
          compact[name].value("x-kubernetes-group-version-kind", Json()));
  }
}

TEST_CASE("decoding against the build-time facts gives what decoding against the whole facts gives") {
  const Json full = full_definitions();
  const Json& compact = rr::apiserver_detail::builtin_definitions();
  const Json bodies = Json::parse(R"([
    {"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","labelz":{}},"spec":{"contaners":[],
     "containers":[{"name":"c","image":"i","imagee":"x","ports":[{"containerPort":"80"}]}]}},
    {"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c",
     "resources":{"limits":{"cpu":"1x"}}}]}},
    {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d"},"spec":{"replicas":1.5,
     "template":{"spec":{"containers":{}}}}},
    {"apiVersion":"v1","kind":"Service","metadata":{"name":"s"},"spec":{"ports":[{"port":80,"targetPort":true}]}}
  ])");
  for (const Json& body : bodies) {
    const std::string api_version = body["apiVersion"];
    const auto slash = api_version.find('/');
    const std::string group = slash == std::string::npos ? "" : api_version.substr(0, slash);
    const std::string version = api_version.substr(slash == std::string::npos ? 0 : slash + 1);
    const auto root = rr::validation::kind_definition(compact, group, version, body["kind"].get<std::string>());
    REQUIRE(root);
    CHECK(rr::validation::kind_definition(full, group, version, body["kind"].get<std::string>()) == root);
    Json a = body, b = body;
    const auto want = rr::validation::decode_as_go(a, full, *root);
    const auto got = rr::validation::decode_as_go(b, compact, *root);
    CHECK(want.error == got.error);
    CHECK(want.unknown_fields == got.unknown_fields);
    CHECK(a == b);
    CHECK((!got.error.empty() || !got.unknown_fields.empty()));  // each body has something to find
  }
}
