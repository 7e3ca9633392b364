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

TEST_CASE("YAML 1.2 core scalars: plain ones typed, quoted ones strings") {
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
  CHECK(o["h"] == -7);
  CHECK(o["j"].is_number_float());
}

TEST_CASE("anchors and aliases expand; an alias bomb is refused with a position") {
  const auto ok = read_manifests("a: &x {k: v}\nb: *x\n", false);
  REQUIRE_FALSE(ok.error);
  CHECK(ok.documents[0].object["b"] == Json{{"k", "v"}});

  std::string bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n";
  for (char c = 'b'; c <= 'j'; ++c) {
    const char prev = static_cast<char>(c - 1);
    bomb += std::string(1, c) + ": &" + c + " [*" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev +
            ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + "]\n";
  }
  const auto refused = read_manifests(bomb, false);
  REQUIRE(refused.error);
  CHECK(refused.error->message.find("too large") != std::string::npos);
  CHECK(refused.error->line > 1);
}

TEST_CASE("a YAML syntax error keeps the documents before it and names line and column") {
  const auto read = read_manifests("kind: A\n---\nkind: [B\n", false);
  REQUIRE(read.documents.size() == 1);
  REQUIRE(read.error);
  CHECK(read.error->line >= 3);
  CHECK(read.error->column >= 1);
  CHECK_FALSE(read.error->message.empty());
}

TEST_CASE("a mapping as a key and deep nesting are errors with positions; a key given twice is recorded") {
  const auto complex = read_manifests("? {a: b}\n: c\n", false);
  REQUIRE(complex.error);
  CHECK(complex.error->message == "a mapping key must be a scalar");

  const auto twice = read_manifests("metadata:\n  name: a\n  name: b\nlist: [{k: 1, k: 2}]\n", false);
  REQUIRE_FALSE(twice.error);
  CHECK(twice.documents[0].object["metadata"]["name"] == "b");  // the last value, as Go's decoders keep
  CHECK(twice.documents[0].duplicate_fields == std::vector<std::string>{"metadata.name", "list[0].k"});

  const auto deep = read_manifests(std::string(2000, '[') + std::string(2000, ']'), false);
  REQUIRE(deep.error);
  CHECK(deep.error->message == "nested too deeply");
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
