// YAML request bodies over HTTP, read by rr::yaml as the API server reads them: an input on which
// yaml-cpp's parser never finished is a quick 400, scalars are go-yaml v2's (YAML 1.1 booleans),
// and a syntax error is answered with sigs.k8s.io/yaml's text.
#include <doctest/doctest.h>

#include <chrono>

#include "test_server.hpp"

using namespace rr;
using namespace rr::apiserver_test;

namespace {

const char* config_maps = "/api/v1/namespaces/default/configmaps";

// Found by the fuzzer of rr::manifest_check's reader: yaml-cpp allocated without end on it.
const std::string hanging =
    "{\"apiVersion\": \"v1\", \"kiname\": \"Bad.Name\"},\n \".INF\": {\"ports\": [{\"port\": 81}]}}\n";

std::string message_of(const httplib::Result& r) { return body_of(r).value("message", std::string()); }

}  // namespace

TEST_CASE("the input yaml-cpp never finished parsing is a quick 400, as a body and as an apply configuration") {
  TestServer t;
  auto c = t.client();
  const auto start = std::chrono::steady_clock::now();
  auto created = c->Post(config_maps, hanging, "application/yaml");
  REQUIRE(created);
  CHECK(created->status == 400);
  CHECK(message_of(created).find("error converting YAML to JSON: yaml: did not find expected <document start>") !=
        std::string::npos);
  auto applied = c->Patch(std::string(config_maps) + "/a?fieldManager=test", hanging, "application/apply-patch+yaml");
  REQUIRE(applied);
  CHECK(applied->status == 400);
  CHECK(message_of(applied).find("yaml: did not find expected <document start>") != std::string::npos);
  auto strict = c->Post(std::string(config_maps) + "?fieldValidation=Strict", hanging, "application/yaml");
  REQUIRE(strict);
  CHECK(strict->status == 400);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
}

TEST_CASE("a YAML syntax error is a 400 with the line, as sigs.k8s.io/yaml words it") {
  TestServer t;
  auto c = t.client();
  auto r = c->Post(config_maps, "metadata:\n  name: a\n data: x\n", "application/yaml");
  REQUIRE(r);
  CHECK(r->status == 400);
  // A parser error: go-yaml names the line of libyaml's mark as it holds it, from 0.
  CHECK(message_of(r) == "error decoding body: error converting YAML to JSON: yaml: line 2: did not find expected key");
}

TEST_CASE("YAML 1.1 scalars as the API server reads them: an unquoted yes is a bool (ConfigMap data refuses it), a key "
          "n is false") {
  TestServer t;
  auto c = t.client();
  auto refused = c->Post(config_maps, "metadata:\n  name: a\ndata:\n  enabled: yes\n", "application/yaml");
  REQUIRE(refused);
  CHECK(refused->status == 400);
  CHECK(message_of(refused).find("cannot unmarshal bool into Go struct field ConfigMap.data of type string") !=
        std::string::npos);
  auto created = c->Post(config_maps,
                         "metadata:\n  name: b\n  labels: {n: \"1\"}\ndata:\n  enabled: 'yes'\n  count: \"0x10\"\n",
                         "application/yaml");
  REQUIRE(created);
  INFO(created->body);
  REQUIRE(created->status == 201);
  Json object = body_of(created);
  CHECK(object["data"]["enabled"] == "yes");
  CHECK(object["data"]["count"] == "0x10");
  CHECK(object["metadata"]["labels"] == Json{{"false", "1"}});  // the key n is YAML 1.1's false, written back as text
}
