// Evaluation of the plan's nodes (nodes.hpp); comprehensions are in comprehension.cpp.
#include "nodes.hpp"

#include <array>

#include "regex.hpp"

namespace rr::cel {

const Value* type_value(std::string_view name) {
  static const std::vector<std::pair<std::string_view, Value>> kTypes = [] {
    std::vector<std::pair<std::string_view, Value>> t;
    for (const char* n :
         {"int", "uint", "double", "bool", "string", "bytes", "list", "map", "null_type", "type",
          "google.protobuf.Duration", "google.protobuf.Timestamp", "optional_type", "net.IP", "net.CIDR",
          "kubernetes.URL", "kubernetes.Quantity", "kubernetes.Semver", "kubernetes.NamedFormat"})
      t.emplace_back(n, Value(Type{n}));
    return t;
  }();
  for (const auto& [n, v] : kTypes)
    if (n == name) return &v;
  return nullptr;
}

Value select_field(const Value& v, const std::string& field, bool optional) {
  switch (v.kind()) {
    case Kind::Map: {
      const Value* found = v.as_map().select(field);
      if (optional) return found ? Value::optional_of(*found) : Value::optional_none();
      if (found == nullptr) return Value::error("no such key: " + field);
      return *found;
    }
    case Kind::Optional: {
      const Value* inner = v.optional_value();
      if (inner == nullptr) return v;
      return select_field(*inner, field, true);
    }
    case Kind::Error: return v;
    default: return Value::error("type '" + type_name(v) + "' does not support field selection");
  }
}

template <bool Counted>
Value NameNode::run(Frame& f) const {
  for (const auto& c : candidates_) {
    const Value* found = f.activation->find(c.name);
    Value v;
    if (found != nullptr) {
      v = *found;
    } else if (const Value* t = type_value(c.name)) {
      v = *t;
    } else {
      continue;
    }
    // The variable and each field selected after it (cel-go: the attribute and its qualifiers).
    charge<Counted>(f, cost::select_and_ident_cost * (1 + fields_.size() - c.fields_used));
    for (std::size_t i = c.fields_used; i < fields_.size(); ++i) {
      v = select_field(v, fields_[i], false);
      if (v.is_error()) break;
    }
    return v;
  }
  return Value::error("undeclared reference to '" + display_ + "' (in container '')");
}

template <bool Counted>
Value SelectNode::run(Frame& f) const {
  Value v = eval_child<Counted>(*operand_, f);
  if (!test_only_) {
    charge<Counted>(f, cost::select_and_ident_cost);
    return select_field(v, field_, optional_);
  }
  // has(): free, as in Kubernetes (PresenceTestHasCost(false), see cost_estimate.cpp).
  // has() looks through an optional: an empty one has no fields.
  while (v.kind() == Kind::Optional) {
    if (v.optional_value() == nullptr) return Value(false);
    Value inner = *v.optional_value();
    v = std::move(inner);
  }
  if (v.kind() == Kind::Map) return Value(v.as_map().select(field_) != nullptr);
  if (v.is_error()) return v;
  return Value::error("invalid type for field selection: has() on " + type_name(v));
}

template <bool Counted>
Value CallNode::run(Frame& f) const {
  const std::size_t n = args_.size();
  if (n <= 3) {
    std::array<Value, 3> values;
    for (std::size_t i = 0; i < n; ++i) {
      values[i] = eval_child<Counted>(*args_[i], f);
      if (values[i].is_error()) return values[i];
    }
    return call<Counted>(f, std::span<const Value>(values.data(), n));
  }
  std::vector<Value> values;
  values.reserve(n);
  for (const auto& a : args_) {
    values.push_back(eval_child<Counted>(*a, f));
    if (values.back().is_error()) return values.back();
  }
  return call<Counted>(f, values);
}

template <bool Counted>
Value CallNode::call(Frame& f, std::span<const Value> args) const {
  if (impl_ == nullptr) return Value::error("unbound function: " + name_);
  Value result = impl_(args);
  if constexpr (Counted) f.cost->charge(cost_(args, result));
  return result;
}

template <bool Counted>
Value MatchesNode::run(Frame& f) const {
  Value text = eval_child<Counted>(*text_, f);
  if (text.is_error()) return text;
  if (text.kind() != Kind::String)
    return Value::error("no matching overload for 'matches' applied to '(" + type_name(text) + ", string)'");
  if constexpr (Counted)
    f.cost->charge(cost::mul(cost::by_factor(cost::actual_size(text) + 1, cost::string_traversal_factor),
                             cost::by_factor(pattern_size_, cost::regex_length_factor)));
  return regex_matches(text.as_string(), *re_);
}

template <bool Counted>
Value LogicNode::run(Frame& f) const {
  // The value that decides: false for &&, true for ||.
  const bool decisive = !is_and_;
  Value l = eval_child<Counted>(*lhs_, f);
  if (l.kind() == Kind::Bool && l.as_bool() == decisive) return l;
  Value r = eval_child<Counted>(*rhs_, f);
  if (r.kind() == Kind::Bool && r.as_bool() == decisive) return r;
  if (l.kind() == Kind::Bool && r.kind() == Kind::Bool) return r;
  if (l.is_error()) return l;
  if (r.is_error()) return r;
  const Value args[] = {l, r};
  return no_overload(is_and_ ? "_&&_" : "_||_", args);
}

template <bool Counted>
Value ConditionalNode::run(Frame& f) const {
  Value c = eval_child<Counted>(*cond_, f);
  if (c.kind() == Kind::Bool) return c.as_bool() ? eval_child<Counted>(*yes_, f) : eval_child<Counted>(*no_, f);
  if (c.is_error()) return c;
  return Value::error("no matching overload for '_?_:_' applied to '(" + type_name(c) + ", ...)'");
}

template <bool Counted>
Value OptionalOrNode::run(Frame& f) const {
  Value l = eval_child<Counted>(*lhs_, f);
  charge<Counted>(f, 1);  // a call in cel-go
  if (l.is_error()) return l;
  if (l.kind() != Kind::Optional)
    return Value::error(std::string("no matching overload for '") + (or_value_ ? "orValue" : "or") + "' applied to '(" +
                        type_name(l) + ", ...)'");
  if (l.optional_value() != nullptr) return or_value_ ? *l.optional_value() : l;
  Value r = eval_child<Counted>(*rhs_, f);
  if (r.is_error() || or_value_) return r;
  if (r.kind() != Kind::Optional)
    return Value::error("no matching overload for 'or' applied to '(optional_type, " + type_name(r) + ")'");
  return r;
}

template <bool Counted>
Value ListNode::run(Frame& f) const {
  charge<Counted>(f, cost::list_create_cost);
  std::vector<Value> items;
  items.reserve(elements_.size());
  for (std::size_t i = 0; i < elements_.size(); ++i) {
    Value v = eval_child<Counted>(*elements_[i], f);
    if (v.is_error()) return v;
    if (optional_[i]) {
      if (v.kind() != Kind::Optional)
        return Value::error("no matching overload for optional list element of type " + type_name(v));
      if (v.optional_value() == nullptr) continue;
      items.push_back(*v.optional_value());
    } else {
      items.push_back(std::move(v));
    }
  }
  return Value::list(std::move(items));
}

template <bool Counted>
Value MapNode::run(Frame& f) const {
  charge<Counted>(f, cost::map_create_cost);
  std::vector<std::pair<Value, Value>> entries;
  entries.reserve(entries_.size());
  for (const auto& e : entries_) {
    Value k = eval_child<Counted>(*e.key, f);
    if (k.is_error()) return k;
    Value v = eval_child<Counted>(*e.value, f);
    if (v.is_error()) return v;
    const Kind kk = k.kind();
    if (kk != Kind::Int && kk != Kind::Uint && kk != Kind::Bool && kk != Kind::String)
      return Value::error("unsupported key type: " + type_name(k));
    if (e.optional) {
      if (v.kind() != Kind::Optional)
        return Value::error("no matching overload for optional map entry of type " + type_name(v));
      if (v.optional_value() == nullptr) continue;
      Value inner = *v.optional_value();  // copied first: it is owned by v
      v = std::move(inner);
    }
    for (const auto& existing : entries)
      if (equals(existing.first, k)) return Value::error("Failed with repeated key: " + debug_string(k));
    entries.emplace_back(std::move(k), std::move(v));
  }
  return Value::map(std::move(entries));
}

template <bool Counted>
Value ErrorNode::run(Frame& f) const {
  charge<Counted>(f, cost::struct_create_cost);
  for (const auto& n : first_) {
    Value v = eval_child<Counted>(*n, f);
    if (v.is_error()) return v;
  }
  return Value::error(message_);
}

// The two forms of each node's evaluation (nodes.hpp).
Value NameNode::eval(Frame& f) const { return run<false>(f); }
Value NameNode::eval_counted(Frame& f) const { return run<true>(f); }
Value SelectNode::eval(Frame& f) const { return run<false>(f); }
Value SelectNode::eval_counted(Frame& f) const { return run<true>(f); }
Value CallNode::eval(Frame& f) const { return run<false>(f); }
Value CallNode::eval_counted(Frame& f) const { return run<true>(f); }
Value MatchesNode::eval(Frame& f) const { return run<false>(f); }
Value MatchesNode::eval_counted(Frame& f) const { return run<true>(f); }
Value LogicNode::eval(Frame& f) const { return run<false>(f); }
Value LogicNode::eval_counted(Frame& f) const { return run<true>(f); }
Value ConditionalNode::eval(Frame& f) const { return run<false>(f); }
Value ConditionalNode::eval_counted(Frame& f) const { return run<true>(f); }
Value OptionalOrNode::eval(Frame& f) const { return run<false>(f); }
Value OptionalOrNode::eval_counted(Frame& f) const { return run<true>(f); }
Value ListNode::eval(Frame& f) const { return run<false>(f); }
Value ListNode::eval_counted(Frame& f) const { return run<true>(f); }
Value MapNode::eval(Frame& f) const { return run<false>(f); }
Value MapNode::eval_counted(Frame& f) const { return run<true>(f); }
Value ErrorNode::eval(Frame& f) const { return run<false>(f); }
Value ErrorNode::eval_counted(Frame& f) const { return run<true>(f); }

}  // namespace rr::cel
