// The plan's node types (plan.hpp): constants, variables, field selection, calls, the logical
// operators with CEL's error absorption, literals, and comprehensions.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "cost_model.hpp"
#include "functions.hpp"
#include "plan.hpp"
#include "rr/cel/ast.hpp"

namespace re2 {
class RE2;
}

namespace rr::cel {

// Every node type below evaluates in both forms through one `template <bool Counted> Value
// run(Frame&) const`, defined with its eval() and eval_counted() in nodes.cpp or
// comprehension.cpp, where run is inlined into both (forced: the compiler would otherwise keep
// it out of line and add a call per node to the plain evaluation, about 15% on bench_cel).

// A child's evaluation in the form the parent runs in.
template <bool Counted>
Value eval_child(const Node& n, Frame& f) {
  if constexpr (Counted) return n.eval_counted(f);
  else return n.eval(f);
}

// Adds to the evaluation's cost (nothing in the plain form; the units are computed either way,
// so a count that calls a function belongs in `if constexpr (Counted)`).
template <bool Counted>
void charge(Frame& f, std::uint64_t units) {
  if constexpr (Counted) f.cost->charge(units);
}

class ConstNode final : public Node {
 public:
  explicit ConstNode(Value v) : value_(std::move(v)) {}
  Value eval(Frame&) const override { return value_; }
  Value eval_counted(Frame&) const override { return value_; }

 private:
  Value value_;
};

// A comprehension variable.
class LocalNode final : public Node {
 public:
  explicit LocalNode(std::size_t slot) : slot_(slot) {}
  Value eval(Frame& f) const override { return f.locals[slot_]; }
  Value eval_counted(Frame& f) const override {
    charge<true>(f, cost::select_and_ident_cost);
    return f.locals[slot_];
  }

 private:
  std::size_t slot_;
};

// A name looked up in the activation: the candidates the container gives, longest first, each
// with the fields left to select after it (`a.b.c` may be variable "a.b" then field c). A name
// that is no variable may be a type (`int`, `google.protobuf.Timestamp`).
class NameNode final : public Node {
 public:
  struct Candidate {
    std::string name;
    std::size_t fields_used;  // how many of fields_ the name covers
  };
  NameNode(std::vector<Candidate> candidates, std::vector<std::string> fields, std::string display)
      : candidates_(std::move(candidates)), fields_(std::move(fields)), display_(std::move(display)) {}
  Value eval(Frame& f) const override;
  Value eval_counted(Frame& f) const override;

 private:
  template <bool Counted>
  [[gnu::always_inline]] inline Value run(Frame& f) const;
  std::vector<Candidate> candidates_;
  std::vector<std::string> fields_;
  std::string display_;  // the first name, for the undeclared-reference error
};

class SelectNode final : public Node {
 public:
  SelectNode(NodePtr operand, std::string field, bool test_only, bool optional)
      : operand_(std::move(operand)), field_(std::move(field)), test_only_(test_only), optional_(optional) {}
  Value eval(Frame& f) const override;
  Value eval_counted(Frame& f) const override;

 private:
  template <bool Counted>
  [[gnu::always_inline]] inline Value run(Frame& f) const;
  NodePtr operand_;
  std::string field_;
  bool test_only_, optional_;
};

// A strict call: the arguments are evaluated first, an error among them is the result.
class CallNode final : public Node {
 public:
  CallNode(std::string name, FunctionImpl impl, std::vector<NodePtr> args)
      : name_(std::move(name)), impl_(impl), cost_(cost::call_cost_function(name_)), args_(std::move(args)) {}
  Value eval(Frame& f) const override;
  Value eval_counted(Frame& f) const override;

 private:
  template <bool Counted>
  [[gnu::always_inline]] inline Value run(Frame& f) const;
  template <bool Counted>
  [[gnu::always_inline]] inline Value call(Frame& f, std::span<const Value> args) const;

  std::string name_;
  FunctionImpl impl_;  // null: no such function (an error at run time, as cel-go without a checker)
  cost::CallCostFn cost_;
  std::vector<NodePtr> args_;
};

// `s.matches('constant')`: the pattern compiled once when planning.
class MatchesNode final : public Node {
 public:
  MatchesNode(NodePtr text, std::shared_ptr<const re2::RE2> re, std::uint64_t pattern_size)
      : text_(std::move(text)), re_(std::move(re)), pattern_size_(pattern_size) {}
  Value eval(Frame& f) const override;
  Value eval_counted(Frame& f) const override;

 private:
  template <bool Counted>
  [[gnu::always_inline]] inline Value run(Frame& f) const;
  NodePtr text_;
  std::shared_ptr<const re2::RE2> re_;
  std::uint64_t pattern_size_;  // in code points, for the cost
};

// `_&&_`, `_||_`: false (true) on either side decides, even beside an error.
class LogicNode final : public Node {
 public:
  LogicNode(bool is_and, NodePtr lhs, NodePtr rhs) : is_and_(is_and), lhs_(std::move(lhs)), rhs_(std::move(rhs)) {}
  Value eval(Frame& f) const override;
  Value eval_counted(Frame& f) const override;

 private:
  template <bool Counted>
  [[gnu::always_inline]] inline Value run(Frame& f) const;
  bool is_and_;
  NodePtr lhs_, rhs_;
};

class ConditionalNode final : public Node {
 public:
  ConditionalNode(NodePtr cond, NodePtr yes, NodePtr no)
      : cond_(std::move(cond)), yes_(std::move(yes)), no_(std::move(no)) {}
  Value eval(Frame& f) const override;
  Value eval_counted(Frame& f) const override;

 private:
  template <bool Counted>
  [[gnu::always_inline]] inline Value run(Frame& f) const;
  NodePtr cond_, yes_, no_;
};

// optional `or`/`orValue`: the alternative is evaluated only when needed.
class OptionalOrNode final : public Node {
 public:
  OptionalOrNode(bool or_value, NodePtr lhs, NodePtr rhs)
      : or_value_(or_value), lhs_(std::move(lhs)), rhs_(std::move(rhs)) {}
  Value eval(Frame& f) const override;
  Value eval_counted(Frame& f) const override;

 private:
  template <bool Counted>
  [[gnu::always_inline]] inline Value run(Frame& f) const;
  bool or_value_;
  NodePtr lhs_, rhs_;
};

class ListNode final : public Node {
 public:
  ListNode(std::vector<NodePtr> elements, std::vector<bool> optional)
      : elements_(std::move(elements)), optional_(std::move(optional)) {}
  Value eval(Frame& f) const override;
  Value eval_counted(Frame& f) const override;

 private:
  template <bool Counted>
  [[gnu::always_inline]] inline Value run(Frame& f) const;
  std::vector<NodePtr> elements_;
  std::vector<bool> optional_;
};

class MapNode final : public Node {
 public:
  struct Entry {
    NodePtr key, value;
    bool optional;
  };
  explicit MapNode(std::vector<Entry> entries) : entries_(std::move(entries)) {}
  Value eval(Frame& f) const override;
  Value eval_counted(Frame& f) const override;

 private:
  template <bool Counted>
  [[gnu::always_inline]] inline Value run(Frame& f) const;
  std::vector<Entry> entries_;
};

// A value that is always this error when evaluated, after evaluating the given nodes (so their
// errors come first): message construction of an unknown type.
class ErrorNode final : public Node {
 public:
  ErrorNode(std::string message, std::vector<NodePtr> first) : message_(std::move(message)), first_(std::move(first)) {}
  Value eval(Frame& f) const override;
  Value eval_counted(Frame& f) const override;

 private:
  template <bool Counted>
  [[gnu::always_inline]] inline Value run(Frame& f) const;
  std::string message_;
  std::vector<NodePtr> first_;
};

class ComprehensionNode final : public Node {
 public:
  ComprehensionNode(MacroKind macro, bool two_vars, std::size_t slot, NodePtr range, NodePtr predicate,
                    NodePtr transform)
      : macro_(macro),
        two_vars_(two_vars),
        slot_(slot),
        range_(std::move(range)),
        predicate_(std::move(predicate)),
        transform_(std::move(transform)) {}
  Value eval(Frame& f) const override;
  Value eval_counted(Frame& f) const override;

 private:
  template <bool Counted>
  [[gnu::always_inline]] inline Value run(Frame& f) const;
  template <bool Counted>
  Value run_optional(Frame& f, const Value& opt) const;

  MacroKind macro_;
  bool two_vars_;
  std::size_t slot_;  // var at slot_, var2 at slot_ + 1
  NodePtr range_, predicate_, transform_;
};

// Field selection on a value (maps; optionals chain); `optional` for `.?field`.
Value select_field(const Value& v, const std::string& field, bool optional);
// The value of a type name (`int`, `google.protobuf.Duration`), or nullptr.
const Value* type_value(std::string_view name);

}  // namespace rr::cel
