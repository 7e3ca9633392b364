// The static cost estimate of compile() (CompileResult::cost) against the figures cel-go's own
// estimator tests expect (checker/cost_test.go: its size hints are max_size() here), the request
// size bounds of unsized values, and the API server's limits and messages.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "rr/cel/cost.hpp"
#include "rr/cel/program.hpp"

using namespace rr::cel;

namespace {

CelType sized(CelType t, std::uint64_t n) { return t.with_max_size(n); }

// cel-go's test message type, with the one field the cases read.
CelType all_types() { return CelType::object("TestAllTypes", {{"single_int32", CelType::int_type()}}); }

CostEstimate estimate(std::string_view source, std::map<std::string, CelType> declarations = {}) {
  CompileOptions options;
  options.declarations = std::move(declarations);
  const CompileResult compiled = compile(source, options);
  REQUIRE_MESSAGE(compiled.ok(), compiled.error_text);
  return compiled.cost;
}

struct CostEstimateCase {
  const char* expr;
  std::map<std::string, CelType> declarations;
  std::uint64_t min, max;
};

}  // namespace

TEST_CASE("estimates match cel-go's estimator tests") {
  const CelType str = CelType::string_type();
  const std::vector<CostEstimateCase> cases = {
      {"\"Hello World!\"", {}, 0, 0},
      {"input", {{"input", CelType::list(CelType::int_type())}}, 1, 1},
      {"input['key']", {{"input", CelType::map(str, str)}}, 2, 2},
      {"input.single_int32", {{"input", all_types()}}, 2, 2},
      {"[1, 2, 3]", {}, 10, 10},
      {"{\"a\": 1, \"b\": 2, \"c\": 3}", {}, 30, 30},
      {"input.all(x, true)", {{"input", sized(CelType::list(all_types()), 100)}}, 2, 302},
      {"input.all(x, x.all(y, true))",
       {{"input", sized(CelType::list(sized(CelType::list(all_types()), 10)), 50)}},
       2,
       1752},
      {"[1, 2, 3].all(x, true)", {}, 20, 20},
      {"input.matches('[0-9]')", {{"input", sized(str, 500)}}, 3, 103},
      {"'123'.matches('[0-9]')", {}, 2, 2},
      {"true || false", {}, 0, 0},
      {"true && false", {}, 0, 0},
      {"1 < 2", {}, 1, 1},
      {"1 <= 2", {}, 1, 1},
      {"1 == 2", {}, 1, 1},
      {"2 > 1", {}, 1, 1},
      {"2 >= 1", {}, 1, 1},
      {"2 in [1, 2, 3]", {}, 13, 13},
      {"1 + 1", {}, 1, 1},
      {"1 - 1", {}, 1, 1},
      {"1 / 1", {}, 1, 1},
      {"1 * 1", {}, 1, 1},
      {"1 % 1", {}, 1, 1},
      {"true ? 1 : 2", {}, 0, 0},
      {"size(\"123\")", {}, 1, 1},
      {"string(input)", {{"input", sized(CelType::bytes_type(), 500)}}, 1, 51},
      {"bytes(input)", {{"input", sized(str, 500)}}, 1, 51},
      {"string(1)", {}, 1, 1},
      {"input.contains(arg1)", {{"input", sized(str, 500)}, {"arg1", sized(str, 500)}}, 2, 2502},
      {"input.matches('\\\\d+a\\\\d+b')", {{"input", sized(str, 500)}}, 3, 103},
      {"input.startsWith(arg1)", {{"input", str}, {"arg1", sized(str, 500)}}, 2, 52},
      {"input.endsWith(arg1)", {{"input", str}, {"arg1", sized(str, 500)}}, 2, 52},
      {"input.size()", {{"input", str}}, 2, 2},
      {"size(input)", {{"input", str}}, 2, 2},
      {"(x > 2 ? input1 : input2).all(y, true)",
       {{"x", CelType::int_type()},
        {"input1", sized(CelType::list(all_types()), 1)},
        {"input2", sized(CelType::list(all_types()), 1)}},
       4,
       7},
      {"input.all(k, input[k].single_int32 > 3)", {{"input", sized(CelType::map(str, all_types()), 10)}}, 2, 82},
      {"input.all(k, input[k].all(x, true))",
       {{"input", sized(CelType::map(str, sized(CelType::map(str, all_types()), 10)), 5)}},
       2,
       187},
      {"input.all(k, k.contains(k))",
       {{"input", sized(CelType::map(sized(str, 10), CelType::map(str, all_types())), 5)}},
       2,
       32},
      {"input.all(k, input[k].all(k, true) && k.contains(k))",
       {{"input", sized(CelType::map(sized(str, 5), sized(CelType::map(str, all_types()), 2)), 2)}},
       2,
       34},
      {"(list1 + list2).all(x, true)",
       {{"list1", sized(CelType::list(CelType::int_type()), 10)},
        {"list2", sized(CelType::list(CelType::int_type()), 10)}},
       4,
       64},
      {"\"abcdefg\".contains(str1 + str2)", {{"str1", sized(str, 10)}, {"str2", sized(str, 10)}}, 2, 6},
  };
  for (const auto& c : cases) {
    CAPTURE(c.expr);
    const CostEstimate e = estimate(c.expr, c.declarations);
    CHECK(e.min == c.min);
    CHECK(e.max == c.max);
  }
}

TEST_CASE("the Kubernetes library's call estimates") {
  const CelType s10 = CelType::string_type().with_max_size(10);
  // lowerAscii: the receiver's 10 characters at 0.1 each, plus `self`
  CHECK(estimate("self.lowerAscii()", {{"self", s10}}).max == 2);
  // the result of lowerAscii keeps the receiver's size: == compares at most 10 characters
  CHECK(estimate("self.lowerAscii() == self", {{"self", s10}}).max == 4);
  // a list's indexOf compares each of its 5 strings (1 + 10 * 0.1 each)
  CHECK(estimate("self.indexOf('a')", {{"self", CelType::list(s10).with_max_size(5)}}).max == 11);
  // find: (10 + 1) * 0.1 -> 2, times the pattern's 5 characters * 0.25 -> 2, plus `self`
  CHECK(estimate("self.find('[a-z]')", {{"self", s10}}).max == 5);
  // replace('a', 'bb') may double the 10 characters: comparing two such results reads 20 (2),
  // each replace traverses its receiver twice (2) and reads `self` (1)
  CHECK(estimate("self.replace('a', 'bb') == self.replace('a', 'bb')", {{"self", s10}}).max == 8);
  // sets.contains: 5 x 3 comparisons and the call, `self` and the literal
  CHECK(estimate("sets.contains(self, ['a', 'b', 'c'])", {{"self", CelType::list(s10).with_max_size(5)}}).max ==
        15 + 1 + 1 + 10);
  // quantity accessors are one unit each
  CHECK(estimate("quantity('1Gi').isInteger()").max == 2);
  // join: 5 strings of 10 and 4 separators of 1 = 54 characters at 0.1
  CHECK(estimate("self.join(',')", {{"self", CelType::list(s10).with_max_size(5)}}).max == 7);
}

TEST_CASE("an unsized value is bounded by the request size, as apiextensions estimates it") {
  const std::uint64_t body = max_request_size_bytes - 2;
  CHECK(unbounded_max_size(CelType::string_type()) == body);
  CHECK(unbounded_max_size(CelType::list(CelType::string_type())) == body / 3);  // "", per element
  CHECK(unbounded_max_size(CelType::list(CelType::int_type())) == body / 2);     // 0,
  CHECK(unbounded_max_size(CelType::map(CelType::string_type(), CelType::bool_type())) == body / 10);
  // objects with a required `name` take at least {"name":""} (11 bytes), as apiextensions counts
  CHECK(unbounded_list_size(11) == body / 12);
  CHECK(unbounded_map_size(11) == body / 17);

  // self.matches: (n + 1) * 0.1 rounded up, times 2 for the 8-character pattern, plus `self`.
  const CostEstimate sized_self = estimate("self.matches('^[a-z]+$')",
                                           {{"self", CelType::string_type().with_max_size(10)}});
  const CostEstimate unsized_self = estimate("self.matches('^[a-z]+$')", {{"self", CelType::string_type()}});
  CHECK(sized_self.max == 2 * 2 + 1);
  CHECK(unsized_self.max == (body + 1 + 9) / 10 * 2 + 1);
  CHECK(sized_self.min == unsized_self.min);
}

TEST_CASE("a quadratic rule over an unbounded list exceeds the per-rule limit; with maxItems it does not") {
  const char* rule = "self.all(x, self.exists_one(y, x == y))";
  const CelType names = CelType::list(CelType::string_type().with_max_size(63));
  const CostEstimate unbounded = estimate(rule, {{"self", names}});
  const CostEstimate bounded = estimate(rule, {{"self", names.with_max_size(100)}});
  CHECK(unbounded.max > static_estimated_cost_limit);
  CHECK(bounded.max <= static_estimated_cost_limit);
  // 100 * (3 + inner) + 2, inner = 1 + 2 + 100 * (x + y + 7 + 2): x == y compares 63 characters (7)
  CHECK(bounded.max == 110'602);
  CHECK(bounded.min == 2);  // an empty list: `self` and the result
  CHECK(rule_cost_message(unbounded.max) ==
        "estimated rule cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding "
        "maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)");
}

TEST_CASE("the budget messages render the factor as the API server does") {
  CHECK(cost_exceeds_budget_message("estimated rule cost", 12'000'000, static_estimated_cost_limit)
            .starts_with("estimated rule cost exceeds budget by factor of 1.200000x (try simplifying"));
  CHECK(crd_cost_message(250'000'000)
            .starts_with("x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds "
                         "budget by factor of "
                         "2.5x ("));
  CHECK(message_expression_cost_message(2'000'000'000)
            .starts_with("estimated messageExpression cost exceeds budget by factor of more than 100x"));
  CHECK(call_cost_exceeded_message("self.all(x, true)") ==
        "'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call "
        "cost exceeds limit for rule: self.all(x, true)");
  CHECK(cost_times_cardinality(0, 5) == 0);
  CHECK(cost_times_cardinality(7, 5) == 35);
  CHECK(cost_times_cardinality(1ULL << 40, 1ULL << 40) == UINT64_MAX);
}
