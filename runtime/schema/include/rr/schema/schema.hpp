// Admission of a custom resource from its CRD's openAPIV3Schema, as the API server does it
// (apiextensions-apiserver over kube-openapi): structural checks when the schema is compiled, then
// defaulting, pruning of unknown fields and validation with the API server's messages. The CEL
// rules (x-kubernetes-validations) plug in through NodeCheck; this library evaluates none itself.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "rr/core/errors.hpp"
#include "rr/core/json.hpp"

namespace rr::schema {

// What the NodeChecks of one validation may still spend together: the API server's runtime
// budget of CEL cost per object (RuntimeCELCostBudget, k8s.io/apiserver/pkg/apis/cel; rr::cel's
// runtime_cel_cost_budget, which rr::schema_cel checks it equals). Once exhausted, no check runs.
struct CostBudget {
  std::uint64_t remaining = 10'000'000;
  bool exhausted = false;
};

// How a NodeCheck is called: what ratcheting needs beyond self and old_self.
struct CheckContext {
  bool ratcheting = true;  // ValidateOptions::ratcheting
  // On update, for a node without old_self (CEL cannot correlate it): whether the nearest
  // ancestor that has one is unchanged (old == new). A node with old_self decides by itself.
  bool ancestor_unchanged = false;
  std::vector<std::string>* warnings = nullptr;  // ValidateOptions::warnings: where ratcheted failures go
  CostBudget* budget = nullptr;                  // the validation's shared budget
};

// A check that runs at one schema node during validation (the CEL rules of that node). It runs at
// every non-null value of its node, unchanged ones included, and ratchets by itself: the engine
// ratchets the schema's own findings only.
class NodeCheck {
 public:
  virtual ~NodeCheck() = default;
  // self: the value at the node; old_self: its correlated old value on update (nullptr on create or
  // when CEL cannot correlate the node, e.g. items of a list that is not a list-type map); path:
  // the node's field path ("spec.ports[0]", "spec.byName[key]").
  virtual void check(const Json& self, const Json* old_self, const std::string& path, const CheckContext& context,
                     std::vector<FieldError>& out) const = 0;
};

// Where a node with rules sits in the CRD's schema, as the API server's CRD validation tells its
// rule compiler.
struct NodeContext {
  bool resource_root = false;  // the version's root schema (apiVersion, kind, metadata are implied)
  // The schema path of the outermost enclosing list whose items CEL cannot correlate (any
  // x-kubernetes-list-type but map) or atomic map whose members it cannot; empty when none. A rule
  // using oldSelf below it is refused upstream ("oldSelf cannot be used on the uncorrelatable
  // portion of the schema within <path>").
  std::string uncorrelatable_within;
  // Every list (its `items`) and map (its `additionalProperties`) schema enclosing the node,
  // outermost first: how many times the node can occur in one object, which multiplies its rules'
  // estimated cost. Valid during the factory call only.
  std::vector<const Json*> enclosing_collections;
};

// Called once per node that has x-kubernetes-validations, when the schema is compiled and has
// passed every other check. May return nullptr (nothing to check); compile errors it reports make
// compile() fail.
using NodeCheckFactory =
    std::function<std::unique_ptr<NodeCheck>(const Json& node_schema, const std::string& schema_path,
                                             const NodeContext& context, std::vector<FieldError>& compile_errors)>;

struct CompileOptions {
  NodeCheckFactory node_checks;
  std::string schema_path = "spec.validation.openAPIV3Schema";  // prefix of compile errors' paths
};

struct ValidateOptions {
  bool ratcheting = true;  // on update, drop errors at nodes whose value equals the old one (1.30+)
  std::vector<std::string>* warnings = nullptr;  // handed to the NodeChecks (CheckContext::warnings)
  // Report only what the NodeChecks and the junctors find: for a caller whose own code checks
  // everything else (rrgen's generated validate(), whose typed checks cover types, formats,
  // bounds, enums, required members and list uniqueness). The rest is still walked, unreported,
  // to decide whether the NodeChecks are withheld.
  bool checks_and_junctors_only = false;
  // With checks_and_junctors_only: the caller's own findings include one that withholds the
  // NodeChecks (blocks_checks()), as if the walk had found it.
  bool caller_blocks_checks = false;
};

// Whether a finding withholds the NodeChecks (upstream strategy.go's hasBlockingErr): the object
// lacks the shape the rules expect (a wrong type or format, an unsupported value, a missing
// member, a value too long or a list too long).
bool blocks_checks(const FieldError& e);

struct Node;  // the compiled tree (src/node.hpp)

class Schema {  // immutable once compiled; safe to use from many threads
 public:
  static std::variant<Schema, std::vector<FieldError>> compile(const Json& openapi_v3_schema,
                                                               const CompileOptions& options = {});

  // Structural defaulting: defaults of absent (or non-nullable null) fields, in objects, list
  // items and map values that exist; nulls of non-nullable fields without a default are dropped.
  void apply_defaults(Json& object) const;
  // Removes fields the schema does not specify (apiVersion, kind and metadata stay at the root and
  // in embedded resources); returns their paths as in `unknown field "spec.foo"`, sorted.
  std::vector<std::string> prune(Json& object) const;
  // Every finding, worded as the API server words it. old_object is the stored object on update.
  std::vector<FieldError> validate(const Json& object, const Json* old_object,
                                   const ValidateOptions& options = {}) const;

 private:
  explicit Schema(std::shared_ptr<const Node> root) : root_(std::move(root)) {}
  std::shared_ptr<const Node> root_;
};

}  // namespace rr::schema
