#include "rr/yaml/reader.hpp"

#include <doctest/doctest.h>

#include <chrono>

using rr::Json;
using rr::yaml::read;

TEST_CASE("every non-empty document, numbered, with the line its first node is on") {
  const auto r = read("# leading comment\n"
                      "apiVersion: v1\n"
                      "kind: ConfigMap\n"
                      "---\n"
                      "# only a comment\n"
                      "---\n"
                      "\n"
                      "apiVersion: v1\n"
                      "kind: Secret\n");
  REQUIRE_FALSE(r.error);
  REQUIRE(r.documents.size() == 2);
  CHECK(r.documents[0].index == 1);
  CHECK(r.documents[0].line == 2);
  CHECK(r.documents[0].value == Json{{"apiVersion", "v1"}, {"kind", "ConfigMap"}});
  CHECK(r.documents[1].index == 2);
  CHECK(r.documents[1].line == 8);
  CHECK(r.documents[1].value["kind"] == "Secret");

  const auto first = read("a: 1\n---\nb: 2\n", /*first_only=*/true);
  REQUIRE(first.documents.size() == 1);
  CHECK(first.documents[0].value == Json{{"a", 1}});
}

TEST_CASE("anchors and aliases expand; an alias bomb is refused with a position") {
  const auto ok = read("a: &x {k: v}\nb: *x\n");
  REQUIRE_FALSE(ok.error);
  CHECK(ok.documents[0].value["b"] == Json{{"k", "v"}});

  std::string bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n";
  for (char c = 'b'; c <= 'j'; ++c) {
    const char prev = static_cast<char>(c - 1);
    bomb += std::string(1, c) + ": &" + c + " [*" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev +
            ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + "]\n";
  }
  const auto refused = read(bomb);
  REQUIRE(refused.error);
  CHECK(refused.error->message.find("too large") != std::string::npos);
  CHECK(refused.error->line > 1);
}

TEST_CASE("a syntax error keeps the documents before it, with line, column and go-yaml's text") {
  const auto r = read("kind: A\n---\nkind: [B\n");
  REQUIRE(r.documents.size() == 1);
  REQUIRE(r.error);
  CHECK(r.error->line >= 3);
  CHECK(r.error->column >= 1);
  CHECK_FALSE(r.error->message.empty());

  // A scanner error: go-yaml counts its line from 1, as libyaml's mark + 1.
  const auto tab = read("a:\n\tb: 1\n");
  REQUIRE(tab.error);
  CHECK(tab.error->go_text == "yaml: line 2: found character that cannot start any token");
  const auto key = read("a: 1\n b: 2\n");
  REQUIRE(key.error);
  CHECK(key.error->go_text == "yaml: line 2: mapping values are not allowed in this context");
  // A parser error: go-yaml shows the mark's line as it is (from 0), and none on the first line.
  const auto flow = read("a: 1\nb: [1, 2\nc: 3\n");
  REQUIRE(flow.error);
  CHECK(flow.error->line == 3);
  CHECK(flow.error->go_text == "yaml: line 2: did not find expected ',' or ']'");
}

TEST_CASE("a mapping as a key and deep nesting are errors; a key given twice is recorded with its line") {
  const auto complex = read("? {a: b}\n: c\n");
  REQUIRE(complex.error);
  CHECK(complex.error->message == "a mapping key must be a scalar");

  const auto twice = read("metadata:\n  name: a\n  name: b\nlist: [{k: 1, k: 2}]\n1: x\n0x1: y\n");
  REQUIRE_FALSE(twice.error);
  const auto& doc = twice.documents[0];
  CHECK(doc.value["metadata"]["name"] == "b");  // the last value, as Go's decoders keep
  REQUIRE(doc.duplicates.size() == 3);
  CHECK(doc.duplicates[0].field == "metadata.name");
  CHECK(doc.duplicates[0].shown == "\"name\"");
  CHECK(doc.duplicates[0].line == 3);
  CHECK(doc.duplicates[1].field == "list[0].k");
  CHECK(doc.duplicates[1].line == 4);
  CHECK(doc.duplicates[2].field == "1");  // 0x1 resolves to the key 1 again
  CHECK(doc.duplicates[2].shown == "1");

  const auto deep = read(std::string(2000, '[') + std::string(2000, ']'));
  REQUIRE(deep.error);
  CHECK(deep.error->message == "nested too deeply");
}

TEST_CASE("a flow mapping followed by more flow content: an error at once (yaml-cpp's parser grew without end)") {
  const std::string input =
      "{\"apiVersion\": \"v1\", \"kiname\": \"Bad.Name\"},\n \".INF\": {\"ports\": [{\"port\": 81}]}}\n";
  const auto start = std::chrono::steady_clock::now();
  const auto r = read(input);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(1));
  REQUIRE(r.error);
  CHECK(r.error->line == 1);
  CHECK(r.error->message == "did not find expected <document start>");
  CHECK(r.error->go_text == "yaml: did not find expected <document start>");
}

TEST_CASE("merge keys, as go-yaml v2 reads them: where they stand, the earlier of a list winning") {
  const auto r = read("base: &b {a: 1, b: 2}\nother: &o {b: 3, c: 4}\n"
                      "one: {<<: *b, b: 9}\nlist: {<<: [*b, *o]}\nfirst: {b: 9, <<: *b}\nquoted: {'<<': x}\n");
  REQUIRE_FALSE(r.error);
  const Json& doc = r.documents[0].value;
  CHECK(doc["one"] == Json{{"a", 1}, {"b", 9}});
  CHECK(doc["list"] == Json{{"a", 1}, {"b", 2}, {"c", 4}});
  CHECK(doc["first"] == Json{{"a", 1}, {"b", 2}});  // the merge overwrites what came before it
  CHECK(doc["quoted"] == Json{{"<<", "x"}});
  // yaml.v2's strict decoder reports a key a merge sets again, or sets after it, as repeated.
  std::vector<std::string> repeated;
  for (const auto& d : r.documents[0].duplicates) repeated.push_back(d.field + "@" + std::to_string(d.line));
  CHECK(repeated == std::vector<std::string>{"one.b@3", "list.b@4", "first.b@5"});
  const auto bad = read("a: {<<: 1}\n");
  REQUIRE(bad.error);
  CHECK(bad.error->message == "map merge requires map or sequence of maps as the value");
}
