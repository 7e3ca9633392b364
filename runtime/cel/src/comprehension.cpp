// The macros' loops (ComprehensionNode, nodes.hpp), with the error semantics of their
// expansions in cel-spec: all/exists absorb an error when another element decides; exists_one,
// map, filter and the transforms propagate the first error.
//
// Counted, each iteration is charged what cel-go charges for the macro's expansion
// (the loop condition, the step with its accumulator reads, list appends and map inserts), so
// the runtime cost matches the estimate of cost_estimate.cpp.
#include "nodes.hpp"

namespace rr::cel {

namespace {

Value not_bool(const Value& v) {
  if (v.is_error()) return v;
  return Value::error("no matching overload: predicate gave " + type_name(v) + ", not bool");
}

}  // namespace

template <bool Counted>
Value ComprehensionNode::run(Frame& f) const {
  auto add_cost = [&f](std::uint64_t n) { charge<Counted>(f, n); };
  Value range = eval_child<Counted>(*range_, f);
  if (macro_ == MacroKind::Bind) {     // the bound value may be an error: it matters only where used
    add_cost(cost::list_create_cost);  // the expansion's empty iteration range
    f.locals[slot_] = std::move(range);
    return eval_child<Counted>(*transform_, f);
  }
  if (range.is_error()) return range;
  if (macro_ == MacroKind::OptMap || macro_ == MacroKind::OptFlatMap) return run_optional<Counted>(f, range);
  const bool is_list = range.kind() == Kind::List;
  if (!is_list && range.kind() != Kind::Map)
    return Value::error("expression of type '" + type_name(range) + "' cannot be range of a comprehension");
  const std::size_t n = is_list ? range.as_list().items.size() : range.as_map().size();

  auto bind = [&](std::size_t i) {
    if (is_list) {
      const Value& item = range.as_list().items[i];
      if (two_vars_) {
        f.locals[slot_] = Value(static_cast<std::int64_t>(i));
        f.locals[slot_ + 1] = item;
      } else {
        f.locals[slot_] = item;
      }
    } else {
      const auto& entry = range.as_map().entries()[i];
      f.locals[slot_] = entry.first;
      if (two_vars_) f.locals[slot_ + 1] = entry.second;
    }
  };

  // Whether the bound element takes part (true without a predicate); an error value otherwise.
  auto selected = [&]() -> Value {
    if (!predicate_) return Value(true);
    Value p = eval_child<Counted>(*predicate_, f);
    return p.kind() == Kind::Bool ? p : not_bool(p);
  };

  switch (macro_) {
    case MacroKind::All:
    case MacroKind::Exists: {
      const bool decisive = macro_ == MacroKind::Exists;
      // The loop condition: @not_strictly_false(@result), with a `!` for exists.
      const std::uint64_t condition = decisive ? 3 : 2;
      Value error;
      for (std::size_t i = 0; i < n; ++i) {
        bind(i);
        add_cost(condition + 1);  // and @result in the step
        Value p = eval_child<Counted>(*predicate_, f);
        if (p.kind() == Kind::Bool) {
          if (p.as_bool() == decisive) {
            add_cost(i + 1 < n ? condition + 1 : 1);  // the condition that ends the loop; @result
            return p;
          }
        } else if (!error.is_error()) {
          error = not_bool(p);
        }
      }
      add_cost(1);  // @result
      if (error.is_error()) return error;
      return Value(!decisive);
    }
    case MacroKind::ExistsOne: {
      std::int64_t count = 0;
      for (std::size_t i = 0; i < n; ++i) {
        bind(i);
        Value p = eval_child<Counted>(*predicate_, f);
        if (p.kind() != Kind::Bool) return not_bool(p);
        add_cost(p.as_bool() ? 2 : 1);  // p ? @result + 1 : @result
        if (p.as_bool()) ++count;
      }
      add_cost(2);  // @result == 1
      return Value(count == 1);
    }
    case MacroKind::Map:
    case MacroKind::Filter:
    case MacroKind::TransformList: {
      add_cost(cost::list_create_cost);  // @result = []
      std::vector<Value> out;
      for (std::size_t i = 0; i < n; ++i) {
        bind(i);
        if (Value p = selected(); p.kind() != Kind::Bool) return p;
        else if (!p.as_bool()) {
          add_cost(1);  // @result unchanged
          continue;
        }
        // @result + [x]: the accumulator, a one-element list, the append (and x for filter)
        add_cost(transform_ ? 12 : 13);
        if (transform_) {
          Value v = eval_child<Counted>(*transform_, f);
          if (v.is_error()) return v;
          out.push_back(std::move(v));
        } else {
          out.push_back(f.locals[slot_]);
        }
      }
      add_cost(1);  // @result
      return Value::list(std::move(out));
    }
    case MacroKind::SortBy: {
      if (!is_list) return Value::error("sortBy: the range must be a list, not " + type_name(range));
      add_cost(cost::list_create_cost + 2);  // the keys' list, its read and the sort call
      std::vector<Value> keys;
      keys.reserve(n);
      for (std::size_t i = 0; i < n; ++i) {
        bind(i);
        add_cost(12);  // as map()
        Value k = eval_child<Counted>(*transform_, f);
        if (k.is_error()) return k;
        keys.push_back(std::move(k));
      }
      return sort_by_keys(range.as_list().items, keys);
    }
    case MacroKind::OptMap:
    case MacroKind::OptFlatMap:
    case MacroKind::Bind: break;  // handled above
    case MacroKind::TransformMap:
    case MacroKind::TransformMapEntry: {
      add_cost(cost::map_create_cost);  // @result = {}
      std::vector<std::pair<Value, Value>> out;
      auto insert = [&](Value k, Value v) -> std::optional<Value> {
        for (const auto& e : out)
          if (equals(e.first, k)) return Value::error("insert failed: key " + debug_string(k) + " already exists");
        out.emplace_back(std::move(k), std::move(v));
        return std::nullopt;
      };
      for (std::size_t i = 0; i < n; ++i) {
        bind(i);
        if (Value p = selected(); p.kind() != Kind::Bool) return p;
        else if (!p.as_bool()) {
          add_cost(1);  // @result unchanged
          continue;
        }
        // the insert call, @result and (transformMap) the key
        add_cost(macro_ == MacroKind::TransformMap ? 3 : 2);
        Value v = eval_child<Counted>(*transform_, f);
        if (v.is_error()) return v;
        if (macro_ == MacroKind::TransformMap) {
          if (auto err = insert(f.locals[slot_], std::move(v))) return *err;
          continue;
        }
        if (v.kind() != Kind::Map)
          return Value::error("transformMapEntry: the expression must give a map, not " + type_name(v));
        for (const auto& e : v.as_map().entries())
          if (auto err = insert(e.first, e.second)) return *err;
      }
      add_cost(1);  // @result
      return Value::map(std::move(out));
    }
  }
  return Value::error("unknown comprehension");
}

template <bool Counted>
Value ComprehensionNode::run_optional(Frame& f, const Value& opt) const {
  const char* name = macro_ == MacroKind::OptMap ? "optMap" : "optFlatMap";
  if (opt.kind() != Kind::Optional)
    return Value::error(std::string(name) + " on " + type_name(opt) + ", not an optional");
  // hasValue(), then optional.none() or value() (and optional.of for optMap)
  charge<Counted>(f, opt.optional_value() == nullptr || macro_ == MacroKind::OptFlatMap ? 2 : 3);
  if (opt.optional_value() == nullptr) return opt;
  f.locals[slot_] = *opt.optional_value();
  Value v = eval_child<Counted>(*transform_, f);
  if (v.is_error()) return v;
  if (macro_ == MacroKind::OptMap) return Value::optional_of(std::move(v));
  if (v.kind() != Kind::Optional)
    return Value::error("optFlatMap: the expression gave " + type_name(v) + ", not an optional");
  return v;
}

// The two forms of each node's evaluation (nodes.hpp).
Value ComprehensionNode::eval(Frame& f) const { return run<false>(f); }
Value ComprehensionNode::eval_counted(Frame& f) const { return run<true>(f); }

}  // namespace rr::cel
