// Decoding as the API server decodes, over HTTP: unknown members of built-in kinds under each
// fieldValidation, duplicated keys in JSON and YAML bodies (built-in kinds and custom resources),
// and values of the wrong JSON type (400 for a built-in kind, 422 from the schema for a custom
// resource), with the API server's status codes and texts.
#include <doctest/doctest.h>

#include "test_server.hpp"

using namespace rr;
using namespace rr::apiserver_test;

namespace {

const char* pods = "/api/v1/namespaces/default/pods";

std::string pod(const std::string& name, const std::string& spec) {
  return R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":")" + name + R"("},"spec":)" + spec + "}";
}

const std::string good_spec = R"({"containers":[{"name":"c","image":"nginx"}]})";

std::string post(const httplib::Client& client, const std::string& query, const std::string& body,
                 const char* type = "application/json", int* code = nullptr,
                 std::vector<std::string>* warnings = nullptr) {
  auto r = const_cast<httplib::Client&>(client).Post(std::string(pods) + query, body, type);
  REQUIRE(r);
  if (code) *code = r->status;
  if (warnings) {
    for (auto [it, end] = r->headers.equal_range("Warning"); it != end; ++it) warnings->push_back(it->second);
  }
  return r->body;
}

std::string message_of(const std::string& body) { return Json::parse(body).value("message", std::string()); }

}  // namespace

TEST_CASE("Strict: unknown members of a Pod fail the decode with 400, each named by its path") {
  TestServer t;
  auto c = t.client();
  int code = 0;
  const std::string body = post(
      *c, "?fieldValidation=Strict",
      pod("p", R"({"contaners":[],"containers":[{"name":"c","image":"nginx","imagee":"x"}]})"), "application/json",
      &code);
  CHECK(code == 400);
  CHECK(Json::parse(body)["reason"] == "BadRequest");
  CHECK(
      message_of(body) ==
      R"(Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.contaners", unknown field "spec.containers[0].imagee")");
  CHECK(c->Get(std::string(pods) + "/p")->status == 404);
}

TEST_CASE("unknown members are named in the order the body writes them, as Go's decoder meets them") {
  TestServer t;
  auto c = t.client();
  const std::string body =
      R"({"zeta":1,"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","b":1,"a":2},"spec":{"containers":[{"name":"c","image":"nginx"}]}})";
  int code = 0;
  CHECK(
      message_of(post(*c, "?fieldValidation=Strict", body, "application/json", &code)) ==
      R"(Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "zeta", unknown field "metadata.b", unknown field "metadata.a")");
  CHECK(code == 400);
  std::vector<std::string> warnings;
  post(*c, "?fieldValidation=Warn", body, "application/json", &code, &warnings);
  CHECK(code == 201);
  CHECK(warnings == std::vector<std::string>{R"(299 - "unknown field \"zeta\"")",
                                             R"(299 - "unknown field \"metadata.b\"")",
                                             R"(299 - "unknown field \"metadata.a\"")"});
}

TEST_CASE("Warn and the default warn of unknown members and drop them; Ignore drops them silently") {
  TestServer t;
  auto c = t.client();
  const std::string spec = R"({"contaners":[],"containers":[{"name":"c","image":"nginx"}]})";
  for (const char* query : {"?fieldValidation=Warn", ""}) {
    INFO(query);
    int code = 0;
    std::vector<std::string> warnings;
    const std::string name = std::string("w") + (query[0] ? "1" : "2");
    const Json created = Json::parse(post(*c, query, pod(name, spec), "application/json", &code, &warnings));
    CHECK(code == 201);
    CHECK(warnings == std::vector<std::string>{R"(299 - "unknown field \"spec.contaners\"")"});
    CHECK_FALSE(created["spec"].contains("contaners"));
    CHECK_FALSE(body_of(c->Get(std::string(pods) + "/" + name))["spec"].contains("contaners"));
  }
  int code = 0;
  std::vector<std::string> warnings;
  const Json ignored = Json::parse(
      post(*c, "?fieldValidation=Ignore", pod("i", spec), "application/json", &code, &warnings));
  CHECK(code == 201);
  CHECK(warnings.empty());
  CHECK_FALSE(ignored["spec"].contains("contaners"));
}

TEST_CASE("an update and a merge patch report unknown members of a built-in kind too") {
  TestServer t;
  auto c = t.client();
  REQUIRE(c->Post(pods, pod("p", good_spec), "application/json")->status == 201);
  auto patched = c->Patch(std::string(pods) + "/p?fieldValidation=Strict", R"({"metadata":{"labelz":{"a":"b"}}})",
                          "application/merge-patch+json");
  CHECK(patched->status == 400);
  CHECK(message_of(patched->body) ==
        R"(Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "metadata.labelz")");
  Json got = body_of(c->Get(std::string(pods) + "/p"));
  got["spec"]["bogus"] = true;
  auto updated = c->Put(std::string(pods) + "/p?fieldValidation=Strict", got.dump(), "application/json");
  CHECK(updated->status == 400);
  CHECK(message_of(updated->body) ==
        R"(Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.bogus")");
}

TEST_CASE("a duplicated JSON member fails with Strict, warns with Warn, and the last wins with Ignore") {
  TestServer t;
  auto c = t.client();
  const std::string body = R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"d","name":"e"},"spec":)" + good_spec +
                           "}";
  int code = 0;
  CHECK(message_of(post(*c, "?fieldValidation=Strict", body, "application/json", &code)) ==
        R"(Pod in version "v1" cannot be handled as a Pod: strict decoding error: duplicate field "metadata.name")");
  CHECK(code == 400);
  std::vector<std::string> warnings;
  const Json warned = Json::parse(post(*c, "?fieldValidation=Warn", body, "application/json", &code, &warnings));
  CHECK(code == 201);
  CHECK(warned["metadata"]["name"] == "e");
  CHECK(warnings == std::vector<std::string>{R"(299 - "duplicate field \"metadata.name\"")"});
  warnings.clear();
  const std::string again = R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"f","name":"g"},"spec":)" +
                            good_spec + "}";
  const Json ignored = Json::parse(post(*c, "?fieldValidation=Ignore", again, "application/json", &code, &warnings));
  CHECK(code == 201);
  CHECK(ignored["metadata"]["name"] == "g");
  CHECK(warnings.empty());
}

TEST_CASE("a duplicated YAML key fails with yaml.v2's text, and warns line by line") {
  TestServer t;
  auto c = t.client();
  const std::string body = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: y\n  name: z\nspec:\n  containers:\n  - "
                           "name: c\n    image: nginx\n";
  int code = 0;
  CHECK(
      message_of(post(*c, "?fieldValidation=Strict", body, "application/yaml", &code)) ==
      "Pod in version \"v1\" cannot be handled as a Pod: strict decoding error: yaml: unmarshal errors:\n  line 5: key "
      "\"name\" already set in map");
  CHECK(code == 400);
  std::vector<std::string> warnings;
  post(*c, "", body, "application/yaml", &code, &warnings);
  CHECK(code == 201);
  CHECK(warnings == std::vector<std::string>{R"(299 - "line 5: key \"name\" already set in map")"});
}

TEST_CASE("a custom resource's duplicated member fails the same way; its wrong types stay 422") {
  TestServer t;
  auto c = t.client();
  Json crd = gizmo_crd();
  crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"] = Json::parse(
      R"({"type":"object","properties":{"spec":{"type":"object","properties":{"size":{"type":"integer"}}}}})");
  REQUIRE(c->Post("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd.dump(), "application/json")->status ==
          201);
  const std::string gizmos = "/apis/test.rrgen.dev/v1/namespaces/default/gizmos";
  auto dup = c->Post(
      gizmos + "?fieldValidation=Strict",
      R"({"apiVersion":"test.rrgen.dev/v1","kind":"Gizmo","metadata":{"name":"g"},"spec":{"size":3,"size":4}})",
      "application/json");
  CHECK(dup->status == 400);
  CHECK(message_of(dup->body) ==
        R"(Gizmo in version "v1" cannot be handled as a Gizmo: strict decoding error: duplicate field "spec.size")");
  auto typed = c->Post(
      gizmos, R"({"apiVersion":"test.rrgen.dev/v1","kind":"Gizmo","metadata":{"name":"g"},"spec":{"size":"big"}})",
      "application/json");
  CHECK(typed->status == 422);
  CHECK(
      message_of(typed->body).find("spec.size: Invalid value: \"string\": spec.size in body must be of type integer") !=
      std::string::npos);
}

TEST_CASE("a value of the wrong JSON type in a built-in kind fails the decode with 400") {
  TestServer t;
  auto c = t.client();
  int code = 0;
  CHECK(
      message_of(post(*c, "", pod("t", R"({"containers":{"name":"c","image":"nginx"}})"), "application/json", &code)) ==
      R"(Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal object into Go struct field PodSpec.spec.containers of type []v1.Container)");
  CHECK(code == 400);
  CHECK(
      message_of(post(*c, "",
                      pod("q", R"({"containers":[{"name":"c","image":"nginx","resources":{"limits":{"cpu":"abc"}}}]})"),
                      "application/json", &code)) ==
      R"(Pod in version "v1" cannot be handled as a Pod: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$')");
  CHECK(code == 400);
  CHECK(
      message_of(post(*c, "", pod("s", R"({"containers":[{"name":"c","image":"nginx"}],"activeDeadlineSeconds":"10"})"),
                      "application/json", &code)) ==
      R"(Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal string into Go struct field PodSpec.spec.activeDeadlineSeconds of type int64)");
  CHECK(code == 400);
}
