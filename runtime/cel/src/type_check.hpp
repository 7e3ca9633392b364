// The type checker: infers the type of every node from the declared variables' types and reports
// what cannot run whatever the data (`1 + 'a'`, a field an object type does not declare, a
// condition that is not a bool). Where a type is dyn it checks nothing, as CEL's checker.
//
// Calls are checked against the function table itself: the implementation runs on a sample value
// of each argument type, and "no matching overload" is a type error; the sample result gives the
// result type. So the checker and the evaluator cannot disagree on which overloads exist.
#pragma once
#include <vector>

#include "check.hpp"
#include "cost_estimate.hpp"
#include "rr/cel/ast.hpp"
#include "rr/cel/program.hpp"
#include "rr/cel/types.hpp"

namespace rr::cel {

struct TypeCheckResult {
  CelType type;
  std::vector<CheckIssue> issues;
  NodeTypes node_types;  // every node's type, for the cost estimate
};

TypeCheckResult check_types(const Expr& expr, const CompileOptions& options);

}  // namespace rr::cel
