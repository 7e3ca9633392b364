// CEL cost: the API server's limits on how expensive a CRD's x-kubernetes-validations rules may
// be, the estimate compile() makes of a rule's cost (CompileResult::cost, after cel-go's checker
// estimator and the Kubernetes library's), and the messages the API server gives when a limit is
// exceeded. The runtime cost of one evaluation is Program::evaluate with EvalOptions
// (program.hpp). docs/runtime/26-cel.md#cost says how the figures are made.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "rr/cel/types.hpp"

namespace rr::cel {

// A range of cost units (cel-go's: about 50 ns of work each). max is what the limits compare.
struct CostEstimate {
  std::uint64_t min = 0, max = 0;
};

// The most one evaluation of one expression may cost before it is cancelled
// (k8s.io/apiserver/pkg/apis/cel: PerCallLimit).
inline constexpr std::uint64_t per_call_limit = 1'000'000;
// The budget of all rules' evaluations for one object's validation
// (k8s.io/apiserver/pkg/apis/cel: RuntimeCELCostBudget).
inline constexpr std::uint64_t runtime_cel_cost_budget = 10'000'000;
// The most a rule's estimated cost may be when the CRD is written
// (apiextensions-apiserver validation: StaticEstimatedCostLimit).
inline constexpr std::uint64_t static_estimated_cost_limit = 10'000'000;
// The most the estimated costs of all rules of one CRD version's schema may add up to, each
// rule's multiplied by how many times its node can occur (StaticEstimatedCRDCostLimit).
inline constexpr std::uint64_t static_estimated_crd_cost_limit = 100'000'000;
// The largest request body the API server accepts (k8s.io/apiserver/pkg/cel:
// DefaultMaxRequestSizeBytes): it bounds every string, list and map a rule can see.
inline constexpr std::uint64_t max_request_size_bytes = 3 * 1024 * 1024;

// The error message of an evaluation stopped at its cost limit (cel-go's, which the API server
// matches by prefix).
inline constexpr std::string_view cost_limit_exceeded_message = "operation cancelled: actual cost limit exceeded";

// The size a value of type t can have when its schema sets no maxLength/maxItems/maxProperties:
// as many characters (or elements, entries of the smallest JSON form) as fit in one request, as
// apiextensions estimates them. Dyn gets the string bound, which bounds every size.
std::uint64_t unbounded_max_size(const CelType& t);
// The same bounds from the smallest JSON form of an element (a map's value), for a schema layer
// that knows it better than the type does (an object's required properties count in it, as in
// apiextensions): set the result as the type's max_size to estimate exactly as upstream.
std::uint64_t unbounded_list_size(std::uint64_t min_element_json_size);
std::uint64_t unbounded_map_size(std::uint64_t min_value_json_size);

// "<cost_name> exceeds budget by factor of <f> (try simplifying the rule, or adding maxItems,
// maxProperties, and maxLength where arrays, maps, and strings are declared)" with the API server's
// rendering of the factor: "%f" under 1.5, "%.1f" up to 100, "more than 100x" above.
std::string cost_exceeds_budget_message(std::string_view cost_name, std::uint64_t cost, std::uint64_t limit);
// For a rule whose estimate is over static_estimated_cost_limit.
std::string rule_cost_message(std::uint64_t estimated_max);
// For a messageExpression whose estimate is over static_estimated_cost_limit.
std::string message_expression_cost_message(std::uint64_t estimated_max);
// For a schema whose rules' costs add up to more than static_estimated_crd_cost_limit.
std::string crd_cost_message(std::uint64_t total);
// For an evaluation stopped at per_call_limit: "'<error>': no further validation rules will be
// run due to call cost exceeds limit for rule: <rule>".
std::string call_cost_exceeded_message(std::string_view rule);
// When the object's runtime_cel_cost_budget is spent.
inline constexpr std::string_view cost_budget_exhausted_message =
    "validation failed due to running out of cost budget, no further validation rules will be run";

// A rule's estimated cost counted as often as its schema node can occur (cardinality): the
// product, saturating at the largest value; 0 stays 0 (apiextensions' multiplyWithOverflowGuard).
std::uint64_t cost_times_cardinality(std::uint64_t cost, std::uint64_t cardinality);

}  // namespace rr::cel
