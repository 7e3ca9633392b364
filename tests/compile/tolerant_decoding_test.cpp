// Tolerant decoding (docs/types.md): an object lacking required members (stored before its CRD
// required them, or not yet completed by a mutating webhook) decodes, keeps them absent through
// a round trip, and validate() reports each one with the API server's text. The types come from
// schemas/pipelines.yaml.
#include <doctest/doctest.h>

#include <string>
#include <string_view>
#include <vector>

#include "pipelines_types.hpp"
#include "rr/core/json.hpp"

using tolerant::v1::Pipeline;

namespace {

rr::Json dom(std::string_view json) { return rr::Json::parse(json); }

std::vector<std::string> messages(const Pipeline& p) {
  std::vector<std::string> out;
  for (const auto& e : p.validate()) out.push_back(e.message);
  return out;
}

// Lacks spec.owner, spec.replicas, spec.settings and spec.limits, the name of steps[1] and the
// image of stages.build.
constexpr std::string_view kIncomplete =
    R"({"apiVersion":"tolerant.rrgen.dev/v1","kind":"Pipeline","metadata":{"name":"p"},"spec":{)"
    R"("steps":[{"name":"a"},{"image":"busybox"}],"stages":{"build":{"timeout":5},"test":{"image":"go"}}}})";

const std::vector<std::string> kAllMissing = {
    "spec.owner: Required value",         "spec.replicas: Required value",
    "spec.steps[1].name: Required value", "spec.stages[build].image: Required value",
    "spec.settings: Required value",      "spec.limits: Required value"};

// Every required member given (values that pass validation).
void complete(Pipeline& p) {
  p.spec->owner = "team";
  p.spec->replicas = 2;
  p.spec->steps->at(1).name = "b";
  p.spec->stages->at("build").image = "gcc";
  p.spec->limits.cpu = "1";
  p.spec->settings = rr::Json::object();  // schemaless: absent while null, its default
}

}  // namespace

TEST_CASE("tolerant decoding: members missing at every depth decode and validate() reports each") {
  const Pipeline p = Pipeline::from_json_text(kIncomplete);
  CHECK(p.spec->steps->at(1).image == "busybox");
  CHECK(p.spec->stages->at("build").timeout == 5);
  CHECK(p.spec->missing_required.any());
  CHECK_FALSE(p.spec->steps->at(0).missing_required.any());
  CHECK(messages(p) == kAllMissing);
  // The same through nlohmann's from_json.
  CHECK(dom(kIncomplete).get<Pipeline>() == p);
}

TEST_CASE("tolerant decoding: the round trip keeps the missing members absent") {
  const Pipeline p = Pipeline::from_json_text(kIncomplete);
  CHECK(dom(p.to_json_text()) == dom(kIncomplete));
  const rr::Json j = p;
  CHECK(j == dom(kIncomplete));
  // A copy is deep and keeps the record: the same JSON, equal, and independent.
  Pipeline copy = p;
  CHECK(copy == p);
  CHECK(copy.to_json_text() == p.to_json_text());
  copy.spec->owner = "someone";
  CHECK_FALSE(copy == p);
  CHECK(messages(p) == kAllMissing);
}

TEST_CASE("tolerant decoding: defaulting does not materialise an absent required object") {
  Pipeline p = Pipeline::from_json_text(kIncomplete);
  p.apply_defaults();
  const rr::Json out = dom(p.to_json_text());
  CHECK_FALSE(out["spec"].contains("limits"));            // memory's default has no parent to go in
  CHECK(out["spec"]["stages"]["test"]["timeout"] == 30);  // present objects are defaulted
  CHECK(out["spec"]["stages"]["build"]["timeout"] == 5);
  CHECK_FALSE(out["spec"]["stages"]["build"].contains("image"));
  CHECK(messages(p) == kAllMissing);
}

TEST_CASE("tolerant decoding: assigning a value makes a member present") {
  Pipeline p = Pipeline::from_json_text(kIncomplete);
  complete(p);
  CHECK(p.validate().empty());
  const rr::Json out = dom(p.to_json_text());
  CHECK(out["spec"]["owner"] == "team");
  CHECK(out["spec"]["replicas"] == 2);
  CHECK(out["spec"]["steps"][1]["name"] == "b");
  CHECK(out["spec"]["stages"]["build"]["image"] == "gcc");
  CHECK(out["spec"]["limits"] == dom(R"({"cpu":"1"})"));
  CHECK(out["spec"]["settings"] == rr::Json::object());
  // Equal to the same object decoded whole, as their JSON is the same.
  const Pipeline whole = Pipeline::from_json_text(p.to_json_text());
  CHECK_FALSE(whole.spec->missing_required.any());
  CHECK(whole == p);
  // Decoding into a used object resets what the JSON lacks.
  Pipeline reused = whole;
  from_json(dom(kIncomplete), reused);
  CHECK(reused == Pipeline::from_json_text(kIncomplete));
  CHECK(messages(reused) == kAllMissing);
}

TEST_CASE("tolerant decoding: the default value itself stays absent until clear()") {
  Pipeline p = Pipeline::from_json_text(kIncomplete);
  p.spec->replicas = 0;  // the value it was decoded to: indistinguishable from not assigning
  CHECK_FALSE(dom(p.to_json_text())["spec"].contains("replicas"));
  // An object built in code holds the defaults as values: same values, other JSON, so not equal.
  Pipeline built = p;
  built.spec->missing_required.clear();
  CHECK_FALSE(built == p);
  const rr::Json out = dom(built.to_json_text());
  CHECK(out["spec"]["owner"] == "");
  CHECK(out["spec"]["replicas"] == 0);
  CHECK(out["spec"]["limits"] == dom(R"({"cpu":""})"));  // built by default: its cpu is a value
  // Now present, the values are checked rather than reported missing.
  CHECK(messages(built) ==
        std::vector<std::string>{
            "spec.owner: Invalid value: \"\": spec.owner in body should be at least 1 chars long",
            "spec.replicas: Invalid value: 0: spec.replicas in body should be greater than or equal to 1",
            "spec.steps[1].name: Required value", "spec.stages[build].image: Required value"});
}
