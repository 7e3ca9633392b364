// The static cost estimate of a checked expression (cost.hpp, CompileResult::cost): cel-go's
// checker/cost.go over this AST, with the Kubernetes library's call estimates
// (cost_estimate_calls.cpp). Sizes come from the checked types' max_size() (the schema's
// maxLength/maxItems/maxProperties) or, unbounded, from the request size (unbounded_max_size).
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "cost_model.hpp"
#include "rr/cel/ast.hpp"
#include "rr/cel/cost.hpp"

namespace rr::cel {

// Each node's type as the checker inferred it, by expression id.
using NodeTypes = std::unordered_map<std::int64_t, CelType>;

CostEstimate estimate_cost(const Expr& expr, const NodeTypes& types);

namespace cost {

// What a call's estimate needs to know of its operands.
class Operands {
 public:
  virtual ~Operands() = default;
  virtual Range size(const Expr& e) const = 0;
  virtual const CelType& type(const Expr& e) const = 0;
};

struct CallEstimate {
  Range cost;                        // the call's own cost, without its operands'
  std::optional<Range> result_size;  // for strings, bytes, lists and maps it builds
};

// The estimate of `function` on its operands (for a member call the receiver first).
CallEstimate estimate_call(const Operands& sizes, std::string_view function, bool member,
                           std::span<const Expr* const> operands);

// The size a value of type t can have: 1 for scalars (and the library's opaque values), the
// type's max_size, or unbounded_max_size.
Range type_size(const CelType& t);

}  // namespace cost
}  // namespace rr::cel
