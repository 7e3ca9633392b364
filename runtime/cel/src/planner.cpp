// AST -> plan (plan.hpp): resolves names (comprehension variables to slots, qualified names
// against the container), functions to the function table, constant regular expressions.
#include <re2/re2.h>

#include "check.hpp"
#include "nodes.hpp"
#include "regex.hpp"
#include "utf8.hpp"

namespace rr::cel {

namespace {

class Planner {
 public:
  explicit Planner(const CompileOptions& options) : options_(options), functions_(standard_functions()) {}

  NodePtr plan(const Expr& e) {
    return std::visit([&](const auto& node) { return plan_node(node); }, e.node);
  }

  std::size_t slots() const { return max_slots_; }

  std::vector<CheckIssue> issues;  // constant patterns RE2 rejects

 private:
  NodePtr plan_node(const ConstantExpr& c) { return std::make_unique<ConstNode>(c.value); }

  std::optional<std::size_t> local(const std::string& name) const {
    for (auto it = scope_.rbegin(); it != scope_.rend(); ++it)
      if (it->first == name) return it->second;
    return std::nullopt;
  }

  // The names `root.f1.f2...` may stand for, longest first, with the container's prefixes.
  std::vector<NameNode::Candidate> candidates(const std::string& root, const std::vector<std::string>& fields) const {
    std::vector<std::string> prefixes;
    std::string base = root;
    if (!base.empty() && base[0] == '.') {
      base.erase(0, 1);
      prefixes.emplace_back();
    } else {
      std::string c = options_.container;
      while (!c.empty()) {
        prefixes.push_back(c + ".");
        const auto dot = c.rfind('.');
        c = dot == std::string::npos ? std::string() : c.substr(0, dot);
      }
      prefixes.emplace_back();
    }
    std::vector<NameNode::Candidate> out;
    for (std::size_t k = fields.size() + 1; k-- > 0;) {
      std::string qualified = base;
      for (std::size_t i = 0; i < k; ++i) qualified += "." + fields[i];
      for (const auto& p : prefixes)
        if (could_bind(p + qualified)) out.push_back({p + qualified, k});
    }
    return out;
  }

  // With declared variables, only they (and type names) can resolve a name: the other candidates
  // are dropped when planning, so evaluation looks up one name instead of each qualified form.
  bool could_bind(const std::string& name) const {
    if (!options_.variables || type_value(name) != nullptr || options_.declarations.count(name) != 0) return true;
    for (const auto& v : *options_.variables)
      if (v == name) return true;
    return false;
  }

  NodePtr plan_node(const IdentExpr& id) {
    if (const auto slot = local(id.name)) return std::make_unique<LocalNode>(*slot);
    return std::make_unique<NameNode>(candidates(id.name, {}), std::vector<std::string>{}, id.name);
  }

  // The identifier at the root of a select chain of plain fields (`a.b.c` -> "a", {"b", "c"}),
  // when the root is not a comprehension variable.
  const IdentExpr* qualified_root(const Expr& e, std::vector<std::string>& fields) const {
    const Expr* cur = &e;
    std::vector<std::string> reversed;
    while (const auto* sel = std::get_if<SelectExpr>(&cur->node)) {
      if (sel->test_only || sel->optional) return nullptr;
      reversed.push_back(sel->field);
      cur = sel->operand.get();
    }
    const auto* id = std::get_if<IdentExpr>(&cur->node);
    if (id == nullptr || local(id->name)) return nullptr;
    fields.assign(reversed.rbegin(), reversed.rend());
    return id;
  }

  NodePtr plan_node(const SelectExpr& s) {
    if (!s.test_only && !s.optional) {
      std::vector<std::string> fields;
      if (const IdentExpr* root = qualified_root(*s.operand, fields)) {
        fields.push_back(s.field);
        auto c = candidates(root->name, fields);
        return std::make_unique<NameNode>(std::move(c), std::move(fields), root->name);
      }
    }
    return std::make_unique<SelectNode>(plan(*s.operand), s.field, s.test_only, s.optional);
  }

  std::vector<NodePtr> plan_all(const std::vector<ExprPtr>& exprs) {
    std::vector<NodePtr> out;
    out.reserve(exprs.size());
    for (const auto& e : exprs) out.push_back(plan(*e));
    return out;
  }

  // `pattern` when the expression is a string constant.
  static const std::string* constant_string(const Expr& e) {
    const auto* c = std::get_if<ConstantExpr>(&e.node);
    return c != nullptr && c->value.kind() == Kind::String ? &c->value.as_string() : nullptr;
  }

  NodePtr matches(const Expr& text, const Expr& pattern_expr, const std::string& pattern) {
    std::string error;
    auto re = compile_regex(pattern, error);
    if (!re) {
      issues.push_back({pattern_expr.offset, error});
      std::vector<NodePtr> first;
      first.push_back(plan(text));
      return std::make_unique<ErrorNode>(error, std::move(first));
    }
    return std::make_unique<MatchesNode>(plan(text), std::move(re), code_point_count(pattern));
  }

  NodePtr plan_node(const CallExpr& c) {
    const std::size_t argc = c.args.size();
    if (!c.target) {
      if ((c.function == "_&&_" || c.function == "_||_") && argc == 2)
        return std::make_unique<LogicNode>(c.function == "_&&_", plan(*c.args[0]), plan(*c.args[1]));
      if (c.function == "_?_:_" && argc == 3)
        return std::make_unique<ConditionalNode>(plan(*c.args[0]), plan(*c.args[1]), plan(*c.args[2]));
      if (c.function == "matches" && argc == 2)
        if (const std::string* p = constant_string(*c.args[1])) return matches(*c.args[0], *c.args[1], *p);
      std::string name = c.function;
      if (!name.empty() && name[0] == '.') name.erase(0, 1);
      const Function* fn = functions_.find(name);
      return std::make_unique<CallNode>(name, fn != nullptr && fn->global ? fn->impl : nullptr, plan_all(c.args));
    }
    // `optional.of(x)`: a qualified function name, not a member call.
    std::vector<std::string> fields;
    if (const IdentExpr* root = qualified_root(*c.target, fields)) {
      std::string qualified = root->name;
      if (!qualified.empty() && qualified[0] == '.') qualified.erase(0, 1);
      for (const auto& f : fields) qualified += "." + f;
      qualified += "." + c.function;
      const Function* fn = functions_.find(qualified);
      if (fn != nullptr && fn->global) return std::make_unique<CallNode>(qualified, fn->impl, plan_all(c.args));
    }
    if ((c.function == "or" || c.function == "orValue") && argc == 1)
      return std::make_unique<OptionalOrNode>(c.function == "orValue", plan(*c.target), plan(*c.args[0]));
    if (c.function == "matches" && argc == 1)
      if (const std::string* p = constant_string(*c.args[0])) return matches(*c.target, *c.args[0], *p);
    const Function* fn = functions_.find(c.function);
    std::vector<NodePtr> args;
    args.push_back(plan(*c.target));
    for (auto& a : plan_all(c.args)) args.push_back(std::move(a));
    return std::make_unique<CallNode>(c.function, fn != nullptr && fn->member ? fn->impl : nullptr, std::move(args));
  }

  NodePtr plan_node(const ListExpr& l) { return std::make_unique<ListNode>(plan_all(l.elements), l.optional); }

  NodePtr plan_node(const MapExpr& m) {
    std::vector<MapNode::Entry> entries;
    for (const auto& e : m.entries) entries.push_back({plan(*e.key), plan(*e.value), e.optional});
    return std::make_unique<MapNode>(std::move(entries));
  }

  NodePtr plan_node(const StructExpr& s) {
    const std::string& n = s.message_name;
    if (options_.object_construction && (n == "Object" || n.starts_with("Object.") || n == "JSONPatch")) {
      std::vector<MapNode::Entry> entries;
      for (const auto& f : s.fields) {
        entries.push_back({std::make_unique<ConstNode>(Value(f.field)), plan(*f.value), f.optional});
      }
      return std::make_unique<MapNode>(std::move(entries));
    }
    std::vector<NodePtr> first;
    for (const auto& f : s.fields) first.push_back(plan(*f.value));
    return std::make_unique<ErrorNode>("unknown type: " + s.message_name + " (protobuf messages are not supported)",
                                       std::move(first));
  }

  NodePtr plan_node(const ComprehensionExpr& c) {
    NodePtr range = plan(*c.range);
    const std::size_t slot = scope_.size();
    const bool two = !c.var2.empty();
    scope_.emplace_back(c.var, slot);
    if (two) scope_.emplace_back(c.var2, slot + 1);
    max_slots_ = std::max(max_slots_, scope_.size());
    NodePtr predicate = c.predicate ? plan(*c.predicate) : nullptr;
    NodePtr transform = c.transform ? plan(*c.transform) : nullptr;
    scope_.resize(slot);
    return std::make_unique<ComprehensionNode>(c.macro, two, slot, std::move(range), std::move(predicate),
                                               std::move(transform));
  }

  const CompileOptions& options_;
  const FunctionTable& functions_;
  std::vector<std::pair<std::string, std::size_t>> scope_;
  std::size_t max_slots_ = 0;
};

}  // namespace

Program plan(const Expr& expr, const CompileOptions& options, std::vector<CheckIssue>& issues) {
  Planner planner(options);
  auto p = std::make_shared<detail::Plan>();
  p->root = planner.plan(expr);
  p->slots = planner.slots();
  issues = std::move(planner.issues);
  return Program(std::move(p));
}

Program plan(const Expr& expr, const CompileOptions& options) {
  std::vector<CheckIssue> ignored;
  return plan(expr, options, ignored);
}

}  // namespace rr::cel
