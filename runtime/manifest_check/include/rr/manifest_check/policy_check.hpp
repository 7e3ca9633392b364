// An operator's admission policies checked in its own tests: the config/ tree rrgen generated
// (crd/bases and policy/) loaded into an offline cluster with the API server's policy plugins, as
// `rrgen validate --policy` loads them, then objects created against it. The generated
// <stem>_policies_test.cpp calls this (docs/reconciler-spec.md#admission-policies); the header
// includes only standard headers, so that test compiles fast.
#pragma once
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace rr::manifest_check {

struct PolicyCheckResult {
  bool allowed = false;
  std::string message;      // the refusal's ("" when admitted)
  std::string object_json;  // the admitted object, after the mutations
  std::vector<std::string> warnings;
};

class PolicyCheck {
 public:
  // Loads config_dir's crd/bases/*.yaml as CRDs and policy/*.yaml (but kustomization.yaml) as
  // stored objects. std::runtime_error naming the file and document when one cannot be read or is
  // refused.
  explicit PolicyCheck(const std::string& config_dir);
  ~PolicyCheck();
  PolicyCheck(const PolicyCheck&) = delete;
  PolicyCheck& operator=(const PolicyCheck&) = delete;

  // "<Kind>/<name>" of every admission policy loaded, sorted.
  std::vector<std::string> policies() const;
  // What the API server's status controller writes into each policy's
  // status.typeChecking.expressionWarnings, as "<policy>: <fieldRef>: <warning>" lines ("" = none).
  std::string expression_warnings() const;

  // A dry-run CREATE of one YAML (or JSON) object, strict about unknown fields; a namespaced object
  // without a namespace goes to "default". std::runtime_error when the text is not one document.
  PolicyCheckResult create(std::string_view object_yaml) const;

  // "" when the admitted object holds every member of `expected_yaml` with the same value (mappings
  // compared member by member, anything else whole); else the first difference, with its path.
  static std::string difference(const PolicyCheckResult& result, std::string_view expected_yaml);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace rr::manifest_check
