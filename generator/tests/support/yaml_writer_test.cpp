// The manifest writer: which strings need quotes, and that what it writes reads back (through
// the same libyaml loader rrgen reads its inputs with) as exactly what was written.
#include "support/yaml_writer.hpp"

#include <doctest/doctest.h>

#include "load/yaml_load.hpp"

using namespace rrgen;

namespace {

// Writes {key: value} and reads it back: the value must come back as the same string.
void check_round_trip(const std::string& value) {
  CAPTURE(value);
  Yaml doc = Yaml::map();
  doc.set(value, value);
  doc.set("list", Yaml::strings({value}));
  const std::string text = doc.text();
  CAPTURE(text);
  SourceSet sources;
  Diagnostics diags;
  const std::string* file = sources.add("test.yaml", text);
  const std::vector<Node> docs = load_yaml(file, sources.content(file), diags);
  REQUIRE_FALSE(diags.has_errors());
  REQUIRE(docs.size() == 1);
  const Node& root = docs[0];
  REQUIRE(root.is_mapping());
  REQUIRE(root.keys.size() == 2);
  CHECK(root.keys[0] == value);
  const Node& scalar = root.children[0];
  CHECK(scalar.text == value);
  // A plain scalar must also resolve to a string, not a bool, number or null.
  if (scalar.plain) CHECK(resolve_scalar(scalar) == ScalarType::String);
  CHECK(root.children[1].children.at(0).text == value);
}

}  // namespace

TEST_CASE("yaml writer: strings that read as something else are quoted") {
  for (const char* s : {"", "true", "True", "FALSE", "yes", "No", "on", "OFF", "y", "n", "null", "Null", "~", "1", "-1",
                        "+1", "0", "1.5", ".5", "-.5", "1e3", "1E-3", "0x1F", "0o17", "0b101", "017", "1_000", "1:30",
                        ".inf", "-.Inf", ".NaN", "2001-12-14", "2001-12-14t21:59:43.10-05:00", ":", ":8081", "-", "- a",
                        "?", "? a", "*", "*alias", "&anchor", "!tag", "#comment", "a #b", "a: b", "key:", "|", ">", "%x",
                        "@x", "`x", "'x", "\"x", "[a]", "{a}", ",a", " lead", "trail ", "---", "...", "line\nbreak",
                        "tab\there", "<<", "="}) {
    CAPTURE(std::string(s));
    CHECK(yaml_needs_quotes(s));
  }
}

TEST_CASE("yaml writer: ordinary manifest strings stay plain") {
  for (const char* s : {"get", "apps", "v1", "rbac.authorization.k8s.io/v1", "functions/status", "/healthz",
                        "--leader-elect", "--health-probe-bind-address=:8081", "controller:latest", "500m", "128Mi",
                        "64Mi", "10m", "app.kubernetes.io/name", "function-system", "a:b", "a#b", "a-b", "-x", "x y",
                        "ALL", "TCP", "snake_case", "v1alpha1", "1a2b3c-not-hex-z", "ünïcödé"}) {
    CAPTURE(std::string(s));
    CHECK_FALSE(yaml_needs_quotes(s));
  }
}

TEST_CASE("yaml writer: quoted strings escape what double quotes need") {
  CHECK(yaml_scalar("") == "\"\"");
  CHECK(yaml_scalar("true") == "\"true\"");
  CHECK(yaml_scalar("get") == "get");
  CHECK(yaml_double_quoted("a\"b\\c") == R"("a\"b\\c")");
  CHECK(yaml_double_quoted("x\ny\tz\r") == R"("x\ny\tz\r")");
  CHECK(yaml_double_quoted(std::string("nul\0", 4)) == R"("nul\x00")");
  CHECK(yaml_double_quoted("del\x7f") == R"("del\x7F")");
  CHECK(yaml_double_quoted("nel\xC2\x85ls\xE2\x80\xA8ps\xE2\x80\xA9") == R"("nel\Nls\Lps\P")");
  CHECK(yaml_double_quoted("\xEF\xBB\xBF" "bom") == R"("\uFEFFbom")");
}

TEST_CASE("yaml writer: every string reads back as itself") {
  for (const char* s : {"", "true", "1", "-1", "1.5", "0x1F", "1:30", "2001-12-14", ":", ":8081", "-", "- a", "*", "#c",
                        "a #b", "a: b", "key:", "'x", "\"x", " lead", "trail ", "---", "line\nbreak", "tab\there",
                        "back\\slash", "nel\xC2\x85", "get", "/healthz", "--leader-elect", "a:b", "ünïcödé", "<<",
                        "=", "[a]", "{a}", "500m"}) {
    check_round_trip(s);
  }
}

TEST_CASE("yaml writer: block layout as kubectl writes it") {
  Yaml rule = Yaml::map();
  rule.set("apiGroups", Yaml::strings({""}));
  rule.set("resources", Yaml::strings({"configmaps", "secrets"}));
  Yaml doc = Yaml::map();
  doc.set("kind", "ClusterRole");
  doc.set("metadata", Yaml::map().set("name", "x").set("labels", Yaml::map()));
  doc.set("rules", Yaml::seq().push(std::move(rule)).push(Yaml::map()));
  doc.set("empty", Yaml::seq());
  doc.set("nested", Yaml::seq().push(Yaml::strings({"a", "b"})).push(Yaml::seq()));
  doc.set("numbers", Yaml::map().set("port", Yaml::integer(8081)).set("on", Yaml::boolean(true)));
  CHECK(doc.text() ==
        "kind: ClusterRole\n"
        "metadata:\n"
        "  name: x\n"
        "  labels: {}\n"
        "rules:\n"
        "- apiGroups:\n"
        "  - \"\"\n"
        "  resources:\n"
        "  - configmaps\n"
        "  - secrets\n"
        "- {}\n"
        "empty: []\n"
        "nested:\n"
        "- - a\n"
        "  - b\n"
        "- []\n"
        "numbers:\n"
        "  port: 8081\n"
        "  \"on\": true\n");
  CHECK(Yaml::map().text() == "{}\n");
  CHECK(Yaml::str("null").text() == "\"null\"\n");
}

TEST_CASE("yaml writer: manifest files carry the banner, comments and document separators") {
  const std::string text =
      manifest_file({Yaml::map().set("a", "1"), kustomization({"x.yaml"}, "ns")}, "first line\n\nthird");
  CHECK(text ==
        "# Code generated by rrgen. DO NOT EDIT.\n"
        "# first line\n"
        "#\n"
        "# third\n"
        "a: \"1\"\n"
        "---\n"
        "apiVersion: kustomize.config.k8s.io/v1beta1\n"
        "kind: Kustomization\n"
        "namespace: ns\n"
        "resources:\n"
        "- x.yaml\n");
}
