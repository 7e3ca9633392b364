// The generated validate() and validate_update() evaluate the CRD's CEL rules and junctors
// (rr/schema_cel/typed_rules.hpp) after the typed checks, with the API server's text. The types
// come from schemas/gates.yaml.
#include <doctest/doctest.h>

#include <string>
#include <string_view>
#include <vector>

#include "gates_types.hpp"

using rules::v1::Gate;

namespace {

// The messages one a line, so that a failed CHECK prints both sides readably.
std::string lines(const std::vector<std::string>& texts) {
  std::string out;
  for (const auto& m : texts) out += "\n" + m;
  return out;
}
std::string messages(const std::vector<rr::FieldError>& errors) {
  std::vector<std::string> out;
  for (const auto& e : errors) out.push_back(e.message);
  return lines(out);
}

Gate gate(std::string_view spec) {
  return Gate::from_json_text(std::string(R"({"metadata":{"name":"g"},"spec":)") + std::string(spec) + "}");
}

}  // namespace

TEST_CASE("cel rules: a valid object passes") {
  CHECK(gate(R"({"min":1,"max":2,"replicas":2,"name":"ok","tags":["t-a"],"source":{"url":"u"}})").validate().empty());
}

TEST_CASE("cel rules: message, messageExpression, fieldPath and list items, with the API server's text") {
  const Gate g = gate(
      R"({"min":3,"max":2,"replicas":3,"name":"much-too-long","tags":["t-a","b"],"source":{"url":"u"}})");
  // In the schema walk's order: the members' rules before their object's.
  CHECK(messages(g.validate()) == lines({
                                      "spec.name: Invalid value: \"much-too-long\": name much-too-long is too long",
                                      "spec.tags[1]: Invalid value: \"b\": tags start with t-",
                                      "spec: Invalid value: min must not exceed max",
                                      "spec.replicas: Invalid value: replicas must be even",
                                  }));
  // A rule over a member the object lacks fails as the API server's CEL does.
  CHECK(messages(gate(R"({"max":1,"replicas":2})").validate()) ==
        lines({"spec: Invalid value: \"object\": no such key: min evaluating rule: min must not exceed max"}));
}

TEST_CASE("cel rules: a oneOf, as kube-openapi words it") {
  CHECK(messages(gate(R"({"min":0,"max":0,"replicas":0,"source":{"url":"u","path":"p"}})").validate()) ==
        lines({"<nil>: Invalid value: \"\": \"spec.source\" must validate one and only one schema "
               "(oneOf). Found 2 valid alternatives"}));
}

TEST_CASE("cel rules: a typed finding that blocks withholds the rules, as the API server does") {
  // maxLength is the typed code's; the rules then report that they were not checked.
  CHECK(messages(gate(R"({"min":3,"max":2,"name":"this-name-is-longer-than-forty-characters-by-far"})").validate()) ==
        lines({"spec.name: Too long: may not be longer than 40",
               "<nil>: Invalid value: \"null\": some validation rules were not checked because the object was invalid; "
               "correct the existing errors to complete validation"}));
}

TEST_CASE("cel rules: validate_update runs transition rules against the old object") {
  const Gate before = gate(R"({"min":0,"max":0,"replicas":0,"mode":"fast"})");
  const Gate after = gate(R"({"min":0,"max":0,"replicas":0,"mode":"slow"})");
  CHECK(after.validate().empty());  // no old object: the transition rule does not run
  CHECK(messages(after.validate_update(before)) == lines({"spec.mode: Invalid value: \"slow\": mode is immutable"}));
  CHECK(after.validate_update(after).empty());
}

TEST_CASE("cel rules: validate_update ratchets an unchanged invalid value") {
  const Gate bad = gate(R"({"min":0,"max":0,"replicas":0,"tags":["b"]})");
  CHECK(messages(bad.validate()) == lines({"spec.tags[0]: Invalid value: \"b\": tags start with t-"}));
  CHECK(bad.validate_update(bad).empty());
  const Gate worse = gate(R"({"min":0,"max":0,"replicas":0,"tags":["b","c"]})");
  // Items of a list that is not a list-type map do not correlate: once the list changes, every
  // item's rules count again.
  CHECK(messages(worse.validate_update(bad)) == lines({"spec.tags[0]: Invalid value: \"b\": tags start with t-",
                                                       "spec.tags[1]: Invalid value: \"c\": tags start with t-"}));
}
