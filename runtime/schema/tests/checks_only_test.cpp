// ValidateOptions::checks_and_junctors_only: what a caller with its own typed checks asks for.
#include <doctest/doctest.h>

#include <memory>

#include "support.hpp"

using rr::Json;
using schema_test::compiled;
using schema_test::messages;

namespace {

// Reports one error wherever its node has a value.
class Always : public rr::schema::NodeCheck {
 public:
  void check(const Json&, const Json*, const std::string& path, const rr::schema::CheckContext&,
             std::vector<rr::FieldError>& out) const override {
    out.push_back(rr::FieldError{path, rr::FieldErrorType::Invalid, path + ": Invalid value: \"object\": rule"});
  }
};

rr::schema::Schema schema() {
  rr::schema::CompileOptions options;
  options.node_checks = [](const Json&, const std::string&, const rr::schema::NodeContext&,
                           std::vector<rr::FieldError>&) { return std::make_unique<Always>(); };
  return compiled(Json::parse(R"({"type":"object","properties":{"spec":{"type":"object",
    "x-kubernetes-validations":[{"rule":"x"}],
    "oneOf":[{"required":["a"]},{"required":["b"]}],
    "properties":{"a":{"type":"string","maxLength":2},"b":{"type":"string"}}}}})"),
                  options);
}

rr::schema::ValidateOptions only() {
  rr::schema::ValidateOptions o;
  o.checks_and_junctors_only = true;
  return o;
}

}  // namespace

TEST_CASE("checks and junctors only: the schema's other findings are left to the caller") {
  const auto s = schema();
  // Both alternatives match: the junctor's finding and the rule's stay, maxLength goes.
  const Json both = Json::parse(R"({"spec":{"a":"ab","b":"c"}})");
  CHECK(messages(s.validate(both, nullptr, only())) ==
        std::vector<std::string>{"<nil>: Invalid value: \"\": \"spec\" must validate one and only one schema (oneOf). "
                                 "Found 2 valid alternatives",
                                 "spec: Invalid value: \"object\": rule"});
  CHECK(messages(s.validate(both, nullptr)).size() == 2);
  // A finding the walk does not report still withholds the rules, as in a full validation.
  const Json too_long = Json::parse(R"({"spec":{"a":"abc"}})");
  CHECK(messages(s.validate(too_long, nullptr, only())) ==
        std::vector<std::string>{"<nil>: Invalid value: \"null\": some validation rules were not checked because the "
                                 "object was invalid; correct the existing errors to complete validation"});
}

TEST_CASE("checks and junctors only: the caller's own blocking findings withhold the rules") {
  const auto s = schema();
  const Json valid = Json::parse(R"({"spec":{"a":"ab"}})");
  CHECK(messages(s.validate(valid, nullptr, only())) ==
        std::vector<std::string>{"spec: Invalid value: \"object\": rule"});
  auto o = only();
  o.caller_blocks_checks = true;
  CHECK(messages(s.validate(valid, nullptr, o)).size() == 1);
  CHECK(messages(s.validate(valid, nullptr, o))[0].find("some validation rules were not checked") != std::string::npos);
  CHECK(rr::schema::blocks_checks(rr::FieldError{"spec.a", rr::FieldErrorType::Required, "spec.a: Required value"}));
  CHECK_FALSE(rr::schema::blocks_checks(rr::FieldError{"spec.a", rr::FieldErrorType::Invalid, "x"}));
}
