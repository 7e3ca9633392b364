// The API server's cost limits as CelRules applies them: a rule's estimate (times its node's
// cardinality) against the per-rule limit, the CRD's total, the per-call limit and the object's
// runtime budget at evaluation.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "rr/schema_cel/cel_rules.hpp"

using rr::Json;
using rr::schema::CelRules;
using rr::schema::CompileContext;

namespace {

// A list of strings carrying one rule; `bounds` adds maxItems and the items' maxLength.
Json list_schema(const std::string& rule, bool bounds) {
  Json schema = Json::parse(R"({"type":"array","items":{"type":"string"}})");
  if (bounds) {
    schema["maxItems"] = 20;
    schema["items"]["maxLength"] = 64;
  }
  schema["x-kubernetes-validations"] = Json::array({{{"rule", rule}}});
  return schema;
}

const std::string quadratic = "self.all(x, self.all(y, x == y || x != y))";

}  // namespace

TEST_CASE("cost: a quadratic rule over an unbounded list is over the per-rule limit; bounded, it compiles") {
  std::vector<rr::FieldError> errors;
  CHECK_FALSE(CelRules::compile(list_schema(quadratic, false), "s", errors));
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].message ==
        "s.x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than "
        "100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and "
        "strings are declared)");
  errors.clear();
  CHECK(CelRules::compile(list_schema(quadratic, true), "s", errors));
  CHECK(errors.empty());
}

TEST_CASE("cost: the node's cardinality multiplies the estimate, and the CRD's total is checked") {
  const Json schema = list_schema("self.all(x, x.size() < 10)", true);
  std::vector<rr::FieldError> errors;
  rr::schema::CostTally tally;
  CompileContext once;
  once.tally = &tally;
  REQUIRE(CelRules::compile(schema, "a", errors, once));
  const std::uint64_t single = tally.total;
  CHECK(single > 0);
  CompileContext many;
  many.cardinality = 1000;
  many.tally = &tally;
  REQUIRE(CelRules::compile(schema, "b", errors, many));
  CHECK(tally.total == single + single * 1000);
  CHECK(errors.empty());
  // Far more occurrences: that rule alone is over the per-rule limit.
  CompileContext huge;
  huge.cardinality = 100'000'000;
  CHECK_FALSE(CelRules::compile(schema, "c", errors, huge));
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].path == "c.x-kubernetes-validations[0].rule");

  // The CRD's total: each of the costliest expressions named, then the schema's error.
  rr::schema::CostTally crd;
  crd.observe("r1", 60'000'000);
  crd.observe("r2", 50'000'000);
  crd.observe("r3", 1);
  std::vector<rr::FieldError> total_errors;
  crd.check("spec.versions[0].schema.openAPIV3Schema", total_errors);
  REQUIRE(total_errors.size() == 4);
  CHECK(total_errors[0].message ==
        "r1: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema");
  CHECK(total_errors[1].path == "r2");
  CHECK(total_errors[3].message.starts_with(
      "spec.versions[0].schema.openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule cost total for "
      "entire OpenAPIv3 schema exceeds budget by factor of 1.100000x"));
  rr::schema::CostTally small;
  small.observe("r", 5);
  total_errors.clear();
  small.check("p", total_errors);
  CHECK(total_errors.empty());
}

TEST_CASE("cost: evaluation stops at the per-call limit, and the object's budget is shared by every rule") {
  // Bounded for the estimate, but the value at run time is what it is: 3,000 items.
  const Json schema = list_schema(quadratic, true);
  std::vector<rr::FieldError> errors;
  const auto rules = CelRules::compile(schema, "s", errors);
  REQUIRE(rules);
  Json big = Json::array();
  for (int i = 0; i < 3000; ++i) big.push_back("v" + std::to_string(i % 7));
  std::vector<rr::FieldError> out;
  rules->check(big, nullptr, "spec.items", out);
  REQUIRE(out.size() == 1);
  CHECK(out[0].message == "spec.items: Invalid value: \"array\": 'operation cancelled: actual cost limit exceeded': no "
                          "further validation rules "
                          "will be run due to call cost exceeds limit for rule: " +
                              quadratic);

  // A budget almost spent: the next evaluation exhausts it, and later rules are not run.
  rr::schema::CostBudget budget;
  budget.remaining = 5;
  rr::schema::CheckOptions options;
  options.budget = &budget;
  out.clear();
  Json few = Json::array({"a", "b", "c", "d"});
  rules->check(few, nullptr, "spec.items", out, options);
  REQUIRE(out.size() == 1);
  CHECK(out[0].message == "spec.items: Invalid value: \"array\": validation failed due to running out of cost budget, "
                          "no further validation rules "
                          "will be run");
  CHECK(budget.exhausted);
  out.clear();
  rules->check(few, nullptr, "spec.other", out, options);
  CHECK(out.empty());  // exhausted: nothing more is evaluated
  // A fresh budget: the same value passes, and its cost is taken from the budget.
  rr::schema::CostBudget fresh;
  options.budget = &fresh;
  rules->check(few, nullptr, "spec.items", out, options);
  CHECK(out.empty());
  CHECK(fresh.remaining < rr::cel::runtime_cel_cost_budget);
}
