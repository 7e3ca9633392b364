// Evaluation semantics: errors as values and their absorption by &&, || and ?:, overflow,
// heterogeneous numeric equality, macros, optionals, JSON activations, compile once / evaluate
// many times.
#include <doctest/doctest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "rr/cel/json.hpp"
#include "rr/cel/program.hpp"

using namespace rr::cel;

namespace {

// Run-time semantics: compiled without the type checker, as the conformance cases that disable
// it (type errors are then error values; type_check_test.cpp covers the checker).
Value eval(std::string_view source, const Activation& activation = {}) {
  CompileOptions options;
  options.check_types = false;
  auto compiled = compile(source, options);
  REQUIRE_MESSAGE(compiled.ok(), compiled.error_text);
  return compiled.program->evaluate(activation);
}

std::string show(std::string_view source, const Activation& activation = {}) {
  return debug_string(eval(source, activation));
}

bool is_error_containing(const Value& v, std::string_view text) {
  return v.is_error() && v.error_message().find(text) != std::string::npos;
}

}  // namespace

TEST_CASE("logical operators absorb errors where the other side decides") {
  CHECK(show("1/0 == 1 || true") == "true");
  CHECK(show("true || 1/0 == 1") == "true");
  CHECK(show("1/0 == 1 && false") == "false");
  CHECK(show("false && 1/0 == 1") == "false");
  CHECK(is_error_containing(eval("1/0 == 1 && true"), "division by zero"));
  CHECK(is_error_containing(eval("false || 1/0 == 1"), "division by zero"));
  CHECK(show("true ? 1 : 1/0") == "1");
  CHECK(is_error_containing(eval("1/0 == 1 ? 1 : 2"), "division by zero"));
}

TEST_CASE("a long && chain evaluates with its short circuit") {
  std::string conj = "true";
  for (int i = 0; i < 5000; ++i) conj += " && true";
  CHECK(show(conj) == "true");
  CHECK(show(conj + " && 1/0 == 1 && false") == "false");
}

TEST_CASE("integer arithmetic reports overflow instead of wrapping") {
  CHECK(is_error_containing(eval("9223372036854775807 + 1"), "overflow"));
  CHECK(is_error_containing(eval("-9223372036854775808 - 1"), "overflow"));
  CHECK(is_error_containing(eval("0u - 1u"), "overflow"));
  CHECK(is_error_containing(eval("-9223372036854775808 / -1"), "overflow"));
  CHECK(show("7 / 2") == "3");
  CHECK(show("-7 % 3") == "-1");
  CHECK(is_error_containing(eval("1 + 1u"), "no matching overload"));
}

TEST_CASE("numbers compare by value across int, uint and double") {
  CHECK(show("1 == 1u") == "true");
  CHECK(show("1 == 1.0") == "true");
  CHECK(show("-1 < 1u") == "true");
  // int against double converts the int (cel-go, and the conformance cases): 2^63 - 1 becomes 2^63.
  CHECK(show("9223372036854775807 < 9223372036854775808.0") == "false");
  CHECK(show("9223372036854775807 < 1e19") == "true");
  CHECK(show("[1, 2] == [1.0, 2u]") == "true");
  CHECK(show("{1: 'a'}[1u]") == "\"a\"");
  CHECK(show("1 == 'a'") == "false");
  CHECK(show("0.0/0.0 == 0.0/0.0") == "false");
}

TEST_CASE("strings, lists and maps") {
  CHECK(show("size('héllo')") == "5");
  CHECK(show("'abc'.startsWith('ab') && 'abc'.endsWith('bc') && 'abc'.contains('b')") == "true");
  CHECK(show("'abc123'.matches('^[a-z]+[0-9]+$')") == "true");
  CHECK(show("matches('x', 'y')") == "false");
  // A bad constant pattern is a compile error; a pattern computed at run time gives an error value.
  const auto bad = compile("'a'.matches('(')");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.errors[0].column == 13);
  CHECK(bad.errors[0].message.find("invalid regular expression") == 0);
  CHECK(is_error_containing(eval("'a'.matches('(' + '')"), "invalid regular expression"));
  CHECK(show("2 in [1, 2, 3] && 'k' in {'k': 1}") == "true");
  CHECK(show("[1, 2] + [3]") == "[1, 2, 3]");
  CHECK(is_error_containing(eval("[1][1]"), "index out of bounds"));
  CHECK(is_error_containing(eval("{'a': 1}.b"), "no such key"));
  CHECK(is_error_containing(eval("{'a': 1, 'a': 2}"), "repeated key"));
}

TEST_CASE("macros") {
  CHECK(show("[1, 2, 3].all(x, x > 0)") == "true");
  CHECK(show("[1, 2, 3].exists(x, x == 2)") == "true");
  CHECK(show("[1, 2, 3].exists_one(x, x > 1)") == "false");
  CHECK(show("[1, 2, 3].map(x, x * 2)") == "[2, 4, 6]");
  CHECK(show("[1, 2, 3].map(x, x > 1, x * 10)") == "[20, 30]");
  CHECK(show("[1, 2, 3].filter(x, x != 2)") == "[1, 3]");
  CHECK(show("{'a': 1, 'b': 2}.filter(k, k == 'b')") == "[\"b\"]");
  CHECK(show("has({'a': 1}.a) && !has({'a': 1}.b)") == "true");
  // An error in one element is absorbed when another decides.
  CHECK(show("[0, 1].exists(x, 1 / x == 1)") == "true");
  CHECK(show("[0, 1].all(x, 1 / x == 2)") == "false");
  CHECK(is_error_containing(eval("[0, 1].all(x, 1 / x == 1)"), "division by zero"));
  // Two-variable forms.
  CHECK(show("[10, 20].all(i, v, v == (i + 1) * 10)") == "true");
  CHECK(show("['a', 'b'].transformList(i, v, v + string(i))") == "[\"a0\", \"b1\"]");
  CHECK(show("{'a': 1}.transformMap(k, v, v + 1)") == "{\"a\": 2}");
  CHECK(show("[1, 2].transformMapEntry(i, v, {string(v): i})") == "{\"1\": 0, \"2\": 1}");
  CHECK(show("{'a': 1, 'b': 2}.existsOne(k, v, v == 2)") == "true");
  // Nested comprehensions see their own variables.
  CHECK(show("[1, 2].all(x, [3, 4].all(y, y > x))") == "true");
}

TEST_CASE("conversions and types") {
  CHECK(show("int('42') + int(3.9) + int(2u)") == "47");
  CHECK(is_error_containing(eval("int(1e99)"), "range"));
  CHECK(is_error_containing(eval("uint(-1)"), "range"));
  CHECK(show("string(1.5) + string(true) + string(b'x')") == "\"1.5truex\"");
  // Go's strconv.FormatFloat(d, 'g', -1, 64), as cel-go's string(double).
  CHECK(show("[string(123456.0), string(1e6), string(0.0001), string(0.00001), string(-0.0)]") ==
        "[\"123456\", \"1e+06\", \"0.0001\", \"1e-05\", \"-0\"]");
  CHECK(show("type(1) == int && type('a') == string && type(type(1)) == type") == "true");
  CHECK(show("bool('true') && !bool('false')") == "true");
  CHECK(is_error_containing(eval("string(b'\\xff')"), "UTF-8"));
}

TEST_CASE("durations and timestamps") {
  CHECK(show("duration('1h30m')") == "duration(\"5400s\")");
  CHECK(show("timestamp('2024-01-02T03:04:05Z') + duration('1s')") == "timestamp(\"2024-01-02T03:04:06Z\")");
  CHECK(show("timestamp('2024-01-02T03:04:05Z') - timestamp('2024-01-01T03:04:05Z')") == "duration(\"86400s\")");
  CHECK(show("timestamp('2024-03-10T12:00:00Z').getHours('America/New_York')") == "8");
  CHECK(show("timestamp('2024-01-10T12:00:00Z').getHours('America/New_York')") == "7");
  CHECK(show("timestamp('2024-01-10T12:00:00Z').getHours('+05:30')") == "17");
  CHECK(is_error_containing(eval("timestamp('2024-01-10T12:00:00Z').getHours('Nowhere/Zone')"), "time zone"));
  CHECK(is_error_containing(eval("timestamp('9999-12-31T23:59:59Z') + duration('1s')"), "range"));
}

TEST_CASE("optionals") {
  CHECK(show("{'a': 1}.?a") == "optional.of(1)");
  CHECK(show("{'a': 1}.?b") == "optional.none()");
  CHECK(show("{'a': {'b': 2}}.?a.b") == "optional.of(2)");
  CHECK(show("{'a': 1}.?b.orValue(5)") == "5");
  CHECK(show("optional.none().or(optional.of(3)).value()") == "3");
  CHECK(show("[1, 2][?5].hasValue()") == "false");
  CHECK(show("[?optional.none(), ?optional.of(1)]") == "[1]");
  CHECK(show("{?'a': optional.none(), ?'b': optional.of(2)}") == "{\"b\": 2}");
  CHECK(is_error_containing(eval("optional.none().value()"), "optional.none()"));
}

TEST_CASE("variables come from the activation, as values or JSON") {
  Activation vars;
  vars.set_json("self", rr::Json::parse(R"({"minReplicas": 1, "replicas": 3, "name": "abc",
                                            "items": [{"name": "a1"}, {"name": "a2"}]})"));
  CHECK(show("self.minReplicas <= self.replicas", vars) == "true");
  CHECK(show("self.items.all(x, x.name.startsWith('a'))", vars) == "true");
  CHECK(show("has(self.maxReplicas)", vars) == "false");
  CHECK(is_error_containing(eval("oldSelf.replicas", vars), "undeclared reference to 'oldSelf'"));
  // A qualified name resolves before field selection.
  vars.set("a.b", Value(std::int64_t{7}));
  CHECK(show("a.b", vars) == "7");
}

TEST_CASE("one program evaluates many activations") {
  auto compiled = compile("self.size() > 2 && self.all(x, x % 2 == 0)");
  REQUIRE(compiled.ok());
  Activation a, b;
  a.set_json("self", rr::Json::parse("[2, 4, 6]"));
  b.set_json("self", rr::Json::parse("[2, 3, 6]"));
  CHECK(debug_string(compiled.program->evaluate(a)) == "true");
  CHECK(debug_string(compiled.program->evaluate(b)) == "false");
  CHECK(debug_string(compiled.program->evaluate(a)) == "true");
}

TEST_CASE("unknown functions are compile errors, or run-time errors without the check") {
  const auto checked = compile("1 + f_unknown(1)");
  REQUIRE_FALSE(checked.ok());
  CHECK(checked.error_text ==
        "ERROR: <input>:1:5: undeclared reference to 'f_unknown' (in container '')\n | 1 + f_unknown(1)\n | ....^");
  CHECK_FALSE(compile("'a'.nosuch()").ok());
  CHECK_FALSE(compile("contains('a', 'b')").ok());  // a member function called as a global one
  CHECK(compile("optional.of(1).value() + math.greatest(1, 2)").ok());

  CompileOptions unchecked;
  unchecked.check_functions = false;
  const auto deferred = compile("f_unknown(1) || true", unchecked);
  REQUIRE(deferred.ok());
  CHECK(debug_string(deferred.program->evaluate({})) == "true");
  const auto failing = compile("f_unknown(1)", unchecked);
  REQUIRE(failing.ok());
  CHECK(is_error_containing(failing.program->evaluate({}), "unbound function"));
}

TEST_CASE("declared variables: any other free name is a compile error") {
  CompileOptions options;
  options.variables = std::vector<std::string>{"self", "oldSelf"};
  CHECK(compile("self.a == oldSelf.a && self.all(x, x > 0) && type(self) == map", options).ok());
  const auto bad = compile("self.a == other.a", options);
  REQUIRE_FALSE(bad.ok());
  REQUIRE(bad.errors.size() == 1);
  CHECK(bad.errors[0].column == 11);
  CHECK(bad.errors[0].message == "undeclared reference to 'other' (in container '')");
  CHECK_FALSE(compile("[1].all(x, y > 0)", options).ok());
}

TEST_CASE("values convert back to JSON") {
  const auto j = to_json(eval("{'a': [1, 2.5, 'x', null, true], 'd': duration('1.5s')}"));
  REQUIRE(j.has_value());
  CHECK(j->dump() == R"({"a":[1,2.5,"x",null,true],"d":"1.5s"})");
  CHECK_FALSE(to_json(eval("{1: 2}")).has_value());
}

TEST_CASE("one program evaluates on several threads at once") {
  // Run-time patterns (the per-thread regex cache) and time zones (the shared zone cache).
  auto compiled = compile("self.all(x, x.name.matches('^' + x.prefix)) && "
                          "timestamp('2024-07-01T12:00:00Z').getHours(self[0].zone) == self[0].hour");
  REQUIRE(compiled.ok());
  const Program program = *compiled.program;
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&program, &wrong, t] {
      Activation vars;
      const char* zones[] = {"Europe/Paris", "America/New_York", "Asia/Tokyo", "UTC"};
      const int hours[] = {14, 8, 21, 12};
      rr::Json self = rr::Json::array();
      self.push_back({{"name", "abc" + std::to_string(t)}, {"prefix", "ab"}, {"zone", zones[t]}, {"hour", hours[t]}});
      vars.set_json("self", self);
      for (int i = 0; i < 2000; ++i) {
        const Value v = program.evaluate(vars);
        if (v.kind() != Kind::Bool || !v.as_bool()) ++wrong;
      }
    });
  }
  for (auto& th : threads) th.join();
  CHECK(wrong.load() == 0);
}

TEST_CASE("Kubernetes objects answer to escaped property names") {
  Activation vars;
  vars.set_json("self", rr::Json::parse(R"({"namespace": "ns", "x-y": 1, "a.b": 2, "c/d": 3, "e__f": 4})"));
  CHECK(show("self.__namespace__ == 'ns' && has(self.__namespace__)", vars) == "true");
  CHECK(show("[self.x__dash__y, self.a__dot__b, self.c__slash__d, self.e__underscores__f]", vars) == "[1, 2, 3, 4]");
  CHECK(is_error_containing(eval("self.__nope__", vars), "no such key"));
  // Maps written in CEL keep plain CEL semantics.
  CHECK(is_error_containing(eval("{'x-y': 1}.x__dash__y"), "no such key"));
}
