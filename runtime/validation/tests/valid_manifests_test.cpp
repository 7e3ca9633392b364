// False refusals: every built-in object this validation covers, in the repository's samples/ and
// docs/ YAML and in the shared corpus of real projects' samples (when present beside the
// repository), must validate without findings. Manifests embedded as YAML strings (an Argo
// Workflow's `manifest: |` of a create step) are read too.
#include <doctest/doctest.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include "facts.hpp"
#include "rr/validation/builtin.hpp"
#include "rr/validation/decoding.hpp"
#include "rr/validation/defaults.hpp"

using rr::Json;
namespace fs = std::filesystem;

namespace {

bool integer_text(const std::string& s) {
  std::size_t i = (!s.empty() && (s[0] == '-' || s[0] == '+')) ? 1 : 0;
  if (i >= s.size() || s.size() - i > 18) return false;
  for (; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
  }
  return true;
}

// A YAML node as the API server's decoder reads it (sigs.k8s.io/yaml: plain scalars are typed).
Json to_json(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Map: {
      Json out = Json::object();
      for (const auto& kv : node) out[kv.first.as<std::string>()] = to_json(kv.second);
      return out;
    }
    case YAML::NodeType::Sequence: {
      Json out = Json::array();
      for (const auto& item : node) out.push_back(to_json(item));
      return out;
    }
    case YAML::NodeType::Scalar: {
      const std::string s = node.Scalar();
      if (node.Tag() == "!") return s;  // quoted
      if (s == "true" || s == "True") return true;
      if (s == "false" || s == "False") return false;
      if (s == "null" || s == "~" || s.empty()) return nullptr;
      if (integer_text(s)) return std::stoll(s);
      return s;
    }
    default: return nullptr;
  }
}

struct Checked {
  int objects = 0;
  int decoded = 0;  // built-in objects decoded as the API server decodes them
};

void check_object(const Json& object, const std::string& where, Checked& checked);

// Strings that hold a whole manifest (workflow templates, Helm-free examples) are read as YAML.
void scan_strings(const Json& value, const std::string& where, Checked& checked) {
  if (value.is_object()) {
    // An Argo resource step that gets or deletes names its object; only what it creates is admitted.
    const auto action = value.find("action");
    if (action != value.end() && action->is_string() && *action != "create" && *action != "apply" &&
        *action != "replace") {
      return;
    }
    for (const auto& [k, v] : value.items()) scan_strings(v, where, checked);
  } else if (value.is_array()) {
    for (const Json& v : value) scan_strings(v, where, checked);
  } else if (value.is_string()) {
    const std::string& s = value.get_ref<const std::string&>();
    if (s.find("apiVersion:") == std::string::npos || s.find("kind:") == std::string::npos) return;
    try {
      for (const YAML::Node& doc : YAML::LoadAll(s)) check_object(to_json(doc), where + " (embedded)", checked);
    } catch (const YAML::Exception&) {
      // not YAML after all
    }
  }
}

void check_object(const Json& object, const std::string& where, Checked& checked) {
  if (!object.is_object()) return;
  scan_strings(object, where, checked);
  const Json* api_version = object.contains("apiVersion") ? &object["apiVersion"] : nullptr;
  const Json* kind = object.contains("kind") ? &object["kind"] : nullptr;
  if (!api_version || !kind || !api_version->is_string() || !kind->is_string()) return;
  const std::string gv = api_version->get<std::string>();
  const auto slash = gv.find('/');
  const std::string group = slash == std::string::npos ? "" : gv.substr(0, slash);
  const std::string version = slash == std::string::npos ? gv : gv.substr(slash + 1);
  // Decoded as the API server decodes it: no unknown member, no value of the wrong type (a
  // template's "${VAR}" and a doc snippet's "<BASE64_ENCODED_CERT>" placeholders aside, which no
  // server accepts as written).
  const Json& definitions = rr::validation::test::facts_definitions();
  const auto root = rr::validation::kind_definition(definitions, group, version, kind->get<std::string>());
  static const std::regex placeholder(R"(\$\{|"<[A-Z0-9_]+>")");
  if (root && !std::regex_search(object.dump(), placeholder)) {
    ++checked.decoded;
    Json decoded = object;
    const auto outcome = rr::validation::decode_as_go(decoded, definitions, *root);
    std::string unknown;
    for (const auto& field : outcome.unknown_fields) unknown += " " + field;
    CHECK_MESSAGE(outcome.error.empty(), where << ": " << outcome.error);
    CHECK_MESSAGE(unknown.empty(), where << ": unknown fields" << unknown);
  }
  if (!rr::validation::find_builtin_validator(group, version, kind->get<std::string>())) return;
  ++checked.objects;
  // As the API server sees it: after the Go defaults (a Service port's targetPort is its port).
  Json defaulted = object;
  rr::validation::apply_builtin_defaults(group, version, kind->get<std::string>(), defaulted);
  std::string found;
  for (const auto& e : rr::validation::validate_builtin(group, version, kind->get<std::string>(), defaulted, nullptr)) {
    found += "\n  " + e.to_string();
  }
  CHECK_MESSAGE(found.empty(), where << ": " << kind->get<std::string>() << found);
}

void scan_tree(const fs::path& root, Checked& checked) {
  if (!fs::is_directory(root)) return;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    const std::string ext = entry.path().extension().string();
    if (!entry.is_regular_file() || (ext != ".yaml" && ext != ".yml")) continue;
    try {
      for (const YAML::Node& doc : YAML::LoadAllFromFile(entry.path().string())) {
        check_object(to_json(doc), entry.path().string(), checked);
      }
    } catch (const YAML::Exception&) {
      // templates (Helm, Kustomize patches) that are not plain YAML are not manifests to admit
    }
  }
}

}  // namespace

TEST_CASE("the repository's and the corpus's built-in objects decode and validate without findings") {
  Checked checked;
  const fs::path repo(RR_VALIDATION_REPO_ROOT);
  scan_tree(repo / "samples", checked);
  scan_tree(repo / "docs", checked);
  scan_tree(repo / ".." / "shared" / "corpus" / "samples", checked);
  MESSAGE("built-in objects checked: " << checked.objects << ", decoded: " << checked.decoded);
}

TEST_CASE("the YAML reading of this test types plain scalars as the API server's decoder does") {
  const Json j = to_json(YAML::Load("a: 1\nb: '1'\nc: true\nd: ~\ne: web\n"));
  CHECK(j == Json::parse(R"({"a":1,"b":"1","c":true,"d":null,"e":"web"})"));
}
