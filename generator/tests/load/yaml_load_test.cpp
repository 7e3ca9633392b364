#include "load/yaml_load.hpp"

#include <doctest/doctest.h>

#include <sstream>

using namespace rrgen;

namespace {
struct Loaded {
  SourceSet sources;
  Diagnostics diags;
  std::vector<Node> docs;
};
Loaded load(std::string text, LoadLimits limits = {}) {
  Loaded l;
  const std::string* name = l.sources.add("in.yaml", std::move(text));
  l.docs = load_yaml(name, l.sources.content(name), l.diags, limits);
  return l;
}
std::string first_error(const Loaded& l) { return l.diags.all().empty() ? "" : format(l.diags.all().front()); }
}  // namespace

TEST_CASE("documents, marks and scalar typing") {
  auto l = load("a: 1\nb: 'x'\n---\n- true\n- null\n- 1.5\n- \"3\"\n");
  REQUIRE(l.docs.size() == 2);
  const Node& a = l.docs[0];
  REQUIRE(a.is_mapping());
  CHECK(a.find("a")->location.line == 1);
  CHECK(a.find("a")->location.column == 4);
  CHECK(to_json_text(a) == R"({"a":1,"b":"x"})");
  CHECK(to_json_text(l.docs[1]) == R"([true,null,1.5,"3"])");
}

TEST_CASE("syntax errors carry file:line:col and a check id") {
  auto l = load("a: [1, 2\nb: 3\n");
  CHECK(l.docs.empty());
  CHECK(first_error(l).rfind("in.yaml:", 0) == 0);
  CHECK(first_error(l).find("[yaml-syntax]") != std::string::npos);
}

TEST_CASE("duplicate keys are rejected") {
  auto l = load("a: 1\na: 2\n");
  CHECK(first_error(l) == "in.yaml:2:1: error: duplicate mapping key 'a' [yaml-duplicate-key]");
}

TEST_CASE("nesting and alias limits stop hostile input") {
  std::string deep(1000, '[');
  deep += std::string(1000, ']');
  auto l = load(deep);
  CHECK(l.docs.empty());
  CHECK(first_error(l).find("[input-too-deep]") != std::string::npos);

  std::ostringstream bomb;
  bomb << "a: &a [x, x, x, x, x, x, x, x, x, x]\n";
  char prev = 'a';
  for (char c = 'b'; c <= 'j'; ++c, ++prev) bomb << c << ": &" << c << " [*" << prev << ", *" << prev << ", *" << prev << ", *" << prev << ", *" << prev << ", *" << prev << ", *" << prev << ", *" << prev << ", *" << prev << ", *" << prev << "]\n";
  auto b = load(bomb.str(), LoadLimits{256, 1'000'000});
  CHECK(b.docs.empty());
  CHECK(first_error(b).find("[input-too-large]") != std::string::npos);
}

TEST_CASE("plain scalars resolve the way Kubernetes' YAML 1.1 reader does") {
  // go-yaml v2 parses "09" (not octal) with ParseFloat, so it is the number 9.
  auto l = load("[0755, 0o17, 010, 09, 0, yes, No, on, OFF, y, '0755', 1.5, 12]\n");
  REQUIRE(l.docs.size() == 1);
  CHECK(to_json_text(l.docs[0]) == R"([493,15,8,9,0,true,false,true,false,true,"0755",1.5,12])");
}

TEST_CASE("source names outlive the SourceSet; a name added twice reads back its latest text") {
  Location at;
  {
    SourceSet sources;
    const std::string* first = sources.add("twice.yaml", "a: 1\n");
    const std::string* second = sources.add("twice.yaml", "b: 2\n");
    CHECK(first == second);
    CHECK(sources.content(second) == "b: 2\n");
    Diagnostics diags;
    const auto docs = load_yaml(second, sources.content(second), diags);
    REQUIRE(docs.size() == 1);
    at = docs[0].find("b")->location;
  }
  CHECK(format_location(at) == "twice.yaml:1:4");
}
