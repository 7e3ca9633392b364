// Corpus sample test: every sample document whose kind the corpus defines must decode into its
// generated type, re-encode to the same JSON (up to API-server pruning, see json_compare.hpp),
// and pass validate() after apply_defaults(). Failures are failures; the only documents not
// checked are listed with a reason in sample_exclusions.txt.
//
// usage: corpus_samples CORPUS_DIR EXCLUSIONS_FILE
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <span>
#include <vector>

#include "json_compare.hpp"
#include "key_list.hpp"
#include "load/yaml_load.hpp"
#include "rr/core/errors.hpp"
#include "rr/core/kind_codec.hpp"

std::vector<std::pair<std::string_view, std::span<const rr::KindCodec>>> corpus_kind_tables();

namespace fs = std::filesystem;

namespace {

struct Codecs {
  // apiVersion/kind -> (defining file, codec); a sample prefers its own project's definition.
  std::multimap<std::string, std::pair<std::string, const rr::KindCodec*>> by_gvk;

  const rr::KindCodec* find(const std::string& api_version, const std::string& kind, const std::string& project) const {
    auto [lo, hi] = by_gvk.equal_range(api_version + "|" + kind);
    const rr::KindCodec* any = nullptr;
    for (auto it = lo; it != hi; ++it) {
      if (it->second.first.find("crds/" + project + "/") == 0) return it->second.second;
      if (!any) any = it->second.second;
    }
    return any;
  }
};

std::string scalar(const rrgen::Node& doc, std::string_view key) {
  const rrgen::Node* n = doc.find(key);
  return n && n->is_scalar() ? n->text : std::string();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: corpus_samples CORPUS_DIR EXCLUSIONS_FILE\n";
    return 2;
  }
  const fs::path root = argv[1];
  const auto exclusions = corpus::read_key_list(argv[2]);
  std::set<std::string> used_exclusions;

  Codecs codecs;
  std::size_t files = 0, kinds = 0;
  for (const auto& [file, table] : corpus_kind_tables()) {
    ++files;
    for (const auto& k : table) {
      codecs.by_gvk.emplace(std::string(k.api_version) + "|" + std::string(k.kind), std::pair{std::string(file), &k});
      ++kinds;
    }
  }

  std::vector<fs::path> samples;
  for (const auto& e : fs::recursive_directory_iterator(root / "samples"))
    if (e.is_regular_file() && (e.path().extension() == ".yaml" || e.path().extension() == ".yml")) samples.push_back(e.path());
  std::sort(samples.begin(), samples.end());

  std::size_t passed = 0, failed = 0, excluded = 0, foreign = 0;
  for (const auto& path : samples) {
    const std::string rel = fs::relative(path, root).generic_string();
    const std::string project = fs::relative(path, root / "samples").begin()->string();
    auto excluded_why = [&](const std::string& key) -> const std::string* {
      auto it = exclusions.find(key);
      if (it == exclusions.end()) return nullptr;
      used_exclusions.insert(key);
      return &it->second;
    };
    if (excluded_why(rel)) {
      ++excluded;
      continue;
    }
    rrgen::SourceSet sources;
    rrgen::Diagnostics diags;
    const std::string* name = sources.read(path.string(), diags);
    std::vector<rrgen::Node> docs;
    if (name) docs = rrgen::load_yaml(name, sources.content(name), diags);
    if (diags.has_errors()) {
      ++failed;
      std::cout << "FAIL " << rel << ": not valid YAML: " << rrgen::format(diags.all().front()) << "\n";
      continue;
    }
    for (std::size_t i = 0; i < docs.size(); ++i) {
      const rrgen::Node& doc = docs[i];
      if (!doc.is_mapping()) continue;
      const std::string id = rel + "#" + std::to_string(i);
      const std::string api_version = scalar(doc, "apiVersion"), kind = scalar(doc, "kind");
      const rr::KindCodec* codec = codecs.find(api_version, kind, project);
      if (!codec) {
        ++foreign;  // a built-in kind or one from outside the corpus
        continue;
      }
      if (excluded_why(id)) {
        ++excluded;
        continue;
      }
      const std::string json = rrgen::to_json_text(doc);
      const std::string what = id + " (" + api_version + ", " + kind + ")";
      try {
        const std::string back = codec->reencode(json);
        if (auto diff = corpus::first_difference(rr::Json::parse(json), rr::Json::parse(back)); !diff.empty()) {
          ++failed;
          std::cout << "FAIL " << what << ": round trip differs at " << diff << "\n";
          continue;
        }
        const auto errors = codec->default_and_validate(json);
        if (!errors.empty()) {
          ++failed;
          std::cout << "FAIL " << what << ": validate() after apply_defaults():\n";
          for (const auto& e : errors) std::cout << "    " << e.message << "\n";
          continue;
        }
        ++passed;
      } catch (const rr::DecodeError& e) {
        ++failed;
        std::cout << "FAIL " << what << ": decode error " << e.what() << "\n";
      }
    }
  }
  for (const auto& [key, why] : exclusions)
    if (!used_exclusions.count(key)) {
      ++failed;
      std::cout << "FAIL stale exclusion (no such sample document of a corpus kind): " << key << "\n";
    }
  std::cout << "corpus: " << files << " CRD/OpenAPI files generated and compiled (" << kinds << " kinds); samples: " << passed
            << " round-tripped and validated, " << failed << " failed, " << excluded << " excluded, " << foreign
            << " of kinds outside the corpus\n";
  return failed == 0 ? 0 : 1;
}
