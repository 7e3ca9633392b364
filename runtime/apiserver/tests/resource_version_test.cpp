// A malformed resourceVersion over HTTP, answered as the API server answers it: the registry's
// strconv error unconverted on update and patch, the versioner's Invalid text on get, list and
// watch; both a 500 without a reason (rr/client/resource_version.hpp says why).
#include <doctest/doctest.h>

#include "test_server.hpp"

using namespace rr;
using namespace rr::apiserver_test;

namespace {

const char* rv_cm_path = "/api/v1/namespaces/default/configmaps";

// The whole Status, so a reason or details the API server does not send would fail the test.
Json reasonless_500(const std::string& message) {
  return Json{{"kind", "Status"},    {"apiVersion", "v1"}, {"metadata", Json::object()},
              {"status", "Failure"}, {"message", message}, {"code", 500}};
}

}  // namespace

TEST_CASE("resourceVersion over HTTP: update and patch with a malformed one") {
  TestServer t;
  auto c = t.client();
  REQUIRE(c->Post(rv_cm_path, R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"}})", "application/json")
              ->status == 201);
  Json object = body_of(c->Get(std::string(rv_cm_path) + "/a"));
  object["metadata"]["resourceVersion"] = "abc";
  auto put = c->Put(std::string(rv_cm_path) + "/a", object.dump(), "application/json");
  REQUIRE(put);
  CHECK(put->status == 500);
  CHECK(body_of(put) == reasonless_500(R"(strconv.ParseUint: parsing "abc": invalid syntax)"));

  auto patch = c->Patch(std::string(rv_cm_path) + "/a", R"({"metadata":{"resourceVersion":"1.5"}})",
                        "application/merge-patch+json");
  REQUIRE(patch);
  CHECK(patch->status == 500);
  CHECK(body_of(patch) == reasonless_500(R"(strconv.ParseUint: parsing "1.5": invalid syntax)"));

  // A well-formed version compares as a number: leading zeros name the same version.
  Json current = body_of(c->Get(std::string(rv_cm_path) + "/a"));
  current["metadata"]["resourceVersion"] = "0" + current["metadata"]["resourceVersion"].get<std::string>();
  current["data"] = {{"k", "v"}};
  CHECK(c->Put(std::string(rv_cm_path) + "/a", current.dump(), "application/json")->status == 200);
}

TEST_CASE("resourceVersion over HTTP: get, list and watch with a malformed one") {
  TestServer t;
  auto c = t.client();
  const Json expected = reasonless_500(
      R"(resourceVersion: Invalid value: "-1": strconv.ParseUint: parsing "-1": invalid syntax)");
  for (const std::string& path :
       {std::string(rv_cm_path) + "?resourceVersion=-1", std::string(rv_cm_path) + "/a?resourceVersion=-1",
        std::string(rv_cm_path) + "?watch=1&resourceVersion=-1&timeoutSeconds=1"}) {
    CAPTURE(path);
    auto reply = c->Get(path);
    REQUIRE(reply);
    CHECK(reply->status == 500);
    CHECK(body_of(reply) == expected);
  }
  CHECK(c->Get(std::string(rv_cm_path) + "?resourceVersion=0")->status == 200);
}
