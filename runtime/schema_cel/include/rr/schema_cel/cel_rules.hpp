// x-kubernetes-validations as the API server applies them: the rules of one schema node compiled
// once with `self` typed from that node's schema, then checked against values with the API
// server's error text. The structural-schema walk calls check() at each node carrying rules.
//
//   std::vector<rr::FieldError> errors;
//   auto rules = rr::schema::CelRules::compile(spec_schema, "spec.versions[0]...properties[spec]", errors);
//   if (rules) rules->check(object["spec"], old_spec_or_null, "spec", errors);
//   // spec: Invalid value: replicas must not exceed maxReplicas
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "rr/cel/cost.hpp"
#include "rr/cel/types.hpp"
#include "rr/cel/value.hpp"
#include "rr/core/errors.hpp"
#include "rr/core/json.hpp"
#include "rr/schema/schema.hpp"

namespace rr::schema {

struct CompiledRule;

// Where in the CRD's schema a node sits, as far as its rules care.
// The estimated costs of one CRD version's rules, added up as the API server adds them
// (celContext.TotalCost): the total and the most expensive expressions with their schema paths.
struct CostTally {
  std::uint64_t total = 0;
  std::vector<std::pair<std::string, std::uint64_t>> most_expensive;  // at most 4, costliest first
  void observe(const std::string& path, std::uint64_t cost);
  // The API server's errors when the total is over static_estimated_crd_cost_limit, at
  // `schema_path` (the version's openAPIV3Schema) and at each of the most expensive rules.
  void check(const std::string& schema_path, std::vector<FieldError>& errors) const;
};

struct CompileContext {
  // The root of a custom resource (a version's openAPIV3Schema): apiVersion, kind, metadata.name
  // and metadata.generateName are declared even when the schema omits them (an
  // x-kubernetes-embedded-resource node gets this by itself).
  bool resource_root = false;
  // The schema path of the nearest enclosing list whose items cannot be correlated with the old
  // object (any x-kubernetes-list-type but map); empty when there is none. A rule that uses
  // oldSelf below it is refused, as the API server refuses it.
  std::string uncorrelatable_within;
  // How many times the node can occur in one object (the product of the enclosing lists' and maps'
  // maxItems/maxProperties, or their request-size bounds): each rule's estimated cost counts that
  // many times against static_estimated_cost_limit.
  std::uint64_t cardinality = 1;
  // Where the rules' estimated costs are added up for the CRD's limit; nullptr: not added.
  CostTally* tally = nullptr;
};

// Ratcheting (the API server's CRDValidationRatcheting, on by default since Kubernetes 1.30): on
// update, a rule that fails on a value the update did not change, and that does not use oldSelf,
// is a warning, not an error.
struct CheckOptions {
  // Off: every failure is an error, whatever the update left unchanged.
  bool ratcheting = true;
  // For a node the walk cannot correlate (check() gets no old_self on an update): whether the
  // nearest correlatable ancestor is unchanged. A correlated node decides by itself (old == new).
  bool ancestor_unchanged = false;
  // Receives the ratcheted errors' text (the API server sends them as Warning headers); they are
  // dropped when null.
  std::vector<std::string>* warnings = nullptr;
  // The object's runtime budget, shared by every node's rules; nullptr: a budget of this call's own.
  CostBudget* budget = nullptr;
};

class CelRules {
 public:
  // node_schema: the schema node carrying the rules (its whole subtree types `self`);
  // schema_path: e.g. "spec.validation.openAPIV3Schema.properties[spec]" for the compile errors' paths.
  // nullptr and errors appended when any rule, messageExpression or fieldPath does not compile.
  static std::unique_ptr<CelRules> compile(const Json& node_schema, const std::string& schema_path,
                                           std::vector<FieldError>& errors, const CompileContext& context = {});
  // Evaluates every rule at `path`; old_self is the correlated old value (nullptr on create / not correlatable).
  void check(const Json& self, const Json* old_self, const std::string& path, std::vector<FieldError>& out,
             const CheckOptions& options = {}) const;
  bool has_transition_rules() const;

  ~CelRules();
  CelRules(const CelRules&) = delete;
  CelRules& operator=(const CelRules&) = delete;

 private:
  CelRules();
  Json schema_;  // the node's schema: converts values for `self` and names the type in messages
  std::vector<CompiledRule> rules_;
};

// The CEL type of `self` for a schema node, as Kubernetes declares it (k8s.io/apiserver/pkg/cel DeclType): objects with
// their properties, maps for additionalProperties, lists, int-or-string and preserve-unknown-fields as dyn, embedded
// resources, string formats (byte -> bytes, duration -> duration, date/date-time -> timestamp), size bounds from
// maxLength/maxItems/maxProperties (CelType::with_max_size).
rr::cel::CelType cel_type_of(const Json& node_schema);
// The type of a whole resource (SchemaDeclType(schema, true), as admission policies' type checking
// declares `object`): kind, apiVersion and metadata (name, generateName) declared when the schema
// lacks them; object types named `type_name` and its paths.
rr::cel::CelType resource_cel_type(const Json& root_schema, const std::string& type_name);
// The JSON value at that node as CEL sees it with that type (formats converted, e.g. date-time strings to timestamps).
rr::cel::Value cel_value_of(const Json& value, const Json& node_schema);

}  // namespace rr::schema
