// Reading the corpus's YAML files as JSON documents, shared by the corpus programs.
#pragma once
#include <algorithm>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "load/yaml_load.hpp"
#include "rr/core/json.hpp"

namespace corpus {

// The documents of a YAML file as JSON, read by rrgen's loader: YAML 1.1 scalars (0755 is octal),
// as kubectl reads them. Throws with the first diagnostic.
inline std::vector<rr::Json> yaml_documents(const std::filesystem::path& path) {
  rrgen::SourceSet sources;
  rrgen::Diagnostics diags;
  const std::string* name = sources.read(path.string(), diags);
  std::vector<rrgen::Node> nodes;
  if (name) nodes = rrgen::load_yaml(name, sources.content(name), diags);
  if (diags.has_errors()) throw std::runtime_error(rrgen::format(diags.all().front()));
  std::vector<rr::Json> docs;
  for (const auto& n : nodes) docs.push_back(rr::Json::parse(rrgen::to_json_text(n)));
  return docs;
}

// The .yaml and .yml files under `dir`, sorted.
inline std::vector<std::filesystem::path> yaml_files(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir))
    if (e.is_regular_file() && (e.path().extension() == ".yaml" || e.path().extension() == ".yml"))
      files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace corpus
