// The API server's cost figures that do not depend on an expression (cost.hpp): request-size
// bounds, the budget messages, the cardinality product.
#include <cstdio>
#include <string>

#include "cost_model.hpp"
#include "rr/cel/cost.hpp"

namespace rr::cel {

namespace {

using K = CelType::Kind;

// The fewest bytes a value of type t takes in JSON (apiextensions' estimateMinSizeJSON; the
// required properties of objects are not known from the type, so an object counts as `{}`).
std::uint64_t min_json_size(const CelType& t) {
  switch (t.kind()) {
    case K::Bool: return 4;  // true
    case K::Null: return 4;  // null
    case K::Int:
    case K::Uint:
    case K::Double: return 1;  // 0
    case K::Optional: return min_json_size(t.elem());
    case K::Dyn: return 1;  // the smallest JSON token
    default: return 2;      // "", [], {}
  }
}

}  // namespace

// Without the enclosing "", [] or {}.
constexpr std::uint64_t request_body = max_request_size_bytes - 2;

std::uint64_t unbounded_list_size(std::uint64_t min_element_json_size) {
  return request_body / (min_element_json_size + 1);  // and a comma each
}

std::uint64_t unbounded_map_size(std::uint64_t min_value_json_size) {
  // each entry: a key of at least one character in quotes, a colon, a comma and the value
  return request_body / (min_value_json_size + 6);
}

std::uint64_t unbounded_max_size(const CelType& t) {
  switch (t.kind()) {
    case K::List: return unbounded_list_size(min_json_size(t.elem()));
    case K::Map: return unbounded_map_size(min_json_size(t.elem()));
    case K::Object: return unbounded_map_size(2);  // its values' types differ: the smallest, `{}`
    default: return request_body;
  }
}

std::string cost_exceeds_budget_message(std::string_view cost_name, std::uint64_t cost, std::uint64_t limit) {
  const double factor = static_cast<double>(cost) / static_cast<double>(limit);
  char text[64];
  if (factor > 100.0) {
    std::snprintf(text, sizeof text, "more than 100x");
  } else if (factor < 1.5) {
    std::snprintf(text, sizeof text, "%fx", factor);  // Go's %f: six decimals, as here
  } else {
    std::snprintf(text, sizeof text, "%.1fx", factor);
  }
  return std::string(cost_name) + " exceeds budget by factor of " + text +
         " (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and "
         "strings are declared)";
}

std::string rule_cost_message(std::uint64_t estimated_max) {
  return cost_exceeds_budget_message("estimated rule cost", estimated_max, static_estimated_cost_limit);
}

std::string message_expression_cost_message(std::uint64_t estimated_max) {
  return cost_exceeds_budget_message("estimated messageExpression cost", estimated_max, static_estimated_cost_limit);
}

std::string crd_cost_message(std::uint64_t total) {
  return cost_exceeds_budget_message("x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema",
                                     total, static_estimated_crd_cost_limit);
}

std::string call_cost_exceeded_message(std::string_view rule) {
  return "'" + std::string(cost_limit_exceeded_message) +
         "': no further validation rules will be run due to call cost exceeds limit for rule: " + std::string(rule);
}

std::uint64_t cost_times_cardinality(std::uint64_t cost, std::uint64_t cardinality) {
  return cost == 0 ? 0 : cost::mul(cost, cardinality);
}

}  // namespace rr::cel
