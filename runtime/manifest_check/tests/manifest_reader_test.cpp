#include "rr/manifest_check/manifest_reader.hpp"

#include <doctest/doctest.h>

using rr::Json;
using rr::manifest_check::read_manifests;

TEST_CASE("every non-empty YAML document, numbered, with the line its first node is on") {
  const auto read = read_manifests("# leading comment\n"
                                   "apiVersion: v1\n"
                                   "kind: ConfigMap\n"
                                   "---\n"
                                   "# only a comment\n"
                                   "---\n"
                                   "\n"
                                   "apiVersion: v1\n"
                                   "kind: Secret\n",
                                   false);
  REQUIRE_FALSE(read.error);
  REQUIRE(read.documents.size() == 2);
  CHECK(read.documents[0].index == 1);
  CHECK(read.documents[0].line == 2);
  CHECK(read.documents[0].object == Json{{"apiVersion", "v1"}, {"kind", "ConfigMap"}});
  CHECK(read.documents[1].index == 2);
  CHECK(read.documents[1].line == 8);
  CHECK(read.documents[1].object["kind"] == "Secret");
}

TEST_CASE("scalars as kubectl reads them (go-yaml v2): plain ones typed, YAML 1.1 booleans, quoted ones strings") {
  const auto read = read_manifests(
      "a: 1\nb: '1'\nc: true\nd: \"true\"\ne: ~\nf: 1.5e3\ng: 0x1F\nh: -7\ni: yes\nj: 99999999999999999999\n", false);
  REQUIRE(read.documents.size() == 1);
  const Json& o = read.documents[0].object;
  CHECK(o["a"] == 1);
  CHECK(o["b"] == "1");
  CHECK(o["c"] == true);
  CHECK(o["d"] == "true");
  CHECK(o["e"].is_null());
  CHECK(o["f"] == 1500.0);
  CHECK(o["g"] == 31);
  CHECK(o["h"] == -7);
  CHECK(o["i"] == true);
  CHECK(o["j"].is_number_float());
}

TEST_CASE("a YAML syntax error keeps the documents before it and names line and column") {
  const auto read = read_manifests("kind: A\n---\nkind: [B\n", false);
  REQUIRE(read.documents.size() == 1);
  REQUIRE(read.error);
  CHECK(read.error->line >= 3);
  CHECK(read.error->column >= 1);
  CHECK_FALSE(read.error->message.empty());
}

TEST_CASE("a key given twice is recorded by its field path") {
  const auto twice = read_manifests("metadata:\n  name: a\n  name: b\nlist: [{k: 1, k: 2}]\n", false);
  REQUIRE_FALSE(twice.error);
  CHECK(twice.documents[0].object["metadata"]["name"] == "b");  // the last value, as Go's decoders keep
  CHECK(twice.documents[0].duplicate_fields == std::vector<std::string>{"metadata.name", "list[0].k"});
}

TEST_CASE("JSON: one document with its line; a syntax error with line and column") {
  const auto ok = read_manifests("\n\n  {\"kind\": \"Pod\", \"n\": 1}\n", true);
  REQUIRE(ok.documents.size() == 1);
  CHECK(ok.documents[0].line == 3);
  CHECK(ok.documents[0].object["n"] == 1);

  const auto bad = read_manifests("{\n  \"kind\": \"Pod\",\n  oops\n}\n", true);
  REQUIRE(bad.error);
  CHECK(bad.error->line == 3);
  CHECK(bad.documents.empty());
}

TEST_CASE("looks_like_json") {
  CHECK(rr::manifest_check::looks_like_json("  \n{\"a\":1}"));
  CHECK_FALSE(rr::manifest_check::looks_like_json("a: 1"));
  CHECK_FALSE(rr::manifest_check::looks_like_json(""));
}

TEST_CASE("a number no double holds: a JSON error, a YAML string") {
  const auto json = read_manifests("{\"a\": 1e999}", true);
  REQUIRE(json.error);
  CHECK(json.error->message.find("number overflow") != std::string::npos);
  const auto yaml = read_manifests("a: 1e999\n", false);
  REQUIRE_FALSE(yaml.error);
  CHECK(yaml.documents[0].object["a"] == "1e999");
}

TEST_CASE("a flow mapping followed by more flow content: an error at once (yaml-cpp's parser grew without end)") {
  const auto read = read_manifests(
      "{\"apiVersion\": \"v1\", \"kiname\": \"Bad.Name\"},\n \".INF\": {\"ports\": [{\"port\": 81}]}}\n", false);
  REQUIRE(read.error);
  CHECK(read.error->line == 1);
  CHECK(read.error->message == "did not find expected <document start>");
}
