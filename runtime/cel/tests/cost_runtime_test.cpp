// The runtime cost of Program::evaluate with EvalOptions against the figures cel-go's interpreter
// tests expect (interpreter/runtimecost_test.go), the limit's error, and rules that would run
// for ever stopped by it.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "rr/cel/cost.hpp"
#include "rr/cel/program.hpp"

using namespace rr::cel;

namespace {

struct Run {
  Value value;
  std::uint64_t cost = 0;
};

Run run(std::string_view source, const std::vector<std::pair<std::string, Value>>& vars = {},
        std::optional<std::uint64_t> limit = std::nullopt) {
  const CompileResult compiled = compile(source);
  REQUIRE_MESSAGE(compiled.ok(), compiled.error_text);
  Activation activation;
  for (const auto& [name, value] : vars) activation.set(name, value);
  Run r;
  r.value = compiled.program->evaluate(activation, EvalOptions{limit}, &r.cost);
  return r;
}

Value ints(std::size_t n) {
  std::vector<Value> items;
  for (std::size_t i = 0; i < n; ++i) items.emplace_back(static_cast<std::int64_t>(i));
  return Value::list(std::move(items));
}

struct CostCase {
  const char* expr;
  std::vector<std::pair<std::string, Value>> vars;
  std::uint64_t want;
};

}  // namespace

TEST_CASE("runtime costs match cel-go's interpreter tests") {
  const Value text500(std::string(500, 'x'));
  const std::vector<CostCase> cases = {
      {"\"Hello World!\"", {}, 0},
      {"input", {{"input", ints(2)}}, 1},
      {"input['key']", {{"input", Value::map({{Value("key"), Value("v")}})}}, 2},
      {"input[0]", {{"input", Value::list({Value("v")})}}, 2},
      {"input['ke' + 'y']", {{"input", Value::map({{Value("key"), Value("v")}})}}, 3},
      {"input[3-3]", {{"input", Value::list({Value("v")})}}, 3},
      {"[1, 2, 3]", {}, 10},
      {"{\"a\": 1, \"b\": 2, \"c\": 3}", {}, 30},
      {"input.all(x, true)", {{"input", Value::list({})}}, 2},
      {"[1, 2, 3].all(x, true)", {}, 20},
      {"input.matches('[0-9]')", {{"input", text500}}, 103},
      {"'123'.matches('[0-9]')", {}, 2},
      {"false || false", {}, 0},
      {"true || false", {}, 0},
      {"a || b || c || d", {{"a", Value(false)}, {"b", Value(false)}, {"c", Value(false)}, {"d", Value(false)}}, 4},
      {"a && b && c && d", {{"a", Value(true)}, {"b", Value(true)}, {"c", Value(true)}, {"d", Value(true)}}, 4},
      {"1 < 2", {}, 1},
      {"2 in [1, 2, 3]", {}, 13},
      {"1 + 1", {}, 1},
      {"true ? 1 : 2", {}, 0},
      {"size(\"123\")", {}, 1},
      {"'12345678901234567890' == '123456789012345678901234567890'", {}, 2},
      {"string(input)", {{"input", Value::bytes(std::string(500, 'x'))}}, 51},
      {"bytes(input)", {{"input", text500}}, 51},
      {"string(1)", {}, 1},
      {"input.contains(arg1)", {{"input", text500}, {"arg1", text500}}, 2502},
      {"input.startsWith(arg1)", {{"input", Value("idc")}, {"arg1", text500}}, 3},
      {"input.size()", {{"input", Value("500")}}, 2},
      {"true ? false : 1 > 3", {}, 0},
      {"false ? false : 1 > 3", {}, 1},
      {"input.all(k, input[k].all(x, true))", {{"input", Value::map({})}}, 2},
  };
  for (const auto& c : cases) {
    CAPTURE(c.expr);
    const Run r = run(c.expr, c.vars);
    CHECK_FALSE(r.value.is_error());
    CHECK(r.cost == c.want);
  }
}

TEST_CASE("the Kubernetes library's runtime costs follow the arguments' sizes") {
  const Value long_text(std::string(1000, 'a'));
  // lowerAscii walks the 1,000 characters at 0.1 each; `self` costs 1
  CHECK(run("self.lowerAscii()", {{"self", long_text}}).cost == 101);
  // a list's sum walks its elements: 1 each
  CHECK(run("self.sum()", {{"self", ints(40)}}).cost == 41);
  // split: twice the traversal of the receiver
  CHECK(run("self.split('a')", {{"self", long_text}}).cost == 201);
  // find: (1000 + 1) * 0.1 -> 101, times '[a-z]' (5 characters * 0.25 -> 2)
  CHECK(run("self.find('[a-z]')", {{"self", long_text}}).cost == 203);
  // cel-go's sets: 1 + 40 * 3 comparisons, twice for equivalence; `self` and the list literal
  CHECK(run("sets.contains(self, [1, 2, 3])", {{"self", ints(40)}}).cost == 1 + 10 + 1 + 120);
  CHECK(run("sets.equivalent(self, [1, 2, 3])", {{"self", ints(40)}}).cost == 1 + 10 + 1 + 240);
}

TEST_CASE("over the limit, evaluation stops with cel-go's error") {
  const Run within = run("[1, 2, 3].all(x, true)", {}, 20);
  CHECK(equals(within.value, Value(true)));
  CHECK(within.cost == 20);

  const Run over = run("[1, 2, 3].all(x, true)", {}, 19);
  REQUIRE(over.value.is_error());
  CHECK(over.value.error_message() == cost_limit_exceeded_message);
  CHECK(over.cost > 19);
}

TEST_CASE("an adversarial rule is stopped at the per-call limit") {
  // 1,000 x 1,000 iterations, about 7,000,000 units: stopped a little past the limit.
  const Run r = run("self.all(x, self.all(y, x + y >= 0))", {{"self", ints(1000)}}, per_call_limit);
  REQUIRE(r.value.is_error());
  CHECK(r.value.error_message() == cost_limit_exceeded_message);
  CHECK(r.cost > per_call_limit);
  CHECK(r.cost < per_call_limit + 10);

  // Strings doubled by nested binds cost their lengths: 2^20 characters are over the limit.
  std::string doubling = "s";
  for (int i = 0; i < 20; ++i) doubling = "cel.bind(s, s + s, " + doubling + ")";
  const Run grown = run(doubling + ".size() > 0", {{"s", Value(std::string(1, 'a'))}}, per_call_limit / 10);
  REQUIRE(grown.value.is_error());
  CHECK(grown.value.error_message() == cost_limit_exceeded_message);
}

TEST_CASE("the runtime cost lies within the estimate") {
  const char* rule = "self.all(x, self.exists_one(y, x == y))";
  CompileOptions options;
  options.declarations["self"] = CelType::list(CelType::string_type().with_max_size(63)).with_max_size(100);
  const CompileResult compiled = compile(rule, options);
  REQUIRE(compiled.ok());
  std::vector<Value> names;
  for (int i = 0; i < 100; ++i) names.emplace_back(std::string(60, 'a') + std::to_string(100 + i));  // 63 each
  Activation activation;
  activation.set("self", Value::list(std::move(names)));
  std::uint64_t cost = 0;
  const Value v = compiled.program->evaluate(activation, EvalOptions{}, &cost);
  CHECK(equals(v, Value(true)));
  CHECK(cost >= compiled.cost.min);
  CHECK(cost <= compiled.cost.max);
  // The plain evaluation gives the same value.
  CHECK(equals(compiled.program->evaluate(activation), v));
}

TEST_CASE("counted and plain evaluation agree on every kind of node") {
  const char* exprs[] = {
      "[1, 2, 3].map(x, x * 2) == [2, 4, 6]",
      "[1, 2, 3].map(x, x > 1, x * 2)",
      "[1, 2, 3].filter(x, x > 1)",
      "[1, 2, 3].exists(x, x == 2)",
      "[1, 2, 3].exists_one(x, x >= 2)",
      "{'a': 1, 'b': 2}.all(k, v, v > 0)",
      "[3, 1, 2].transformList(i, v, v * i)",
      "{'a': 1}.transformMap(k, v, v + 1)",
      "{'a': 1}.transformMapEntry(k, v, {k + k: v})",
      "[3, 1, 2].sortBy(x, -x)",
      "cel.bind(x, 'ab', x + x)",
      "optional.of(2).optMap(x, x + 1).orValue(0)",
      "optional.none().optFlatMap(x, optional.of(x)).or(optional.of(5))",
      "{'a': {'b': 1}}.a.?b.orValue(3)",
      "has({'a': 1}.a) && !has({'a': 1}.b)",
      "1 / 0 > 2 || true",
      "[1, 'a'].exists(x, x == 'a')",
      "'abc'.matches('^a') ? 'x'.size() : 0",
      "[1, 2].all(x, x / 0 == 1)",
      "pkg.Msg{f: 1}",
      "'a,b,c'.split(',').join('-')",
      "quantity('1Gi').isGreaterThan(quantity('1Mi'))",
      "lists.range(4).sum()",
      "sets.contains([1, 2], [2])",
  };
  for (const char* e : exprs) {
    CAPTURE(e);
    CompileOptions options;
    options.check_functions = false;
    options.check_types = false;
    const CompileResult compiled = compile(e, options);
    REQUIRE_MESSAGE(compiled.ok(), compiled.error_text);
    const Activation none;
    std::uint64_t cost = 0;
    const Value counted = compiled.program->evaluate(none, EvalOptions{}, &cost);
    const Value plain = compiled.program->evaluate(none);
    CHECK(debug_string(counted) == debug_string(plain));
    CHECK(cost > 0);
  }
}
