// Compile once, evaluate many times:
//
//   auto compiled = rr::cel::compile("self.minReplicas <= self.replicas");
//   if (!compiled.ok()) std::cerr << compiled.error_text;   // located, with a caret line
//   rr::cel::Activation vars;
//   vars.set_json("self", object["spec"]);
//   rr::cel::Value v = compiled.program->evaluate(vars);   // bool true/false, or an error value
//
// A Program is immutable and may be evaluated from several threads at once, each with its own
// Activation.
#pragma once
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rr/cel/cost.hpp"
#include "rr/cel/parser.hpp"
#include "rr/cel/types.hpp"
#include "rr/cel/value.hpp"
#include "rr/core/json.hpp"

namespace rr::cel {

// The variables of one evaluation, by name ("self", "oldSelf", or qualified names such as
// "a.b.c" that a select chain `a.b.c` resolves to first, as CEL's name resolution does).
class Activation {
 public:
  void set(std::string name, Value value);
  // The JSON value as CEL sees Kubernetes objects: objects are maps with string keys, numbers are
  // int when integral and in range (else double), arrays lists, null null.
  void set_json(std::string name, const rr::Json& json);
  const Value* find(std::string_view name) const;

 private:
  std::vector<std::pair<std::string, Value>> vars_;
};

struct CompileOptions {
  ParseOptions parse;
  // The namespace names resolve in (CEL's container): with "a.b", `c` may mean "a.b.c", "a.c" or "c".
  std::string container;
  // A call of a function the library does not have is a compile error ("undeclared reference to
  // 'f'"), as with cel-go's checker; false defers it to evaluation, where it is an error value.
  bool check_functions = true;
  // The variables an activation may bind: with a list, any other name (not a comprehension
  // variable or a type) is a compile error; nullopt accepts every name.
  std::optional<std::vector<std::string>> variables;
  // Variables with their types (for Kubernetes, `self` typed from the schema): the checker infers
  // every node's type from them (undeclared names are dyn). Names here are declared names too.
  std::map<std::string, CelType> declarations;
  // MutatingAdmissionPolicy's object construction: `Object{spec: Object.spec{...}}` and
  // `JSONPatch{op: 'add', path: '/x', value: 1}` build maps of their fields (the API server types
  // them from the schema; here they are plain maps). Other message names stay errors.
  bool object_construction = false;
  // Report type errors at compile time (`1 + 'a'`, an undefined field of an object type): the
  // type checker of type_check.cpp. Where a type is dyn nothing is checked.
  bool check_types = true;
};

// Runtime cost accounting for one evaluation (cost.hpp): cel-go's units, charged as the
// evaluation goes (comprehension iterations, string and list sizes included).
struct EvalOptions {
  // Over this cost the evaluation stops with the error value cost_limit_exceeded_message
  // (the API server uses per_call_limit); nullopt counts without a limit.
  std::optional<std::uint64_t> cost_limit;
};

namespace detail {
struct Plan;
}

class Program {
 public:
  explicit Program(std::shared_ptr<const detail::Plan> plan) : plan_(std::move(plan)) {}
  // The result; errors (division by zero, no such key, ...) come back as error values.
  Value evaluate(const Activation& activation) const;
  // The same with the cost counted: the cost so far is stored in *actual_cost (when not null),
  // also when the limit stopped the evaluation.
  Value evaluate(const Activation& activation, const EvalOptions& options, std::uint64_t* actual_cost) const;

 private:
  std::shared_ptr<const detail::Plan> plan_;
};

struct CompileResult {
  std::optional<Program> program;
  CelType type;  // the expression's type as the checker inferred it (dyn when unknown)
  // The estimated cost of one evaluation (cel-go's estimator with the Kubernetes library's),
  // from the declarations' size bounds (without check_types every value counts as dyn).
  CostEstimate cost;
  std::vector<SourceError> errors;
  std::string error_text;  // cel-go's rendering, as ParseResult::error_text
  bool ok() const { return program.has_value(); }
};

CompileResult compile(std::string_view source, const CompileOptions& options = {});
// Plans an AST the caller parsed (or built); the AST is not kept. The checks CompileOptions asks
// for are not made here (use compile()).
Program plan(const Expr& expr, const CompileOptions& options = {});

}  // namespace rr::cel
