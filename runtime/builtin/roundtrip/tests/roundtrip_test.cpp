// rrgen-roundtrip's parts: YAML to JSON as Kubernetes writes YAML, the first difference of two
// JSON values, and the verdict per fixture over a folder (with a stand-in codec).
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "roundtrip.hpp"
#include "yaml_to_json.hpp"

using rr::roundtrip::first_difference;
using rr::roundtrip::yaml_to_json;

namespace {

nlohmann::json j(const std::string& text) { return nlohmann::json::parse(text); }

}  // namespace

TEST_CASE("YAML scalars resolve as Kubernetes' YAML does: quoted is text, plain is typed") {
  const std::string yaml = R"(apiVersion: v1
kind: Pod
metadata:
  name: "007"
  generation: 7
  labels: {a: "true", b: 'null'}
spec:
  ratio: 0.5
  big: 1e3
  on: true
  none: null
  tilde: ~
  empty:
  text: hello world
  version: 1.2.3
  negative: -12
  list:
  - 1
  - "1"
  - x
  block: |
    line one
    line two
)";
  const auto v = j(yaml_to_json(yaml));
  CHECK(v["metadata"]["name"] == "007");
  CHECK(v["metadata"]["generation"] == 7);
  CHECK(v["metadata"]["labels"]["a"] == "true");
  CHECK(v["metadata"]["labels"]["b"] == "null");
  CHECK(v["spec"]["ratio"] == 0.5);
  CHECK(v["spec"]["big"] == 1000.0);
  CHECK(v["spec"]["on"] == true);
  CHECK(v["spec"]["none"].is_null());
  CHECK(v["spec"]["tilde"].is_null());
  CHECK(v["spec"]["empty"].is_null());
  CHECK(v["spec"]["text"] == "hello world");
  CHECK(v["spec"]["version"] == "1.2.3");
  CHECK(v["spec"]["negative"] == -12);
  CHECK(v["spec"]["list"] == j(R"([1, "1", "x"])"));
  CHECK(v["spec"]["block"] == "line one\nline two\n");
}

TEST_CASE("YAML that is not one plain document is refused with its position") {
  CHECK_THROWS_WITH_AS(yaml_to_json("a: [1, 2"), doctest::Contains("1:"), rr::roundtrip::YamlError);
  CHECK_THROWS_WITH_AS(yaml_to_json("a: 1\n---\nb: 2\n"), doctest::Contains("more than one document"),
                       rr::roundtrip::YamlError);
  CHECK_THROWS_WITH_AS(yaml_to_json("a: &x 1\nb: *x\n"), doctest::Contains("aliases"), rr::roundtrip::YamlError);
  CHECK_THROWS_WITH_AS(yaml_to_json("a: 1\na: 2\n"), doctest::Contains("2:1: duplicate key 'a'"),
                       rr::roundtrip::YamlError);
  CHECK_THROWS_WITH_AS(yaml_to_json("? [1]\n: x\n"), doctest::Contains("mapping keys must be strings"),
                       rr::roundtrip::YamlError);
  CHECK_THROWS_AS(yaml_to_json(std::string(2000, '[')), rr::roundtrip::YamlError);
  CHECK_THROWS_WITH_AS(yaml_to_json("- 1\n- -2.5e1111\n"), doctest::Contains("2:3: number out of range: -2.5e1111"),
                       rr::roundtrip::YamlError);
  CHECK(yaml_to_json("") == "null");
}

TEST_CASE("first_difference names the JSON pointer of the first difference, ignoring member order") {
  CHECK(first_difference(R"({"a":1,"b":[1,2]})", R"({"b":[1,2],"a":1.0})").empty());
  CHECK(first_difference(R"({"a":{"b/c":1}})", R"({"a":{"b/c":2}})") == "/a/b~1c");
  CHECK(first_difference(R"({"a":1,"b":2})", R"({"a":1})") == "/b (missing)");
  CHECK(first_difference(R"({"a":1})", R"({"a":1,"z":null})") == "/z (added)");
  CHECK(first_difference(R"([1,2])", R"([1])") == " (2 items, now 1)");
  CHECK(first_difference(R"("x")", R"(1)") == "/ (the whole value)");
}

namespace {

// A stand-in kind: decoding keeps only "apiVersion", "kind" and "spec", as a schema that does not
// know "extra" would drop it if it were not lossless.
std::string keep_known(std::string_view text) {
  const auto in = nlohmann::json::parse(text);
  nlohmann::json out;
  for (const char* k : {"apiVersion", "kind", "spec"})
    if (in.contains(k)) out[k] = in[k];
  return out.dump();
}

void write(const std::filesystem::path& p, const std::string& text) { std::ofstream(p) << text; }

}  // namespace

TEST_CASE("a folder of fixtures: lossless forms pass, lossy ones fail, unserved kinds are skipped") {
  const auto dir = std::filesystem::temp_directory_path() / "rr_roundtrip_test";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  write(dir / "example.com.v1.Thing.json", R"({"apiVersion":"example.com/v1","kind":"Thing","spec":{"x":1}})");
  write(dir / "example.com.v1.Thing.yaml", "apiVersion: example.com/v1\nkind: Thing\nspec:\n  x: 1\n");
  write(dir / "example.com.v1.Thing.pb", "k8s");
  write(dir / "core.v1.Lossy.json", R"({"apiVersion":"v1","kind":"Lossy","spec":{},"extra":true})");
  write(dir / "core.v1.Lossy.yaml", "apiVersion: v1\nkind: Lossy\nspec: {x: [unclosed\n");
  write(dir / "old.v1beta1.Gone.json", R"({"apiVersion":"old/v1beta1","kind":"Gone"})");
  const rr::KindCodec codecs[] = {
      {"example.com/v1", "Thing", nullptr, keep_known, nullptr, nullptr, nullptr, nullptr, nullptr},
      {"v1", "Lossy", nullptr, keep_known, nullptr, nullptr, nullptr, nullptr, nullptr},
  };
  const auto report = rr::roundtrip::check_fixtures(dir, codecs);
  CHECK(report.passed == 2);
  CHECK(report.failed == 2);
  CHECK(report.skipped == 1);
  CHECK(report.not_checked == 1);
  REQUIRE(report.results.size() == 6);
  CHECK(report.results[0].file == "core.v1.Lossy.json");
  CHECK(report.results[0].detail == "JSON does not survive decode and encode: first difference at /extra (missing)");
  CHECK(report.results[1].detail.find("YAML does not parse: 4:1:") == 0);
  CHECK(report.results[3].detail == "the kind has no protobuf codec");
  CHECK(report.results[5].detail == "old/v1beta1 Gone is not served by this API");
  std::filesystem::remove_all(dir);
}

TEST_CASE("a fixture with an after_roundtrip file must re-encode as that file, form by form") {
  // Kubernetes' convention: <stem>.after_roundtrip.<ext> is what re-encoding <stem>.<ext> gives where
  // the exact round trip is not expected (a member the types no longer have is dropped).
  const auto dir = std::filesystem::temp_directory_path() / "rr_roundtrip_after_test";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  write(dir / "core.v1.Lossy.json", R"({"apiVersion":"v1","kind":"Lossy","spec":{"x":1},"extra":true})");
  write(dir / "core.v1.Lossy.after_roundtrip.json", R"({"apiVersion":"v1","kind":"Lossy","spec":{"x":1}})");
  write(dir / "core.v1.Lossy.yaml", "apiVersion: v1\nkind: Lossy\nspec:\n  x: 1\nextra: true\n");
  // The YAML's expected re-encoding is wrong: a correct decoder fails on it, and says so.
  write(dir / "core.v1.Lossy.after_roundtrip.yaml", "apiVersion: v1\nkind: Lossy\nspec:\n  x: 2\n");
  // An after_roundtrip file whose fixture is missing is listed, not checked.
  write(dir / "core.v1.Lossy.after_roundtrip.pb", "k8s");
  const rr::KindCodec codecs[] = {{"v1", "Lossy", nullptr, keep_known, nullptr, nullptr, nullptr, nullptr, nullptr}};
  const auto report = rr::roundtrip::check_fixtures(dir, codecs);
  REQUIRE(report.results.size() == 3);
  CHECK(report.results[0].file == "core.v1.Lossy.json");
  CHECK(report.results[0].outcome == rr::roundtrip::Outcome::Passed);
  CHECK(report.results[1].file == "core.v1.Lossy.yaml");
  CHECK(report.results[1].outcome == rr::roundtrip::Outcome::Failed);
  CHECK(report.results[1].detail == "YAML does not re-encode as its after_roundtrip file: first difference at /spec/x");
  CHECK(report.results[2].file == "core.v1.Lossy.after_roundtrip.pb");
  CHECK(report.results[2].outcome == rr::roundtrip::Outcome::Skipped);
  CHECK(report.results[2].detail == "there is no core.v1.Lossy.pb to compare it with");
  CHECK(report.passed == 1);
  CHECK(report.failed == 1);
  CHECK(report.skipped == 1);
  // Without its after_roundtrip file the lossy JSON fails as before: the file is what makes it pass.
  std::filesystem::remove(dir / "core.v1.Lossy.after_roundtrip.json");
  CHECK(rr::roundtrip::check_fixtures(dir, codecs).results[0].detail ==
        "JSON does not survive decode and encode: first difference at /extra (missing)");
  // An after_roundtrip file that is not JSON is a failure of the fixture, not a crash.
  write(dir / "core.v1.Lossy.after_roundtrip.json", "{not json");
  CHECK(
      rr::roundtrip::check_fixtures(dir, codecs).results[0].detail.starts_with("the after_roundtrip file is not JSON"));
  std::filesystem::remove_all(dir);
}
