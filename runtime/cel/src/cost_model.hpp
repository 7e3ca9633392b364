// What the cost estimator (cost_estimate*.cpp) and the runtime cost (cost_runtime.cpp, the plan's
// nodes) share: cel-go's cost units and factors, arithmetic that saturates instead of
// overflowing, and the tracker one evaluation with a limit carries in its Frame.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <string_view>

#include "rr/cel/cost.hpp"
#include "rr/cel/value.hpp"

namespace rr::cel::cost {

// cel-go common/cost.go.
inline constexpr std::uint64_t select_and_ident_cost = 1;
inline constexpr std::uint64_t list_create_cost = 10;
inline constexpr std::uint64_t map_create_cost = 30;
inline constexpr std::uint64_t struct_create_cost = 40;
inline constexpr double string_traversal_factor = 0.1;
inline constexpr double regex_length_factor = 0.25;  // a regex term is guessed to be 4 characters

inline constexpr std::uint64_t saturated = std::numeric_limits<std::uint64_t>::max();

inline std::uint64_t add(std::uint64_t a, std::uint64_t b) { return b > saturated - a ? saturated : a + b; }
inline std::uint64_t mul(std::uint64_t a, std::uint64_t b) { return b != 0 && a > saturated / b ? saturated : a * b; }
// x * factor rounded up, saturating (cel-go multiplyByCostFactor).
inline std::uint64_t by_factor(std::uint64_t x, double factor) {
  const double product = std::ceil(static_cast<double>(x) * factor);
  return product >= 18446744073709551616.0 ? saturated : static_cast<std::uint64_t>(product);
}

// A size (string characters, bytes, list elements, map entries) or a cost, as a range.
struct Range {
  std::uint64_t min = 0, max = 0;
  static Range fixed(std::uint64_t n) { return {n, n}; }
  Range operator+(Range o) const { return {add(min, o.min), add(max, o.max)}; }
  Range operator*(Range o) const { return {mul(min, o.min), mul(max, o.max)}; }
  Range times(double factor) const { return {by_factor(min, factor), by_factor(max, factor)}; }
  Range unite(Range o) const { return {std::min(min, o.min), std::max(max, o.max)}; }
};

// The running cost of one evaluation with a limit: over it, evaluation unwinds with
// LimitExceeded, which Program::evaluate turns into the error value.
struct LimitExceeded {};

struct Tracker {
  std::uint64_t total = 0;
  std::uint64_t limit = saturated;
  void charge(std::uint64_t n) {
    total = add(total, n);
    if (total > limit) throw LimitExceeded{};
  }
};

// The size cel-go's runtime gives a value: characters of a string, bytes, list elements, map
// entries; 1 for anything else.
std::uint64_t actual_size(const Value& v);

// The regex length charged for a named format's validate(), by the format's name; the largest
// of them where the format is not known (the estimate).
inline constexpr std::uint64_t max_format_regex_size = 60;
std::uint64_t format_regex_size(std::string_view name);

// The runtime cost of one call of a function (its CEL name; member calls have the receiver as
// args[0]), from its arguments and result: cel-go's CostTracker.costCall with the Kubernetes
// library's CallCost. Resolved once per call site when planning.
using CallCostFn = std::uint64_t (*)(std::span<const Value> args, const Value& result);
CallCostFn call_cost_function(std::string_view function);

}  // namespace rr::cel::cost
