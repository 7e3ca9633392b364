// Every document under $RRGEN_CORPUS_DIR/samples whose apiVersion/kind is a built-in kind must
// decode into its generated type, re-encode to the same JSON (up to what the API server itself
// drops: JSON nulls and empty ObjectMeta members, see tests/corpus/json_compare.hpp) and validate
// after apply_defaults(). Documents tests/corpus/sample_exclusions.txt lists (templates with
// placeholders, documentation snippets) are skipped for the reasons given there. The corpus is
// third-party material outside the repository; ctest runs this with RRGEN_CORPUS_DIR set (label
// "corpus"), and without it the test case is skipped.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "json_compare.hpp"
#include "rr/core/errors.hpp"
#include "rr_builtin_types.hpp"
#include "load/yaml_load.hpp"

namespace fs = std::filesystem;

namespace {

const char* corpus_dir() { return std::getenv("RRGEN_CORPUS_DIR"); }

std::string scalar(const rrgen::Node& doc, std::string_view key) {
  const rrgen::Node* n = doc.find(key);
  return n && n->is_scalar() ? n->text : std::string();
}

// Keys of tests/corpus/sample_exclusions.txt: "samples/<project>/<file>" or "...#<document index>".
std::set<std::string> excluded_samples() {
  std::set<std::string> out;
  std::ifstream in(RR_BUILTIN_SAMPLE_EXCLUSIONS);
  REQUIRE(in.good());
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] != '#') out.insert(line.substr(0, line.find(' ')));
  return out;
}

std::vector<fs::path> sample_files(const fs::path& root) {
  std::vector<fs::path> out;
  for (const auto& e : fs::recursive_directory_iterator(root / "samples"))
    if (e.is_regular_file() && (e.path().extension() == ".yaml" || e.path().extension() == ".yml")) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("corpus samples of built-in kinds round-trip and validate" * doctest::skip(corpus_dir() == nullptr)) {
  const fs::path root = corpus_dir();
  std::map<std::string, const rr::KindCodec*> codecs;  // "apiVersion|kind"
  for (const auto& k : rr_builtin_types_kinds()) codecs[std::string(k.api_version) + "|" + std::string(k.kind)] = &k;

  const std::set<std::string> excluded = excluded_samples();
  std::map<std::string, int> checked;  // per kind
  int skipped = 0;
  for (const auto& path : sample_files(root)) {
    const std::string rel = fs::relative(path, root).generic_string();
    if (excluded.count(rel)) continue;
    rrgen::SourceSet sources;
    rrgen::Diagnostics diags;
    const std::string* name = sources.read(path.string(), diags);
    std::vector<rrgen::Node> docs;
    if (name) docs = rrgen::load_yaml(name, sources.content(name), diags);
    if (diags.has_errors()) continue;  // not YAML: tests/corpus reports those
    for (std::size_t i = 0; i < docs.size(); ++i) {
      if (!docs[i].is_mapping()) continue;
      const std::string kind = scalar(docs[i], "kind");
      auto codec = codecs.find(scalar(docs[i], "apiVersion") + "|" + kind);
      if (codec == codecs.end()) continue;
      if (excluded.count(rel + "#" + std::to_string(i))) {
        ++skipped;
        continue;
      }
      const std::string json = rrgen::to_json_text(docs[i]);
      INFO(rel, "#", i, " (", kind, ")");
      try {
        const std::string back = codec->second->reencode(json);
        CHECK(corpus::first_difference(rr::Json::parse(json), rr::Json::parse(back)) == "");
        std::string findings;
        for (const auto& e : codec->second->default_and_validate(json)) findings += e.message + "\n";
        CHECK(findings == "");
      } catch (const rr::DecodeError& e) {
        FAIL_CHECK("decode error at ", e.pointer(), ": ", e.message());
      }
      ++checked[kind];
    }
  }
  std::string summary;
  for (const auto& [kind, n] : checked) summary += kind + "=" + std::to_string(n) + " ";
  MESSAGE("built-in samples checked: ", summary, "; excluded: ", skipped);
  // The corpus has samples of these kinds; finding none would mean the test looked in the wrong place.
  CHECK(checked["ConfigMap"] > 0);
  CHECK(checked["Secret"] > 0);
  CHECK(checked["Deployment"] > 0);
}
