#include "rr/manifest_check/policy_check.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "rr/manifest_check/checker.hpp"

namespace rr::manifest_check {

namespace fs = std::filesystem;

struct PolicyCheck::Impl {
  Checker checker{/*strict=*/true};
  std::vector<Json> policies;  // as stored
};

namespace {

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path.string() + ": cannot be read");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<Document> documents_of(const fs::path& path) {
  ReadResult read = read_manifests(read_file(path), false);
  if (read.error) {
    throw std::runtime_error(path.string() + ":" + std::to_string(read.error->line) + ":" +
                             std::to_string(read.error->column) + ": " + read.error->message);
  }
  return std::move(read.documents);
}

// The .yaml files of a folder, sorted (none when it does not exist), without kustomization.yaml.
std::vector<fs::path> yaml_files(const fs::path& dir) {
  std::vector<fs::path> out;
  if (!fs::is_directory(dir)) return out;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const fs::path& p = entry.path();
    if (entry.is_regular_file() && p.extension() == ".yaml" && p.filename() != "kustomization.yaml") out.push_back(p);
  }
  std::sort(out.begin(), out.end());
  return out;
}

[[noreturn]] void refused(const fs::path& path, const Outcome& out) {
  throw std::runtime_error(path.string() + ": document " + std::to_string(out.document) + " (" + out.kind + " " +
                           out.name + ") was refused: " + out.refusal->message);
}

bool is_policy(const Json& object) {
  const std::string kind = object.value("kind", std::string());
  return kind == "ValidatingAdmissionPolicy" || kind == "MutatingAdmissionPolicy";
}

std::string difference_at(const std::string& path, const Json& actual, const Json& expected) {
  if (expected.is_object() && actual.is_object()) {
    for (const auto& [key, value] : expected.items()) {
      const auto it = actual.find(key);
      if (it == actual.end()) return path + "." + key + ": missing, expected " + value.dump();
      if (std::string d = difference_at(path + "." + key, *it, value); !d.empty()) return d;
    }
    return {};
  }
  if (actual == expected) return {};
  return path + ": " + actual.dump() + ", expected " + expected.dump();
}

Document one_document(std::string_view text) {
  ReadResult read = read_manifests(text, looks_like_json(text));
  if (read.error) throw std::runtime_error("the object is not YAML: " + read.error->message);
  if (read.documents.size() != 1) throw std::runtime_error("the object must be exactly one document");
  return std::move(read.documents.front());
}

}  // namespace

PolicyCheck::PolicyCheck(const std::string& config_dir) : impl_(std::make_unique<Impl>()) {
  const fs::path config(config_dir);
  if (!fs::is_directory(config)) throw std::runtime_error(config_dir + ": not a directory (the generated config/)");
  for (const fs::path& file : yaml_files(config / "crd" / "bases")) {
    for (const Document& doc : documents_of(file)) {
      const auto out = impl_->checker.add_crd(file.string(), doc);
      if (out && out->refusal) refused(file, *out);
    }
  }
  for (const fs::path& file : yaml_files(config / "policy")) {
    for (const Document& doc : documents_of(file)) {
      Outcome out = impl_->checker.add_object(file.string(), doc);
      if (out.refusal) refused(file, out);
      if (is_policy(out.object)) impl_->policies.push_back(std::move(out.object));
    }
  }
}

PolicyCheck::~PolicyCheck() = default;

std::vector<std::string> PolicyCheck::policies() const {
  std::vector<std::string> out;
  for (const Json& p : impl_->policies) out.push_back(p.value("kind", "") + "/" + p["metadata"].value("name", ""));
  std::sort(out.begin(), out.end());
  return out;
}

std::string PolicyCheck::expression_warnings() const {
  std::string out;
  for (const Json& p : impl_->policies) {
    const Json status = impl_->checker.policy_status(p);
    for (const Json& w : status["typeChecking"].value("expressionWarnings", Json::array())) {
      out += p["metadata"].value("name", "") + ": " + w.value("fieldRef", "") + ": " + w.value("warning", "") + "\n";
    }
  }
  return out;
}

PolicyCheckResult PolicyCheck::create(std::string_view object_yaml) const {
  const Outcome out = impl_->checker.check("object", one_document(object_yaml));
  PolicyCheckResult result;
  result.allowed = !out.refusal;
  if (out.refusal) result.message = out.refusal->message;
  if (!out.object.is_null()) result.object_json = out.object.dump();
  result.warnings = out.warnings;
  return result;
}

std::string PolicyCheck::difference(const PolicyCheckResult& result, std::string_view expected_yaml) {
  if (!result.allowed) return "the object was refused: " + result.message;
  const Json actual = Json::parse(result.object_json.empty() ? "null" : result.object_json);
  return difference_at("", actual, one_document(expected_yaml).object);
}

}  // namespace rr::manifest_check
