// Activation, compile() and Program::evaluate (program.hpp).
#include "rr/cel/program.hpp"

#include <algorithm>

#include "check.hpp"
#include "cost_estimate.hpp"
#include "plan.hpp"
#include "rr/cel/json.hpp"
#include "type_check.hpp"

namespace rr::cel {

void Activation::set(std::string name, Value value) {
  for (auto& [n, v] : vars_)
    if (n == name) {
      v = std::move(value);
      return;
    }
  vars_.emplace_back(std::move(name), std::move(value));
}

void Activation::set_json(std::string name, const rr::Json& json) { set(std::move(name), from_json(json)); }

const Value* Activation::find(std::string_view name) const {
  for (const auto& [n, v] : vars_)
    if (n == name) return &v;
  return nullptr;
}

Value Program::evaluate(const Activation& activation) const {
  Frame frame;
  frame.activation = &activation;
  frame.locals.resize(plan_->slots);
  return plan_->root->eval(frame);
}

Value Program::evaluate(const Activation& activation, const EvalOptions& options, std::uint64_t* actual_cost) const {
  cost::Tracker tracker;
  if (options.cost_limit) tracker.limit = *options.cost_limit;
  Frame frame;
  frame.activation = &activation;
  frame.locals.resize(plan_->slots);
  frame.cost = &tracker;
  Value result;
  try {
    result = plan_->root->eval_counted(frame);
  } catch (const cost::LimitExceeded&) {
    result = Value::error(std::string(cost_limit_exceeded_message));
  }
  if (actual_cost != nullptr) *actual_cost = tracker.total;
  return result;
}

CompileResult compile(std::string_view source, const CompileOptions& options) {
  CompileResult result;
  ParseResult parsed = parse(source, options.parse);
  if (!parsed.ok()) {
    result.errors = std::move(parsed.errors);
    result.error_text = std::move(parsed.error_text);
    return result;
  }
  std::vector<CheckIssue> issues = check_names(*parsed.expr, options);
  NodeTypes node_types;  // empty without the type check: every node dyn to the estimate
  if (options.check_types) {
    TypeCheckResult typed = check_types(*parsed.expr, options);
    result.type = typed.type;
    node_types = std::move(typed.node_types);
    issues.insert(issues.end(), typed.issues.begin(), typed.issues.end());
  }
  result.cost = estimate_cost(*parsed.expr, node_types);
  std::vector<CheckIssue> plan_issues;
  Program program = plan(*parsed.expr, options, plan_issues);
  if (options.check_functions) issues.insert(issues.end(), plan_issues.begin(), plan_issues.end());
  std::sort(issues.begin(), issues.end(), [](const CheckIssue& a, const CheckIssue& b) { return a.offset < b.offset; });
  for (const auto& issue : issues) result.errors.push_back(source_error(source, issue.offset, issue.message));
  if (!result.errors.empty()) {
    result.error_text = format_errors(source, result.errors, options.parse.description);
    return result;
  }
  result.program = std::move(program);
  return result;
}

}  // namespace rr::cel
