// Rules evaluated as the API server evaluates them: each case is a schema node with its
// x-kubernetes-validations, a value (and an old value for updates) and the errors the API server
// reports, in its text (k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/validation.go).
#include <doctest/doctest.h>

#include <string>
#include <thread>
#include <vector>

#include "rr/schema_cel/cel_rules.hpp"

namespace {

using rr::Json;

struct CheckCase {
  const char* name;
  const char* schema;
  const char* value;
  const char* old_value;  // nullptr: a create
  std::vector<std::string> errors;
};

// A value over its limit, for the schemas of replicas_schema().
constexpr const char* kOver = R"({"replicas":3,"maxReplicas":2})";

std::vector<std::string> run(const CheckCase& c) {
  std::vector<rr::FieldError> compile_errors;
  const auto rules = rr::schema::CelRules::compile(Json::parse(c.schema), "spec.validation.openAPIV3Schema",
                                                   compile_errors);
  std::vector<std::string> out;
  for (const auto& e : compile_errors) out.push_back("compile: " + e.message);
  if (!rules) return out;
  const Json self = Json::parse(c.value);
  const Json old = c.old_value != nullptr ? Json::parse(c.old_value) : Json();
  std::vector<rr::FieldError> errors;
  rules->check(self, c.old_value != nullptr ? &old : nullptr, "spec", errors);
  for (const auto& e : errors) out.push_back(e.message);
  return out;
}

using Errors = std::vector<std::string>;

// The errors of kOver, created, under `schema`.
Errors over(const std::string& schema) { return run({"", schema.c_str(), kOver, nullptr, {}}); }

void run_table(const std::vector<CheckCase>& cases) {
  for (const CheckCase& c : cases) {
    CAPTURE(c.name);
    CHECK(run(c) == c.errors);
  }
}

// An object schema with replicas and maxReplicas, carrying `rules` (a JSON array text).
std::string replicas_schema(const std::string& rules) {
  return R"({"type":"object","properties":{"replicas":{"type":"integer"},"maxReplicas":{"type":"integer"},
      "name":{"type":"string"}},"x-kubernetes-validations":)" +
         rules + "}";
}

}  // namespace

TEST_CASE("rules: pass, fail, message and the default message") {
  const std::string plain = replicas_schema(R"([{"rule":"self.replicas <= self.maxReplicas"}])");
  const std::string with_message = replicas_schema(
      R"([{"rule":"self.replicas <= self.maxReplicas","message":"  replicas must not exceed maxReplicas "}])");
  run_table({
      {"passes", plain.c_str(), R"({"replicas":1,"maxReplicas":2})", nullptr, {}},
      {"fails with the default message",
       plain.c_str(),
       kOver,
       nullptr,
       {R"(spec: Invalid value: failed rule: self.replicas <= self.maxReplicas)"}},
      {"fails with the message, trimmed",
       with_message.c_str(),
       kOver,
       nullptr,
       {R"(spec: Invalid value: replicas must not exceed maxReplicas)"}},
      {"a null value is not validated", plain.c_str(), "null", nullptr, {}},
  });
}

TEST_CASE("rules: an evaluation error is reported as the API server reports it") {
  const std::string no_key = replicas_schema(R"([{"rule":"self.replicas <= self.maxReplicas"}])");
  const std::string overload =
      R"({"x-kubernetes-int-or-string":true,"x-kubernetes-validations":[{"rule":"self < 5"}]})";
  run_table({
      {"no such key",
       no_key.c_str(),
       R"({"replicas":3})",
       nullptr,
       {R"(spec: Invalid value: "object": no such key: maxReplicas evaluating rule: self.replicas <= self.maxReplicas)"}},
      {"int-or-string holding a string: no overload at run time",
       overload.c_str(),
       R"("50%")",
       nullptr,
       {R"(spec: Invalid value: "": 'no matching overload for '_<_' applied to '(string, int)'': call arguments did not match a supported operator, function or macro signature for rule: self < 5)"}},
  });
}

TEST_CASE("rules: the value a refusal shows: the value for a failed rule, the schema type for an error") {
  // validation.go (1.35): a false rule shows a scalar's value and omits an object's or a list's;
  // an evaluation error shows sts.Type, quoted, whatever the value.
  const char* list =
      R"j({"type":"array","items":{"type":"integer"},"x-kubernetes-validations":[{"rule":"size(self) < 2"}]})j";
  const char* list_error =
      R"j({"type":"array","items":{"type":"integer"},"x-kubernetes-validations":[{"rule":"self[5] > 0"}]})j";
  const char* text = R"j({"type":"string","x-kubernetes-validations":[{"rule":"self.startsWith('a')"}]})j";
  const char* text_error = R"j({"type":"string","x-kubernetes-validations":[{"rule":"int(self) > 0"}]})j";
  const char* number = R"j({"type":"integer","x-kubernetes-validations":[{"rule":"self < 3","message":"too big"}]})j";
  const char* duplicate =
      R"j({"type":"object","properties":{"a":{"type":"integer"}},"x-kubernetes-validations":[{"rule":"false","reason":"FieldValueDuplicate"}]})j";
  run_table({
      {"a list that fails: no value",
       list,
       "[1,2]",
       nullptr,
       {R"j(spec: Invalid value: failed rule: size(self) < 2)j"}},
      {"a list whose rule errs: its type",
       list_error,
       "[1]",
       nullptr,
       {R"j(spec: Invalid value: "array": index out of bounds: 5 evaluating rule: self[5] > 0)j"}},
      {"a string that fails: its value",
       text,
       R"j("b")j",
       nullptr,
       {R"j(spec: Invalid value: "b": failed rule: self.startsWith('a'))j"}},
      {"a string whose rule errs: its type",
       text_error,
       R"j("x")j",
       nullptr,
       {R"j(spec: Invalid value: "string": cannot convert string to int: x evaluating rule: int(self) > 0)j"}},
      {"an integer with a message", number, "7", nullptr, {R"j(spec: Invalid value: 7: too big)j"}},
      {"Duplicate on an object: the value omitted", duplicate, R"j({"a":1})j", nullptr, {R"j(spec: Duplicate value)j"}},
  });
}

TEST_CASE("rules: messageExpression, and its fall back to the message") {
  const auto schema = [](const char* expr) {
    return replicas_schema(std::string(R"([{"rule":"self.replicas <= self.maxReplicas","message":"too many",)") +
                           R"("messageExpression":")" + expr + R"("}])");
  };
  const std::string formatted = schema("'replicas ' + string(self.replicas) + ' exceeds ' + string(self.maxReplicas)");
  const std::string empty = schema("'  '");
  const std::string erroring = schema("self.name");
  const std::string newline = schema(R"('a\\nb')");
  const std::string unknown_function = schema("'x'.repeat(1)");  // not a function: a compile error
  const Errors too_many = {R"(spec: Invalid value: too many)"};
  CHECK(over(formatted) == Errors{R"(spec: Invalid value: replicas 3 exceeds 2)"});
  CHECK(over(empty) == too_many);     // empty
  CHECK(over(erroring) == too_many);  // an evaluation error (no such key)
  CHECK(over(newline) == too_many);   // a line break
  // Too long (over 5 KiB): the message.
  const std::string too_long = replicas_schema(
      R"([{"rule":"false","message":"short","messageExpression":"self.name + self.name"}])");
  const std::string name(2600, 'n');
  run_table({{"too long: the message",
              too_long.c_str(),
              (R"({"name":")" + name + R"("})").c_str(),
              nullptr,
              {R"(spec: Invalid value: short)"}}});
  CHECK(run({"not a function", unknown_function.c_str(), "{}", nullptr, {}}).front().starts_with("compile: "));
}

TEST_CASE("rules: reason decides the error type") {
  const auto schema = [](const char* reason) {
    return replicas_schema(
        std::string(R"([{"rule":"self.replicas <= self.maxReplicas","message":"too many","reason":")") + reason +
        R"("}])");
  };
  const std::string invalid = schema("FieldValueInvalid");
  const std::string forbidden = schema("FieldValueForbidden");
  const std::string required = schema("FieldValueRequired");
  const std::string duplicate = schema("FieldValueDuplicate");
  CHECK(over(invalid) == Errors{R"(spec: Invalid value: too many)"});
  CHECK(over(forbidden) == Errors{"spec: Forbidden: too many"});
  CHECK(over(required) == Errors{"spec: Required value: too many"});
  CHECK(over(duplicate) == Errors{"spec: Duplicate value"});  // an object shows no value, and no detail
  std::vector<rr::FieldError> errors;
  const auto rules = rr::schema::CelRules::compile(Json::parse(forbidden), "s", errors);
  REQUIRE(rules);
  rules->check(Json::parse(kOver), nullptr, "spec", errors);
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].type == rr::FieldErrorType::Forbidden);
  CHECK(errors[0].path == "spec");
}

TEST_CASE("rules: fieldPath reports the error at that field") {
  const std::string schema = R"({"type":"object","properties":{
      "replicas":{"type":"integer"},
      "labels":{"type":"object","additionalProperties":{"type":"string"}},
      "limits":{"type":"object","properties":{"max":{"type":"integer"}}}},
    "x-kubernetes-validations":[
      {"rule":"self.replicas <= self.limits.max","message":"over the limit","fieldPath":".limits.max"},
      {"rule":"self.labels.size() < 2","fieldPath":".labels['app.kubernetes.io/name']"},
      {"rule":"self.replicas > 0","fieldPath":"['replicas']","reason":"FieldValueForbidden"}]})";
  run_table({
      {"passing", schema.c_str(), R"({"replicas":1,"labels":{},"limits":{"max":2}})", nullptr, {}},
      {"each error at its field",
       schema.c_str(),
       R"({"replicas":0,"labels":{"a":"1","b":"2"},"limits":{"max":-1}})",
       nullptr,
       {R"(spec.limits.max: Invalid value: over the limit)",
        R"(spec.labels[app.kubernetes.io/name]: Invalid value: failed rule: self.labels.size() < 2)",
        "spec.replicas: Forbidden: failed rule: self.replicas > 0"}},
  });
}

TEST_CASE("rules: transition rules run on update only, with oldSelf") {
  const char* schema = R"({"type":"string","x-kubernetes-validations":[
      {"rule":"self == oldSelf","message":"Value is immutable"},
      {"rule":"self.size() <= 5"}]})";
  run_table({
      {"create: the transition rule is skipped",
       schema,
       R"("abcdefg")",
       nullptr,
       {R"(spec: Invalid value: "abcdefg": failed rule: self.size() <= 5)"}},
      {"update, unchanged", schema, R"("abc")", R"("abc")", {}},
      {"update, changed", schema, R"("abd")", R"("abc")", {R"(spec: Invalid value: "abd": Value is immutable)"}},
  });
  std::vector<rr::FieldError> errors;
  CHECK(rr::schema::CelRules::compile(Json::parse(schema), "s", errors)->has_transition_rules());
  const char* plain = R"({"type":"string","x-kubernetes-validations":[{"rule":"self.size() <= 5"}]})";
  CHECK_FALSE(rr::schema::CelRules::compile(Json::parse(plain), "s", errors)->has_transition_rules());
}

TEST_CASE("rules: optionalOldSelf makes oldSelf an optional and runs on create too") {
  const char* schema = R"j({"type":"integer","x-kubernetes-validations":[
      {"rule":"!oldSelf.hasValue() || self >= oldSelf.value()","message":"must not decrease","optionalOldSelf":true},
      {"rule":"oldSelf.hasValue() || self < 10","message":"must start below 10","optionalOldSelf":true}]})j";
  run_table({
      {"create, small", schema, "3", nullptr, {}},
      {"create, large", schema, "12", nullptr, {R"(spec: Invalid value: 12: must start below 10)"}},
      {"update, growing", schema, "12", "11", {}},
      {"update, shrinking", schema, "4", "11", {R"(spec: Invalid value: 4: must not decrease)"}},
  });
}

TEST_CASE("rules: list items, map values and nested objects each have their own self") {
  // The structural-schema walk compiles the rules of each node and calls check() per value; here
  // the items' and values' nodes are compiled and checked as that walk would.
  const Json list = Json::parse(R"j({"type":"array","items":{"type":"object",
      "properties":{"name":{"type":"string"},"port":{"type":"integer"}},
      "x-kubernetes-validations":[{"rule":"self.port > 1024 || self.name == 'http'","message":"privileged port"}]},
      "x-kubernetes-validations":[{"rule":"self.all(p, p.port != 0)"}]})j");
  std::vector<rr::FieldError> errors;
  const auto items = rr::schema::CelRules::compile(list["items"], "s.items", errors);
  const auto whole = rr::schema::CelRules::compile(list, "s", errors);
  REQUIRE(items);
  REQUIRE(whole);
  const Json value = Json::parse(R"([{"name":"http","port":80},{"name":"ssh","port":22},{"name":"x","port":0}])");
  whole->check(value, nullptr, "spec.ports", errors);
  for (std::size_t i = 0; i < value.size(); ++i)
    items->check(value[i], nullptr, "spec.ports[" + std::to_string(i) + "]", errors);
  std::vector<std::string> messages;
  for (const auto& e : errors) messages.push_back(e.message);
  CHECK(messages ==
        std::vector<std::string>{R"(spec.ports: Invalid value: failed rule: self.all(p, p.port != 0))",
                                 R"(spec.ports[1]: Invalid value: privileged port)",
                                 R"(spec.ports[2]: Invalid value: privileged port)"});

  const Json map = Json::parse(R"j({"type":"object","additionalProperties":{"type":"string",
      "x-kubernetes-validations":[{"rule":"self.startsWith('v')","messageExpression":"'bad version ' + self"}]}})j");
  const auto values = rr::schema::CelRules::compile(map["additionalProperties"], "s.additionalProperties", errors);
  REQUIRE(values);
  errors.clear();
  values->check(Json("v1"), nullptr, "spec.versions[a]", errors);
  values->check(Json("2"), nullptr, "spec.versions[b]", errors);
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].message == R"(spec.versions[b]: Invalid value: "2": bad version 2)");
}

TEST_CASE("rules: escaped property names and formats in rules") {
  const char* schema = R"j({"type":"object","properties":{
      "x-port":{"type":"integer"},"namespace":{"type":"string"},
      "timeout":{"type":"string","format":"duration"},"expires":{"type":"string","format":"date-time"}},
    "x-kubernetes-validations":[
      {"rule":"self.x__dash__port < 65536"},
      {"rule":"self.__namespace__ != 'kube-system'"},
      {"rule":"!has(self.timeout) || self.timeout <= duration('1h')","message":"timeout over an hour"},
      {"rule":"!has(self.expires) || self.expires > timestamp('2020-01-01T00:00:00Z')","message":"expired"}]})j";
  run_table({
      {"valid",
       schema,
       R"({"x-port":80,"namespace":"a","timeout":"30m","expires":"2030-01-01T00:00:00Z"})",
       nullptr,
       {}},
      {"each violated",
       schema,
       R"({"x-port":70000,"namespace":"kube-system","timeout":"2h","expires":"2019-01-01T00:00:00Z"})",
       nullptr,
       {R"(spec: Invalid value: failed rule: self.x__dash__port < 65536)",
        R"(spec: Invalid value: failed rule: self.__namespace__ != 'kube-system')",
        R"(spec: Invalid value: timeout over an hour)", R"(spec: Invalid value: expired)"}},
  });
}

TEST_CASE("rules: one compiled set checked from several threads at once") {
  const std::string schema = replicas_schema(
      R"j([{"rule":"self.replicas <= self.maxReplicas","messageExpression":"'over by ' + string(self.replicas - self.maxReplicas)"}])j");
  std::vector<rr::FieldError> errors;
  const auto rules = rr::schema::CelRules::compile(Json::parse(schema), "s", errors);
  REQUIRE(rules);
  const Json over = Json::parse(R"({"replicas":5,"maxReplicas":2})");
  std::vector<int> right(4, 0);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < right.size(); ++t) {
    threads.emplace_back([&rules, &over, &right, t] {
      for (int i = 0; i < 200; ++i) {
        std::vector<rr::FieldError> out;
        rules->check(over, nullptr, "spec", out);
        if (out.size() == 1 && out[0].message == R"(spec: Invalid value: over by 3)") ++right[t];
      }
    });
  }
  for (auto& thread : threads) thread.join();
  CHECK(right == std::vector<int>(4, 200));
}

TEST_CASE("rules: ratcheting, an unchanged invalid value warns instead of failing an update") {
  const char* schema = R"({"type":"string","x-kubernetes-validations":[
      {"rule":"self.size() <= 3","message":"too long"},
      {"rule":"self == oldSelf","message":"immutable"}]})";
  std::vector<rr::FieldError> errors;
  const auto rules = rr::schema::CelRules::compile(Json::parse(schema), "s", errors);
  REQUIRE(rules);
  const Json long_value("abcdef");
  const Json other_long("abcdefg");
  std::vector<std::string> warnings;
  const rr::schema::CheckOptions collect{.ancestor_unchanged = false, .warnings = &warnings};
  // Create: an error.
  rules->check(long_value, nullptr, "spec.name", errors, collect);
  CHECK(errors.size() == 1);
  CHECK(warnings.empty());
  // Update that leaves the invalid value as it was: a warning; the transition rule holds.
  errors.clear();
  rules->check(long_value, &long_value, "spec.name", errors, collect);
  CHECK(errors.empty());
  CHECK(warnings == std::vector<std::string>{R"(spec.name: Invalid value: "abcdef": too long)"});
  // Update to another invalid value: errors (a transition rule is never ratcheted).
  errors.clear();
  warnings.clear();
  rules->check(other_long, &long_value, "spec.name", errors, collect);
  REQUIRE(errors.size() == 2);
  CHECK(errors[0].message == R"(spec.name: Invalid value: "abcdefg": too long)");
  CHECK(errors[1].message == R"(spec.name: Invalid value: "abcdefg": immutable)");
  CHECK(warnings.empty());
  // Not correlatable (no old value on an update): the nearest correlated ancestor decides.
  errors.clear();
  rules->check(long_value, nullptr, "spec.names[0]", errors, {.ancestor_unchanged = true, .warnings = &warnings});
  CHECK(errors.empty());
  CHECK(warnings.size() == 1);
}
