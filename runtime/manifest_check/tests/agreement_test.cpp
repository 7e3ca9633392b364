// The paths of admission_paths.hpp must agree, document by document: the built-in validation
// cases of runtime/validation/tests/data/builtin (each case's object as a create) and, when
// RRGEN_CORPUS_DIR is set, every document of the corpus samples with every corpus CRD installed;
// and a few Deployments under the same admission policies, created through each path.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "admission_paths.hpp"
#include "case_object.hpp"
#include "rr/manifest_check/manifest_reader.hpp"

using rr::Json;
using namespace rr::manifest_check_test;
namespace fs = std::filesystem;

namespace {

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

struct Tally {
  std::size_t documents = 0, admitted = 0, refused = 0, disagreed = 0;
  std::vector<std::size_t> refused_by;  // per column: each path answered for itself
};

// Every column's verdict of `object`, checked equal to the first column's.
void compare(const std::vector<Column>& columns, const Json& object, const std::string& what, Tally& tally) {
  std::vector<Verdict> verdicts;
  for (const Column& c : columns) verdicts.push_back(c.admit(object));
  ++tally.documents;
  ++(verdicts[0].code == 201 ? tally.admitted : tally.refused);
  tally.refused_by.resize(columns.size());
  for (std::size_t i = 0; i < columns.size(); ++i) tally.refused_by[i] += verdicts[i].code != 201;
  for (std::size_t i = 1; i < columns.size(); ++i) {
    if (verdicts[i] == verdicts[0]) continue;
    ++tally.disagreed;
    FAIL_CHECK(what << "\n  " << columns[0].name << ": " << describe(verdicts[0]) << "\n  " << columns[i].name << ": "
                    << describe(verdicts[i]));
  }
}

std::vector<Column> all_columns(HttpColumn& http, CheckerColumn& checker) { return {http.column(), checker.column()}; }

}  // namespace

TEST_CASE("the built-in validation cases: the HTTP API server, the in-process cluster and rrgen-validate agree on "
          "each create") {
  HttpColumn http;
  CheckerColumn checker;
  InProcessColumn in_process;
  auto columns = all_columns(http, checker);
  columns.push_back(in_process.column());
  Tally tally;
  std::vector<fs::path> tables;
  for (const auto& entry : fs::directory_iterator(RR_VALIDATION_CASES_DIR)) tables.push_back(entry.path());
  std::sort(tables.begin(), tables.end());
  REQUIRE_FALSE(tables.empty());
  for (const fs::path& table : tables) {
    const Json doc = Json::parse(read_text(table));
    const Json none;
    for (const Json& c : doc.at("cases")) {
      if (c.value("update", false)) continue;  // a create is what rrgen-validate checks
      const Json object = rr::validation_test::case_object(doc.at("base"), c.value("set", none),
                                                           c.value("remove", none));
      compare(columns, object, table.filename().string() + ": " + c.at("name").get<std::string>(), tally);
    }
  }
  MESSAGE("built-in cases: " << tally.documents << " creates, " << tally.admitted << " admitted, " << tally.refused
                             << " refused, " << tally.disagreed << " disagreements");
  CHECK(tally.refused > 0);
  for (std::size_t i = 0; i < columns.size(); ++i) CHECK_MESSAGE(tally.refused_by[i] == tally.refused, columns[i].name);
  CHECK(tally.disagreed == 0);
}

namespace {

Json deployment(const std::string& name, int replicas, const Json& labels) {
  Json d = {{"apiVersion", "apps/v1"},
            {"kind", "Deployment"},
            {"metadata", {{"name", name}}},
            {"spec",
             {{"replicas", replicas},
              {"selector", {{"matchLabels", {{"app", name}}}}},
              {"template",
               {{"metadata", {{"labels", {{"app", name}}}}},
                {"spec", {{"containers", Json::array({{{"name", "c"}, {"image", "nginx:1.27"}}})}}}}}}}};
  if (!labels.is_null()) d["metadata"]["labels"] = labels;
  return d;
}

Json deployments_rule() {
  return Json::parse(R"({"resourceRules": [{"apiGroups": ["apps"], "apiVersions": ["v1"],
                         "operations": ["CREATE"], "resources": ["deployments"]}]})");
}

Json validating_policy(const std::string& name, const Json& spec) {
  Json p = {{"apiVersion", "admissionregistration.k8s.io/v1"},
            {"kind", "ValidatingAdmissionPolicy"},
            {"metadata", {{"name", name}}},
            {"spec", spec}};
  p["spec"]["matchConstraints"] = deployments_rule();
  return p;
}

Json binding(const std::string& api_version, const std::string& kind, const std::string& name, const Json& spec) {
  return {{"apiVersion", api_version}, {"kind", kind}, {"metadata", {{"name", name}}}, {"spec", spec}};
}

// Params first, then policies and bindings: a Deny limit, a limit read from a ConfigMap, a label
// a Deny policy requires and a MutatingAdmissionPolicy adds (only where the tier label says so),
// and the policies and bindings both paths refuse (a name, an expression, validationActions).
std::vector<Json> admission_policies() {
  const std::string v1 = "admissionregistration.k8s.io/v1", v1beta1 = "admissionregistration.k8s.io/v1beta1";
  Json mutating = {{"apiVersion", v1beta1},
                   {"kind", "MutatingAdmissionPolicy"},
                   {"metadata", {{"name", "add-team"}}},
                   {"spec",
                    {{"matchConstraints", deployments_rule()},
                     {"matchConditions", Json::array({{{"name", "tiered"},
                                                       {"expression", "has(object.metadata.labels) && "
                                                                      "'tier' in object.metadata.labels"}}})},
                     {"reinvocationPolicy", "Never"},
                     {"mutations", Json::array({{{"patchType", "ApplyConfiguration"},
                                                 {"applyConfiguration",
                                                  {{"expression", "Object{metadata: Object.metadata{labels: "
                                                                  "{'team': 'platform'}}}"}}}}})}}}};
  return {
      Json{{"apiVersion", "v1"},
           {"kind", "ConfigMap"},
           {"metadata", {{"name", "limits"}, {"namespace", "default"}}},
           {"data", {{"max", "6"}}}},
      validating_policy("max-replicas",
                        {{"validations", Json::array({{{"expression", "object.spec.replicas <= 8"}}})}}),
      binding(v1, "ValidatingAdmissionPolicyBinding", "max-replicas-binding",
              {{"policyName", "max-replicas"}, {"validationActions", {"Deny"}}}),
      validating_policy(
          "limit-from-params",
          {{"paramKind", {{"apiVersion", "v1"}, {"kind", "ConfigMap"}}},
           {"validations", Json::array({{{"expression", "object.spec.replicas <= int(params.data.max)"},
                                         {"messageExpression", "'at most ' + params.data.max + ' replicas'"},
                                         {"reason", "Invalid"}}})}}),
      binding(v1, "ValidatingAdmissionPolicyBinding", "limit-from-params-binding",
              {{"policyName", "limit-from-params"},
               {"validationActions", {"Deny"}},
               {"paramRef", {{"name", "limits"}, {"namespace", "default"}, {"parameterNotFoundAction", "Deny"}}}}),
      validating_policy("require-team",
                        {{"validations", Json::array({{{"expression", "has(object.metadata.labels) && 'team' in "
                                                                      "object.metadata.labels"},
                                                       {"message", "a Deployment needs a team"}}})}}),
      binding(v1, "ValidatingAdmissionPolicyBinding", "require-team-binding",
              {{"policyName", "require-team"}, {"validationActions", {"Deny"}}}),
      mutating,
      binding(v1beta1, "MutatingAdmissionPolicyBinding", "add-team-binding", {{"policyName", "add-team"}}),
      validating_policy("Bad_Name", {{"validations", Json::array({{{"expression", "true"}}})}}),
      // The API server's validation of the kind: an expression that does not compile, a binding
      // with both Deny and Warn.
      validating_policy("broken", {{"validations", Json::array({{{"expression", "object.spec.replicas <="}}})}}),
      binding(v1, "ValidatingAdmissionPolicyBinding", "deny-and-warn",
              {{"policyName", "max-replicas"}, {"validationActions", {"Deny", "Warn"}}}),
  };
}

}  // namespace

TEST_CASE("admission policies: the HTTP API server and rrgen-validate agree under the same policies") {
  HttpColumn http;
  CheckerColumn checker;
  const auto columns = all_columns(http, checker);
  std::size_t refused_policies = 0;
  for (const Json& object : admission_policies()) {
    const Verdict first = columns[0].create(object);
    const Verdict second = columns[1].create(object);
    if (first.code != 201) ++refused_policies;
    CHECK_MESSAGE(first == second, object.at("metadata").at("name").get<std::string>()
                                       << "\n  " << describe(first) << "\n  " << describe(second));
  }
  CHECK(refused_policies == 3);

  const Json team = {{"team", "web"}}, tier = {{"tier", "front"}};
  Tally tally;
  compare(columns, deployment("small", 2, team), "2 replicas, a team", tally);
  compare(columns, deployment("no-team", 2, nullptr), "no team label", tally);
  compare(columns, deployment("tiered", 2, tier), "a tier: the mutating policy adds the team", tally);
  compare(columns, deployment("over-param", 7, team), "over the params' limit", tally);
  compare(columns, deployment("over-limit", 9, team), "over both limits", tally);
  compare(columns, deployment("negative", -1, team), "Go validation first", tally);
  const Json pod = Json::parse(R"({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
                                   "spec": {"containers": [{"name": "c", "image": "nginx"}]}})");
  compare(columns, pod, "a Pod: no policy matches", tally);
  MESSAGE("admission policies: " << tally.documents << " creates, " << tally.admitted << " admitted, " << tally.refused
                                 << " refused, " << tally.disagreed << " disagreements");
  CHECK(tally.admitted == 3);
  CHECK(tally.disagreed == 0);
}

TEST_CASE("the corpus samples: the HTTP API server and rrgen-validate agree on every document" *
          doctest::skip(std::getenv("RRGEN_CORPUS_DIR") == nullptr || !*std::getenv("RRGEN_CORPUS_DIR"))) {
  const fs::path corpus = std::getenv("RRGEN_CORPUS_DIR");
  HttpColumn http;
  CheckerColumn checker;
  const auto columns = all_columns(http, checker);

  // Every corpus CRD, through every column; whether each is accepted must agree too.
  std::size_t crds = 0, crds_refused = 0;
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(corpus / "crds")) {
    if (e.is_regular_file() && (e.path().extension() == ".yaml" || e.path().extension() == ".yml"))
      files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& file : files) {
    for (const auto& doc : rr::manifest_check::read_manifests(read_text(file), false).documents) {
      if (doc.object.value("kind", "") != "CustomResourceDefinition") continue;
      ++crds;
      std::vector<int> codes;
      for (const Column& c : columns) {
        try {
          c.add_crd(doc.object);
          codes.push_back(201);
        } catch (const rr::ApiError& e) {
          codes.push_back(e.code());
        }
      }
      if (codes[0] != 201) ++crds_refused;
      CHECK_MESSAGE(std::all_of(codes.begin(), codes.end(), [&](int c) { return c == codes[0]; }), file.string());
    }
  }

  files.clear();
  for (const auto& e : fs::recursive_directory_iterator(corpus / "samples")) {
    const auto ext = e.path().extension();
    if (e.is_regular_file() && (ext == ".yaml" || ext == ".yml" || ext == ".json")) files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  Tally tally;
  std::map<int, std::size_t> by_code;
  for (const fs::path& file : files) {
    const auto read = rr::manifest_check::read_manifests(read_text(file), file.extension() == ".json");
    for (const auto& doc : read.documents) {
      compare(columns, doc.object, file.string() + " document " + std::to_string(doc.index), tally);
      ++by_code[columns[1].admit(doc.object).code];
    }
  }
  std::string codes;
  for (const auto& [code, n] : by_code) codes += " " + std::to_string(code) + ":" + std::to_string(n);
  MESSAGE("corpus: " << crds << " CRDs (" << crds_refused << " refused); " << files.size() << " sample files, "
                     << tally.documents << " documents, " << tally.admitted << " admitted, " << tally.refused
                     << " refused (by code:" << codes << "), " << tally.disagreed << " disagreements");
  CHECK(tally.documents > 0);
  CHECK(tally.disagreed == 0);
}
