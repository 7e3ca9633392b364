// Every CEL rule of every corpus CRD compiles with rr::cel: each x-kubernetes-validations entry's
// `rule` and `messageExpression`, at any depth of any served version's schema, with `self` and
// `oldSelf` declared as the API server declares them. A rule that does not compile is printed
// with its file, schema path and cel-go-style located error, and the run fails.
//
//   corpus_cel_rules CORPUS_DIR
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "rr/cel/program.hpp"
#include "yaml_json.hpp"

namespace {

struct Tally {
  int files = 0, rules = 0, message_expressions = 0;
  std::vector<std::string> failures;
};

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void check(const std::string& where, const std::string& what, const std::string& source, Tally& tally) {
  rr::cel::CompileOptions options;
  options.variables = std::vector<std::string>{"self", "oldSelf"};
  const rr::cel::CompileResult result = rr::cel::compile(source, options);
  if (!result.ok()) tally.failures.push_back(where + ": " + what + " " + source + "\n" + result.error_text);
}

// Walks a structural schema: the node's rules, then every place a schema nests one.
void walk(const rr::Json& schema, const std::string& where, Tally& tally) {
  if (!schema.is_object()) return;
  if (auto rules = schema.find("x-kubernetes-validations"); rules != schema.end() && rules->is_array()) {
    for (std::size_t i = 0; i < rules->size(); ++i) {
      const rr::Json& entry = (*rules)[i];
      const std::string at = where + "/x-kubernetes-validations/" + std::to_string(i);
      if (entry.contains("rule") && entry["rule"].is_string()) {
        ++tally.rules;
        check(at, "rule", entry["rule"].get<std::string>(), tally);
      }
      if (entry.contains("messageExpression") && entry["messageExpression"].is_string()) {
        ++tally.message_expressions;
        check(at, "messageExpression", entry["messageExpression"].get<std::string>(), tally);
      }
    }
  }
  for (const char* map : {"properties", "patternProperties", "definitions"}) {
    if (auto children = schema.find(map); children != schema.end() && children->is_object()) {
      for (const auto& [name, child] : children->items()) walk(child, where + "/" + map + "/" + name, tally);
    }
  }
  for (const char* one : {"items", "additionalProperties", "not"}) {
    if (auto child = schema.find(one); child != schema.end()) walk(*child, where + "/" + one, tally);
  }
  for (const char* list : {"allOf", "anyOf", "oneOf"}) {
    if (auto children = schema.find(list); children != schema.end() && children->is_array()) {
      for (std::size_t i = 0; i < children->size(); ++i) {
        walk((*children)[i], where + "/" + list + "/" + std::to_string(i), tally);
      }
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: corpus_cel_rules CORPUS_DIR\n";
    return 2;
  }
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(std::filesystem::path(argv[1]) / "crds")) {
    if (entry.path().extension() == ".yaml" || entry.path().extension() == ".yml") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  Tally tally;
  int files_with_rules = 0;
  for (const auto& path : files) {
    ++tally.files;
    const int before = tally.rules + tally.message_expressions;
    const std::string rel = std::filesystem::relative(path, argv[1]).string();
    std::vector<rr::Json> documents;
    try {
      documents = rr::apiserver_detail::yaml_documents(read_text(path));
    } catch (const std::exception& e) {
      tally.failures.push_back(rel + ": not YAML: " + e.what());
      continue;
    }
    for (const rr::Json& doc : documents) {
      if (!doc.is_object() || doc.value("kind", "") != "CustomResourceDefinition") continue;
      const rr::Json versions = doc.value("/spec/versions"_json_pointer, rr::Json::array());
      for (const rr::Json& version : versions) {
        walk(version.value("/schema/openAPIV3Schema"_json_pointer, rr::Json()),
             rel + ": " + doc.value("/metadata/name"_json_pointer, std::string()) + " " + version.value("name", ""),
             tally);
      }
    }
    if (tally.rules + tally.message_expressions > before) ++files_with_rules;
  }
  for (const auto& failure : tally.failures) std::cout << failure << "\n\n";
  std::cout << "cel corpus: " << tally.rules << " rules and " << tally.message_expressions << " messageExpressions in "
            << files_with_rules << " of " << tally.files << " CRD files; " << tally.failures.size()
            << " do not compile\n";
  return tally.failures.empty() && tally.rules > 0 ? 0 : 1;
}
