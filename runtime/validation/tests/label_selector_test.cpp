// Label selectors: upstream's findings (meta/v1/validation) and LabelSelectorAsSelector's matching.
#include <doctest/doctest.h>

#include "messages.hpp"
#include "rr/validation/label_selector.hpp"

using namespace rr::validation;
using rr::Json;

namespace {
std::vector<std::string> texts(const ErrorList& errs) {
  std::vector<std::string> out;
  for (const FieldError& e : errs) out.push_back(e.to_string());
  return out;
}
}  // namespace

TEST_CASE("ValidateLabelSelector: operators, values required or forbidden, keys and values") {
  CHECK(validate_label_selector(Json(), "spec.selector").empty());
  CHECK(validate_label_selector(Json::parse(R"({"matchLabels":{"app":"web"}})"), "spec.selector").empty());
  const Json sel = Json::parse(R"({"matchLabels":{"app":"a b"},"matchExpressions":[
      {"key":"tier","operator":"In"},
      {"key":"tier","operator":"Exists","values":["x"]},
      {"key":"Bad Key","operator":"Equals","values":["ok"]},
      {"key":"env","operator":"NotIn","values":["good","-bad"]}]})");
  CHECK(texts(validate_label_selector(sel, "spec.selector")) ==
        std::vector<std::string>{
            "spec.selector.matchLabels: Invalid value: \"a b\": " + test::kLabelValue,
            "spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or "
            "'NotIn'",
            "spec.selector.matchExpressions[1].values: Forbidden: may not be specified when `operator` is 'Exists' or "
            "'DoesNotExist'",
            "spec.selector.matchExpressions[2].operator: Invalid value: \"Equals\": not a valid selector operator",
            "spec.selector.matchExpressions[2].key: Invalid value: \"Bad Key\": " + test::kKeyName,
            "spec.selector.matchExpressions[3].values[1]: Invalid value: \"-bad\": " + test::kLabelValue,
        });
  CHECK(validate_label_selector(sel, "s", {.allow_invalid_label_value = true}).size() == 5);
}

TEST_CASE("LabelSelectorAsSelector: null matches nothing, empty everything, requirements are ANDed") {
  const Json labels = Json::parse(R"({"app":"web","tier":"front"})");
  CHECK(label_selector_matches(Json(), labels) == false);
  CHECK(label_selector_matches(Json::object(), labels) == true);
  CHECK(label_selector_matches(Json::parse(R"({"matchLabels":{"app":"web"}})"), labels) == true);
  CHECK(label_selector_matches(Json::parse(R"({"matchLabels":{"app":"db"}})"), labels) == false);
  CHECK(label_selector_matches(Json::parse(R"({"matchLabels":{"app":"web"},"matchExpressions":[
      {"key":"tier","operator":"In","values":["front","back"]},{"key":"gone","operator":"DoesNotExist"},
      {"key":"app","operator":"Exists"},{"key":"tier","operator":"NotIn","values":["back"]}]})"),
                               labels) == true);
  CHECK(label_selector_matches(Json::parse(R"({"matchExpressions":[{"key":"x","operator":"NotIn","values":["a"]}]})"),
                               labels) == true);
  CHECK(label_selector_matches(Json::parse(R"({"matchExpressions":[{"key":"x","operator":"In","values":["a"]}]})"),
                               labels) == false);
  CHECK(!label_selector_matches(Json::parse(R"({"matchExpressions":[{"key":"x","operator":"In"}]})"), labels));
  CHECK(label_selector_empty(Json::parse(R"({"matchLabels":{}})")));
  CHECK(!label_selector_empty(Json::parse(R"({"matchExpressions":[{}]})")));
}

TEST_CASE("a selector printed as field.Invalid prints it: Go field order, omitempty") {
  CHECK(label_selector_json(Json::parse(R"({"matchLabels":{}})")) == "{}");
  CHECK(label_selector_json(Json()) == "null");
  CHECK(label_selector_json(
            Json::parse(R"({"matchExpressions":[{"operator":"Exists","key":"a"}],"matchLabels":{"b":"c","a":"d"}})")) ==
        R"({"matchLabels":{"a":"d","b":"c"},"matchExpressions":[{"key":"a","operator":"Exists"}]})");
}
