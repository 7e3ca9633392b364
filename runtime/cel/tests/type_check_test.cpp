// The type checker: types inferred from declared variables, and the errors it reports at compile
// time, located.
#include <doctest/doctest.h>

#include "rr/cel/program.hpp"

using namespace rr::cel;

namespace {

// `self` as a Kubernetes schema would type it.
CompileOptions kubernetes_options() {
  const CelType item = CelType::object("Item", {{"name", CelType::string_type()}, {"weight", CelType::int_type()}});
  CompileOptions options;
  options.declarations["self"] = CelType::object(
      "Spec", {{"replicas", CelType::int_type()},
               {"minReplicas", CelType::int_type()},
               {"name", CelType::string_type()},
               {"labels", CelType::map(CelType::string_type(), CelType::string_type())},
               {"items", CelType::list(item)},
               {"timeout", CelType::string_type()}});
  options.variables = std::vector<std::string>{"self", "oldSelf"};
  return options;
}

std::string inferred(std::string_view source, const CompileOptions& options = kubernetes_options()) {
  const auto compiled = compile(source, options);
  REQUIRE_MESSAGE(compiled.ok(), compiled.error_text);
  return compiled.type.to_string();
}

std::string error_of(std::string_view source, const CompileOptions& options = kubernetes_options()) {
  const auto compiled = compile(source, options);
  REQUIRE_FALSE(compiled.ok());
  return compiled.error_text;
}

}  // namespace

TEST_CASE("types are inferred from literals, functions and declared variables") {
  CHECK(inferred("1 + 2") == "int");
  CHECK(inferred("[1, 2].map(x, string(x))") == "list(string)");
  CHECK(inferred("{'a': 1.5}") == "map(string, double)");
  CHECK(inferred("self.replicas >= self.minReplicas") == "bool");
  CHECK(inferred("self.items.map(x, x.weight)") == "list(int)");
  CHECK(inferred("self.items.filter(x, x.weight > 1)") == "list(Item)");
  CHECK(inferred("self.labels['app']") == "string");
  CHECK(inferred("self.?name") == "optional_type(string)");
  CHECK(inferred("duration(self.timeout)") == "google.protobuf.Duration");
  CHECK(inferred("oldSelf.anything") == "dyn");  // declared without a type
  // Sizes of schema objects and lists of them, and orderings with a dyn operand, are int and bool
  // whatever the operands (as cel-go's checker has them): a rule over them is a bool.
  CHECK(inferred("self.items.size()") == "int");
  CHECK(inferred("size(self.items.filter(x, x.weight > 1))") == "int");
  CHECK(inferred("self.items.filter(x, x.weight > 1).size() <= 1") == "bool");
  CHECK(inferred("size(self)") == "int");
  CHECK(inferred("oldSelf.anything < 5") == "bool");
  CHECK(inferred("oldSelf.anything >= oldSelf.other") == "bool");
  CHECK(inferred("true ? 1 : null") == "int");
}

TEST_CASE("empty literals and optional.none() take the type of what they are joined with") {
  // cel-go's free type parameters: `[]` is list(T) and binds T to its neighbours' element type; an
  // explicit dyn is the more general and wins; what stays unbound is dyn.
  CHECK(inferred("[[], [[]], [[[]]]]") == "list(list(list(list(dyn))))");
  CHECK(inferred("[[[[]]], [], [[[1]]]]") == "list(list(list(list(int))))");
  CHECK(inferred("[[], [1]]") == "list(list(int))");
  CHECK(inferred("[{}, {'a': 1}]") == "list(map(string, int))");
  CHECK(inferred("[optional.none(), optional.of(1)]") == "list(optional_type(int))");
  CHECK(inferred("[optional.of(1), optional.of(dyn(1))]") == "list(optional_type(dyn))");
  CHECK(inferred("true ? optional.of(dyn(1)) : optional.of(1)") == "optional_type(dyn)");
  CHECK(inferred("true ? [] : [1u]") == "list(uint)");
  CHECK(inferred("[]") == "list(dyn)");
  CHECK(inferred("optional.none()") == "optional_type(dyn)");
  CHECK(inferred("[[], [1]][0] + [2]") == "list(int)");
  CHECK(inferred("([].map(x, x))[0].foo") == "dyn");
  // Elements of different types still join to dyn.
  CHECK(inferred("[1, 'a']") == "list(dyn)");
}

TEST_CASE("type errors are compile errors with their location") {
  CHECK(error_of("1 + 'a'") ==
        "ERROR: <input>:1:3: found no matching overload for '_+_' applied to '(int, string)'\n | 1 + 'a'\n | ..^");
  CHECK(error_of("self.replica > 0").find("<input>:1:5: undefined field 'replica'") != std::string::npos);
  CHECK(error_of("has(self.missing)").find("undefined field 'missing'") != std::string::npos);
  CHECK(error_of("self.items.all(x, x.nam == 'a')").find("undefined field 'nam'") != std::string::npos);
  CHECK(error_of("self.name + 1").find("'_+_' applied to '(string, int)'") != std::string::npos);
  CHECK(error_of("self.replicas ? 1 : 2").find("'_?_:_' applied to '(int, int, int)'") != std::string::npos);
  CHECK(error_of("self.replicas && true").find("'_&&_' applied to '(int, bool)'") != std::string::npos);
  CHECK(error_of("self.name.startsWith(1)").find("'startsWith' applied to '(string, int)'") != std::string::npos);
  CHECK(error_of("self.replicas.all(x, true)").find("cannot be range of a comprehension") != std::string::npos);
  CHECK(error_of("self.items.all(x, x.weight)").find("the condition is int, not bool") != std::string::npos);
  CHECK(error_of("'a' == 1").find("'_==_' applied to '(string, int)'") != std::string::npos);
}

TEST_CASE("dyn is not checked, and the checker can be turned off") {
  CHECK(inferred("dyn(1) + 'a'") == "dyn");
  CHECK(inferred("oldSelf.x + 1") == "dyn");
  CompileOptions off = kubernetes_options();
  off.check_types = false;
  const auto compiled = compile("self.replica > 0", off);
  REQUIRE(compiled.ok());
  Activation vars;
  vars.set_json("self", rr::Json::parse(R"({"replicas": 1})"));
  const Value v = compiled.program->evaluate(vars);
  CHECK(v.is_error());
}
