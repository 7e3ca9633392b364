// Schema admission over the corpus: every served version's openAPIV3Schema of every corpus CRD
// compiles with rr::schema, its x-kubernetes-validations plugged in as rr::schema_cel's CelRules
// (or is listed in schema_rejections.txt with the reason the API server refuses it too), and every
// corpus sample of a corpus kind is pruned, defaulted and validated, rules included, with no
// finding, as a create and as an update that changes nothing. Each failure is printed with its
// file and message.
//
//   corpus_schema_admission CORPUS_DIR SAMPLE_EXCLUSIONS SCHEMA_REJECTIONS
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "corpus_yaml.hpp"
#include "key_list.hpp"
#include "rr/schema/schema.hpp"
#include "rr/schema_cel/cel_node_checks.hpp"

namespace fs = std::filesystem;

namespace {

struct Kind {
  std::string file;  // crds/<project>/<file>
  rr::schema::Schema schema;
};

struct Run {
  std::multimap<std::string, Kind> kinds;  // "<apiVersion>|<kind>"
  std::vector<std::string> failures;
  std::set<std::string> used_rejections;
  int versions = 0, compiled = 0, rejected = 0;
  std::chrono::steady_clock::duration compile_time{}, admission_time{};  // figures, printed at the end
};

void compile_crd(const rr::Json& crd, const std::string& rel, const std::map<std::string, std::string>& rejections,
                 Run& run) {
  const std::string group = crd.value("/spec/group"_json_pointer, std::string());
  const std::string kind = crd.value("/spec/names/kind"_json_pointer, std::string());
  const rr::Json versions = crd.value("/spec/versions"_json_pointer, rr::Json::array());
  const rr::Json shared = crd.value("/spec/validation/openAPIV3Schema"_json_pointer, rr::Json());  // v1beta1
  for (std::size_t i = 0; i < versions.size(); ++i) {
    const rr::Json& version = versions[i];
    rr::Json schema = version.value("/schema/openAPIV3Schema"_json_pointer, shared);
    if (schema.is_null()) continue;
    ++run.versions;
    const std::string name = version.value("name", "");
    const std::string key = rel + "#" + group + "/" + name + "/" + kind;
    const auto started = std::chrono::steady_clock::now();
    auto result = rr::schema::compile_crd_schema(schema,
                                                 "spec.versions[" + std::to_string(i) + "].schema.openAPIV3Schema");
    run.compile_time += std::chrono::steady_clock::now() - started;
    const bool listed = rejections.count(key) > 0;
    if (listed) run.used_rejections.insert(key);
    if (auto* errors = std::get_if<std::vector<rr::FieldError>>(&result)) {
      if (listed) {
        ++run.rejected;
        continue;
      }
      std::string text = "FAIL " + key + ": does not compile:";
      for (const auto& e : *errors) text += "\n    " + e.message;
      run.failures.push_back(text);
      continue;
    }
    if (listed) run.failures.push_back("FAIL " + key + ": listed in schema_rejections.txt but compiles");
    ++run.compiled;
    run.kinds.emplace(group + "/" + name + "|" + kind, Kind{rel, std::get<rr::schema::Schema>(std::move(result))});
  }
}

// The sample's own project's definition first, as corpus_samples matches them.
const Kind* find_kind(const Run& run, const std::string& api_version, const std::string& kind,
                      const std::string& project) {
  auto [lo, hi] = run.kinds.equal_range(api_version + "|" + kind);
  const Kind* any = nullptr;
  for (auto it = lo; it != hi; ++it) {
    if (it->second.file.rfind("crds/" + project + "/", 0) == 0) return &it->second;
    if (!any) any = &it->second;
  }
  return any;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::cerr << "usage: corpus_schema_admission CORPUS_DIR SAMPLE_EXCLUSIONS SCHEMA_REJECTIONS\n";
    return 2;
  }
  const fs::path root = argv[1];
  const auto exclusions = corpus::read_key_list(argv[2]);
  const auto rejections = corpus::read_key_list(argv[3]);
  Run run;
  for (const auto& path : corpus::yaml_files(root / "crds")) {
    const std::string rel = fs::relative(path, root).generic_string();
    try {
      for (const rr::Json& doc : corpus::yaml_documents(path))
        if (doc.is_object() && doc.value("kind", "") == "CustomResourceDefinition")
          compile_crd(doc, rel, rejections, run);
    } catch (const std::exception& e) {
      run.failures.push_back("FAIL " + rel + ": not YAML: " + e.what());
    }
  }
  for (const auto& [key, why] : rejections)
    if (!run.used_rejections.count(key)) run.failures.push_back("FAIL stale rejection (no such CRD version): " + key);

  int passed = 0, excluded = 0, foreign = 0, invalid_docs = 0, invalid_refused = 0;
  for (const auto& path : corpus::yaml_files(root / "samples")) {
    const std::string rel = fs::relative(path, root).generic_string();
    const std::string project = fs::relative(path, root / "samples").begin()->string();
    if (auto ex = exclusions.find(rel); ex != exclusions.end()) {
      ++excluded;
      // A figure, not a check: how many documents of deliberately invalid files admission refuses.
      if (ex->second.find("deliberately invalid") == std::string::npos) continue;
      for (rr::Json& doc : corpus::yaml_documents(path)) {
        const Kind* kind = doc.is_object() ? find_kind(run, doc.value("apiVersion", ""), doc.value("kind", ""), project)
                                           : nullptr;
        if (!kind) continue;
        ++invalid_docs;
        kind->schema.prune(doc);
        kind->schema.apply_defaults(doc);
        invalid_refused += !kind->schema.validate(doc, nullptr).empty();
      }
      continue;
    }
    std::vector<rr::Json> docs;
    try {
      docs = corpus::yaml_documents(path);
    } catch (const std::exception& e) {
      run.failures.push_back("FAIL " + rel + ": not YAML: " + e.what());
      continue;
    }
    for (std::size_t i = 0; i < docs.size(); ++i) {
      rr::Json& doc = docs[i];
      if (!doc.is_object()) continue;
      const Kind* kind = find_kind(run, doc.value("apiVersion", ""), doc.value("kind", ""), project);
      if (!kind) {
        ++foreign;
        continue;
      }
      const std::string id = rel + "#" + std::to_string(i);
      if (exclusions.count(id)) {
        ++excluded;
        continue;
      }
      const auto started = std::chrono::steady_clock::now();
      kind->schema.prune(doc);
      kind->schema.apply_defaults(doc);
      auto errors = kind->schema.validate(doc, nullptr);
      run.admission_time += std::chrono::steady_clock::now() - started;
      // An update that changes nothing passes too (ratcheting, the rules' oldSelf).
      if (errors.empty()) errors = kind->schema.validate(doc, &doc);
      if (errors.empty()) {
        ++passed;
        continue;
      }
      std::string text = "FAIL " + id + " (" + kind->file + "):";
      for (const auto& e : errors) text += "\n    " + e.message;
      run.failures.push_back(text);
    }
  }
  for (const auto& f : run.failures) std::cout << f << "\n";
  std::cout << "schema corpus: " << run.versions << " CRD version schemas, " << run.compiled << " compiled, "
            << run.rejected << " rejected as listed; samples: " << passed << " admitted, " << excluded << " excluded, "
            << foreign << " of kinds outside the corpus; deliberately invalid documents refused: " << invalid_refused
            << " of " << invalid_docs << "; " << run.failures.size() << " failures\n";
  using ms = std::chrono::duration<double, std::milli>;
  using us = std::chrono::duration<double, std::micro>;
  std::cout << "figures: compile " << ms(run.compile_time).count() << " ms for " << run.versions
            << " schemas; prune+default+validate " << us(run.admission_time).count() / std::max(passed, 1)
            << " us per admitted sample (this build type)\n";
  return run.failures.empty() && run.compiled > 0 && passed > 0 ? 0 : 1;
}
