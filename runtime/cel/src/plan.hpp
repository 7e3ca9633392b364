// The evaluation plan: a tree of nodes made once from the AST (planner.cpp), evaluated many
// times. Names are resolved when planning: comprehension variables become slots of the frame,
// functions become pointers into the function table, constant regular expressions are compiled.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "rr/cel/program.hpp"
#include "rr/cel/value.hpp"

namespace rr::cel {

namespace cost {
struct Tracker;
}

// What one evaluation carries: the activation, the comprehension variables' slots, and for
// eval_counted() the running cost.
struct Frame {
  const Activation* activation = nullptr;
  std::vector<Value> locals;
  cost::Tracker* cost = nullptr;
};

// Each node evaluates in two forms compiled from one template (nodes.hpp): eval() counts
// nothing, so the plain evaluation carries no cost code; eval_counted() charges frame.cost.
class Node {
 public:
  virtual ~Node() = default;
  virtual Value eval(Frame& frame) const = 0;
  virtual Value eval_counted(Frame& frame) const = 0;
};

using NodePtr = std::unique_ptr<Node>;

namespace detail {
struct Plan {
  NodePtr root;
  std::size_t slots = 0;
};
}  // namespace detail

}  // namespace rr::cel
