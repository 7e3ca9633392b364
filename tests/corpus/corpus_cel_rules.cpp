// Every CEL rule of every corpus CRD compiles with `self` typed from its schema, as the API server
// compiles them at CRD creation: each schema node's x-kubernetes-validations (rule,
// messageExpression, fieldPath, reason) through rr::schema::CelRules::compile, at any depth of any
// served version's schema, the openAPIV3Schema root declared as a resource root. A rule that does
// not compile is printed with its file and the API server's error (schema path, located error),
// and the run fails.
//
//   corpus_cel_rules CORPUS_DIR
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "rr/schema_cel/cel_rules.hpp"
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

// Walks a structural schema: the node's rules compiled together (as the API server does), then
// every place a schema nests one. `path` is the API server's field path of the node; `context`
// says whether it is the resource root and below which list oldSelf cannot be correlated.
void walk(const rr::Json& schema, const std::string& file, const std::string& path,
          const rr::schema::CompileContext& context, Tally& tally) {
  if (!schema.is_object()) return;
  if (auto rules = schema.find("x-kubernetes-validations"); rules != schema.end() && rules->is_array()) {
    for (const rr::Json& entry : *rules) {
      if (entry.contains("rule")) ++tally.rules;
      if (entry.contains("messageExpression")) ++tally.message_expressions;
    }
    std::vector<rr::FieldError> errors;
    rr::schema::CelRules::compile(schema, path, errors, context);
    for (const auto& e : errors) tally.failures.push_back(file + ": " + e.message);
  }
  // Below the root; below a list that is not a map list, items no longer correlate.
  rr::schema::CompileContext inner{.resource_root = false, .uncorrelatable_within = context.uncorrelatable_within};
  rr::schema::CompileContext items = inner;
  if (items.uncorrelatable_within.empty() && schema.value("x-kubernetes-list-type", "atomic") != "map") {
    items.uncorrelatable_within = path;
  }
  for (const char* map : {"properties", "patternProperties", "definitions"}) {
    if (auto children = schema.find(map); children != schema.end() && children->is_object()) {
      for (const auto& [name, child] : children->items()) {
        walk(child, file, path + "." + map + "[" + name + "]", inner, tally);
      }
    }
  }
  if (auto child = schema.find("items"); child != schema.end()) walk(*child, file, path + ".items", items, tally);
  for (const char* one : {"additionalProperties", "not"}) {
    if (auto child = schema.find(one); child != schema.end()) walk(*child, file, path + "." + one, inner, tally);
  }
  for (const char* list : {"allOf", "anyOf", "oneOf"}) {
    if (auto children = schema.find(list); children != schema.end() && children->is_array()) {
      for (std::size_t i = 0; i < children->size(); ++i) {
        walk((*children)[i], file, path + "." + list + "[" + std::to_string(i) + "]", inner, tally);
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
      for (std::size_t i = 0; i < versions.size(); ++i) {
        walk(versions[i].value("/schema/openAPIV3Schema"_json_pointer, rr::Json()),
             rel + " (" + doc.value("/metadata/name"_json_pointer, std::string()) + ")",
             "spec.versions[" + std::to_string(i) + "].schema.openAPIV3Schema",
             {.resource_root = true, .uncorrelatable_within = {}}, tally);
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
