// Name and constant-pattern checks at compile time (check.hpp).
#include "check.hpp"

#include <algorithm>

#include "functions.hpp"
#include "nodes.hpp"
#include "regex.hpp"

namespace rr::cel {

namespace {

class Checker {
 public:
  explicit Checker(const CompileOptions& options) : options_(options), functions_(standard_functions()) {}

  void visit(const Expr& e) {
    std::visit([&](const auto& node) { visit_node(e, node); }, e.node);
  }

  std::vector<CheckIssue> issues;

 private:
  void undeclared(std::size_t offset, const std::string& name) {
    issues.push_back({offset, "undeclared reference to '" + name + "' (in container '" + options_.container + "')"});
  }

  bool local(const std::string& name) const { return std::find(scope_.begin(), scope_.end(), name) != scope_.end(); }

  static std::string strip_root(std::string name) {
    if (!name.empty() && name[0] == '.') name.erase(0, 1);
    return name;
  }

  // Whether `qualified` (or a prefix of it, a variable whose fields are then selected) is declared.
  bool declared(const std::string& qualified) const {
    if (!options_.variables) return true;
    if (type_value(qualified) != nullptr) return true;
    std::vector<std::string> names = *options_.variables;
    for (const auto& d : options_.declarations) names.push_back(d.first);
    for (const auto& v : names) {
      const std::string full = options_.container.empty() ? v : options_.container + "." + v;
      for (const std::string& name : {v, full})
        if (qualified == name || (qualified.size() > name.size() && qualified.compare(0, name.size(), name) == 0 &&
                                  qualified[name.size()] == '.'))
          return true;
    }
    return false;
  }

  // `a.b.c` when e is a chain of plain selections on a free identifier.
  std::optional<std::string> qualified_name(const Expr& e) const {
    if (const auto* id = std::get_if<IdentExpr>(&e.node)) {
      if (local(id->name)) return std::nullopt;
      return strip_root(id->name);
    }
    if (const auto* sel = std::get_if<SelectExpr>(&e.node); sel != nullptr && !sel->test_only && !sel->optional) {
      const auto base = qualified_name(*sel->operand);
      if (base) return *base + "." + sel->field;
    }
    return std::nullopt;
  }

  void visit_node(const Expr&, const ConstantExpr&) {}

  void visit_node(const Expr& e, const IdentExpr& id) {
    if (!local(id.name) && !declared(strip_root(id.name))) undeclared(e.offset, strip_root(id.name));
  }

  void visit_node(const Expr& e, const SelectExpr& s) {
    if (const auto q = qualified_name(e); q && !s.test_only && !s.optional) {
      if (!declared(*q)) {
        const auto* root = &e;
        while (const auto* sel = std::get_if<SelectExpr>(&root->node)) root = sel->operand.get();
        undeclared(root->offset, strip_root(std::get<IdentExpr>(root->node).name));
      }
      return;
    }
    visit(*s.operand);
  }

  // A constant pattern of find()/findAll() must compile (as Kubernetes compiles regex constants
  // when it builds the program); the planner compiles those of matches().
  void check_pattern(const CallExpr& c) {
    if (c.function != "find" && c.function != "findAll") return;
    const std::size_t at = c.target ? 0 : 1;
    if (c.args.size() <= at) return;
    const auto* constant = std::get_if<ConstantExpr>(&c.args[at]->node);
    if (constant == nullptr || constant->value.kind() != Kind::String) return;
    std::string error;
    if (!compile_regex(constant->value.as_string(), error)) issues.push_back({c.args[at]->offset, error});
  }

  void visit_node(const Expr& e, const CallExpr& c) {
    for (const auto& a : c.args) visit(*a);
    if (options_.check_functions) check_pattern(c);
    if (!c.target) {
      const std::string name = strip_root(c.function);
      if (name == "_&&_" || name == "_||_" || name == "_?_:_") return;
      const Function* fn = functions_.find(name);
      if (options_.check_functions && (fn == nullptr || !fn->global)) undeclared(e.offset, name);
      return;
    }
    if (const auto q = qualified_name(*c.target)) {
      const Function* fn = functions_.find(*q + "." + c.function);
      if (fn != nullptr && fn->global) return;
    }
    visit(*c.target);
    const Function* fn = functions_.find(c.function);
    if (options_.check_functions && (fn == nullptr || !fn->member)) undeclared(e.offset, c.function);
  }

  void visit_node(const Expr&, const ListExpr& l) {
    for (const auto& x : l.elements) visit(*x);
  }

  void visit_node(const Expr&, const MapExpr& m) {
    for (const auto& entry : m.entries) {
      visit(*entry.key);
      visit(*entry.value);
    }
  }

  void visit_node(const Expr&, const StructExpr& s) {
    for (const auto& f : s.fields) visit(*f.value);
  }

  void visit_node(const Expr&, const ComprehensionExpr& c) {
    visit(*c.range);
    const std::size_t depth = scope_.size();
    scope_.push_back(c.var);
    if (!c.var2.empty()) scope_.push_back(c.var2);
    if (c.predicate) visit(*c.predicate);
    if (c.transform) visit(*c.transform);
    scope_.resize(depth);
  }

  const CompileOptions& options_;
  const FunctionTable& functions_;
  std::vector<std::string> scope_;
};

}  // namespace

std::vector<CheckIssue> check_names(const Expr& expr, const CompileOptions& options) {
  if (!options.check_functions && !options.variables) return {};
  Checker checker(options);
  checker.visit(expr);
  return std::move(checker.issues);
}

}  // namespace rr::cel
