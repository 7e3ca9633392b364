// The static cost estimate (cost_estimate.hpp): a walk over the AST adding cel-go's costs per
// node. Macros are not expanded in this AST, so each is charged what cel-go charges for its
// expansion (loop condition, step and result over the accumulator), times the range's size.
#include "cost_estimate.hpp"

#include <string>

#include "functions.hpp"
#include "nodes.hpp"
#include "utf8.hpp"

namespace rr::cel {

namespace {

using cost::Range;
using K = CelType::Kind;

class Estimator final : public cost::Operands {
 public:
  explicit Estimator(const NodeTypes& types) : types_(types), functions_(standard_functions()) {}

  Range cost(const Expr& e) {
    return std::visit([&](const auto& node) { return cost_node(e, node); }, e.node);
  }

  const CelType& type(const Expr& e) const override {
    static const CelType dyn = CelType::dyn();
    const auto it = types_.find(e.id);
    return it == types_.end() ? dyn : it->second;
  }

  // cel-go's order: a size computed for the node (calls, macros), the literal's, a comprehension
  // variable's, else the type's.
  Range size(const Expr& e) const override {
    if (const auto it = sizes_.find(e.id); it != sizes_.end()) return it->second;
    if (const auto* c = std::get_if<ConstantExpr>(&e.node)) {
      if (c->value.kind() == Kind::String) return Range::fixed(code_point_count(c->value.as_string()));
      if (c->value.kind() == Kind::Bytes) return Range::fixed(c->value.as_bytes().size());
      return Range::fixed(1);
    }
    if (const auto* l = std::get_if<ListExpr>(&e.node)) return Range::fixed(l->elements.size());
    if (const auto* m = std::get_if<MapExpr>(&e.node)) return Range::fixed(m->entries.size());
    if (const auto* id = std::get_if<IdentExpr>(&e.node))
      if (const Local* v = local(id->name); v != nullptr && v->size) return *v->size;
    return cost::type_size(type(e));
  }

 private:
  struct Local {
    std::string name;
    std::optional<Range> size;
  };

  const Local* local(const std::string& name) const {
    for (auto it = scope_.rbegin(); it != scope_.rend(); ++it)
      if (it->name == name) return &*it;
    return nullptr;
  }

  Range cost_node(const Expr&, const ConstantExpr&) { return {}; }
  Range cost_node(const Expr&, const IdentExpr&) { return Range::fixed(cost::select_and_ident_cost); }

  Range cost_node(const Expr&, const SelectExpr& s) {
    Range sum = cost(*s.operand);
    // has() costs nothing beyond its operand: Kubernetes' CEL environment sets cel-go's
    // PresenceTestHasCost(false), keeping rules written before cel-go 0.17.7 under their limits.
    // A selection costs only on maps and objects (cel-go).
    if (s.test_only) return sum;
    const K k = type(*s.operand).kind();
    if (k == K::Map || k == K::Object) sum = sum + Range::fixed(cost::select_and_ident_cost);
    return sum;
  }

  // `optional.of(x)`, `math.greatest(...)`: a target that names a package, not a receiver.
  bool qualified_global(const Expr& target, const std::string& function, std::string& name) const {
    std::string q;
    const Expr* cur = &target;
    while (const auto* sel = std::get_if<SelectExpr>(&cur->node)) {
      if (sel->test_only || sel->optional) return false;
      q = "." + sel->field + q;
      cur = sel->operand.get();
    }
    const auto* id = std::get_if<IdentExpr>(&cur->node);
    if (id == nullptr || local(id->name) != nullptr) return false;
    std::string root = id->name;
    if (!root.empty() && root[0] == '.') root.erase(0, 1);
    const Function* fn = functions_.find(root + q + "." + function);
    if (fn == nullptr || !fn->global) return false;
    name = root + q + "." + function;
    return true;
  }

  Range cost_node(const Expr& e, const CallExpr& c) {
    std::string name = c.function;
    if (!name.empty() && name[0] == '.') name.erase(0, 1);
    const bool member = c.target && !qualified_global(*c.target, c.function, name);
    if (!member && name == "dyn" && c.args.size() == 1) {  // no cost beyond the conversion's unit
      const Range r = cost(*c.args[0]) + Range::fixed(1);
      sizes_[e.id] = size(*c.args[0]);
      return r;
    }
    std::vector<const Expr*> operands;
    Range operand_cost;
    if (member) {
      operands.push_back(c.target.get());
      operand_cost = cost(*c.target);
    }
    std::vector<Range> arg_costs;
    for (const auto& a : c.args) {
      operands.push_back(a.get());
      arg_costs.push_back(cost(*a));
      operand_cost = operand_cost + arg_costs.back();
    }
    if (!member && (name == "_&&_" || name == "_||_") && arg_costs.size() == 2)  // may stop after the left
      return {arg_costs[0].min, cost::add(arg_costs[0].max, arg_costs[1].max)};
    if (!member && name == "_?_:_" && arg_costs.size() == 3) {
      sizes_[e.id] = size(*c.args[1]).unite(size(*c.args[2]));
      return arg_costs[0] + arg_costs[1].unite(arg_costs[2]);
    }
    const cost::CallEstimate call = cost::estimate_call(*this, name, member, operands);
    if (call.result_size) sizes_[e.id] = *call.result_size;
    return operand_cost + call.cost;
  }

  Range cost_node(const Expr&, const ListExpr& l) {
    Range sum = Range::fixed(cost::list_create_cost);
    for (const auto& item : l.elements) sum = sum + cost(*item);
    return sum;
  }

  Range cost_node(const Expr&, const MapExpr& m) {
    Range sum = Range::fixed(cost::map_create_cost);
    for (const auto& entry : m.entries) sum = sum + cost(*entry.key) + cost(*entry.value);
    return sum;
  }

  Range cost_node(const Expr&, const StructExpr& s) {
    Range sum = Range::fixed(cost::struct_create_cost);
    for (const auto& field : s.fields) sum = sum + cost(*field.value);
    return sum;
  }

  // The size of one element of a list literal range (cel-go's entry sizes); else the type's.
  std::optional<Range> element_size(const Expr& range) const {
    const auto* l = std::get_if<ListExpr>(&range.node);
    if (l == nullptr || l->elements.empty()) return std::nullopt;
    Range r = size(*l->elements.front());
    for (const auto& item : l->elements) r = r.unite(size(*item));
    return r;
  }

  Range cost_node(const Expr& e, const ComprehensionExpr& c) {
    const Range range = cost(*c.range);
    const std::size_t depth = scope_.size();
    if (c.macro == MacroKind::Bind || c.macro == MacroKind::OptMap || c.macro == MacroKind::OptFlatMap) {
      scope_.push_back({c.var, c.macro == MacroKind::Bind ? std::optional<Range>(size(*c.range)) : std::nullopt});
    } else {
      const bool list = type(*c.range).kind() == K::List || std::holds_alternative<ListExpr>(c.range->node);
      // One variable: the element of a list, the key of a map; two: index or key, then value.
      scope_.push_back({c.var, list && c.var2.empty() ? element_size(*c.range) : std::nullopt});
      if (!c.var2.empty()) scope_.push_back({c.var2, list ? element_size(*c.range) : std::nullopt});
    }
    const Range p = c.predicate ? cost(*c.predicate) : Range{};
    const Range t = c.transform ? cost(*c.transform) : Range{};
    scope_.resize(depth);
    const Range n = size(*c.range);
    // A step guarded by the predicate: `p ? <appended> : @result`.
    auto guarded = [&](std::uint64_t appended) -> Range {
      const Range step = Range::fixed(appended) + t;
      if (!c.predicate) return step;
      return p + step.unite(Range::fixed(1));
    };
    Range fixed, step;
    switch (c.macro) {
      case MacroKind::All:  // cond @not_strictly_false(@result): 2; step @result && p; result @result
      case MacroKind::Exists: {
        const std::uint64_t condition = c.macro == MacroKind::All ? 2 : 3;
        fixed = Range::fixed(1);
        step = Range{condition + 1, cost::add(condition + 1, p.max)};
        break;
      }
      case MacroKind::ExistsOne:  // step p ? @result + 1 : @result; result @result == 1
        fixed = Range::fixed(2);
        step = p + Range{1, 2};
        break;
      case MacroKind::Map:
      case MacroKind::TransformList:  // @result + [t]
        fixed = Range::fixed(cost::list_create_cost + 1);
        step = guarded(12);
        break;
      case MacroKind::Filter:  // @result + [x]
        fixed = Range::fixed(cost::list_create_cost + 1);
        step = p + Range{1, 13};
        break;
      case MacroKind::TransformMap:  // @mapInsert(@result, k, t)
      case MacroKind::TransformMapEntry:
        fixed = Range::fixed(cost::map_create_cost + 1);
        step = guarded(c.macro == MacroKind::TransformMap ? 3 : 2);
        break;
      case MacroKind::SortBy:  // the keys as map() builds them, then the sort
        fixed = Range::fixed(cost::list_create_cost + 2);
        step = guarded(12);
        break;
      case MacroKind::OptMap:  // hasValue() ? optional.of(t over value()) : optional.none()
      case MacroKind::OptFlatMap:
        sizes_[e.id] = size(c.transform ? *c.transform : *c.range);
        return range + Range{2, cost::add(c.macro == MacroKind::OptMap ? 3 : 2, t.max)};
      case MacroKind::Bind:  // an empty iteration range, the init, the result
        sizes_[e.id] = size(*c.transform);
        return range + t + Range::fixed(cost::list_create_cost);
    }
    if (c.macro != MacroKind::All && c.macro != MacroKind::Exists && c.macro != MacroKind::ExistsOne) sizes_[e.id] = n;
    return range + fixed + n * step;
  }

  const NodeTypes& types_;
  const FunctionTable& functions_;
  std::vector<Local> scope_;
  std::unordered_map<std::int64_t, Range> sizes_;
};

}  // namespace

CostEstimate estimate_cost(const Expr& expr, const NodeTypes& types) {
  Estimator estimator(types);
  const Range r = estimator.cost(expr);
  return CostEstimate{r.min, r.max};
}

}  // namespace rr::cel
