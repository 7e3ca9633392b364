// Admission of a custom resource from its CRD's openAPIV3Schema, as the API server does it
// (apiextensions-apiserver over kube-openapi): structural checks when the schema is compiled, then
// defaulting, pruning of unknown fields and validation with the API server's messages. The CEL
// rules (x-kubernetes-validations) plug in through NodeCheck; this library evaluates none itself.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "rr/core/errors.hpp"
#include "rr/core/json.hpp"

namespace rr::schema {

// A check that runs at one schema node during validation (the CEL rules of that node).
class NodeCheck {
 public:
  virtual ~NodeCheck() = default;
  // self: the value at the node; old_self: its correlated old value on update (nullptr on create or
  // when the node cannot be correlated, e.g. inside an atomic list); path: the node's field path.
  virtual void check(const Json& self, const Json* old_self, const std::string& path,
                     std::vector<FieldError>& out) const = 0;
};

// Called once per node that has x-kubernetes-validations, when the schema is compiled. May return
// nullptr (nothing to check); compile errors it reports make compile() fail.
using NodeCheckFactory = std::function<std::unique_ptr<NodeCheck>(
    const Json& node_schema, const std::string& schema_path, std::vector<FieldError>& compile_errors)>;

struct CompileOptions {
  NodeCheckFactory node_checks;
  std::string schema_path = "spec.validation.openAPIV3Schema";  // prefix of compile errors' paths
};

struct ValidateOptions {
  bool ratcheting = true;  // on update, drop errors at nodes whose value equals the old one (1.30+)
};

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
