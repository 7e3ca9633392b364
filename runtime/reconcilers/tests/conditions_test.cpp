#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "rr/reconcilers/conditions.hpp"

using namespace std::chrono_literals;

namespace {

const auto t0 = std::chrono::system_clock::time_point{} + 1'700'000'000s;
const auto t1 = t0 + 90s + 400ms;

std::vector<std::string> types(const std::vector<rr::Condition>& conditions) {
  std::vector<std::string> out;
  for (const auto& c : conditions) out.push_back(c.type);
  return out;
}

rr::Condition cond(std::string type, std::string status, std::string reason = {}) {
  rr::Condition c;
  c.type = std::move(type);
  c.status = std::move(status);
  c.reason = std::move(reason);
  return c;
}

std::string status_of(const std::vector<rr::Condition>& conditions, std::string_view type) {
  const rr::Condition* c = rr::find_condition(conditions, type);
  return c ? c->status : "<missing>";
}

}  // namespace

TEST_CASE("ConditionSet: happy types, reasons and dependents") {
  const auto living = rr::ConditionSet::living({"Image", "Ready", "Deployment", "Image"});
  CHECK(living.happy_type() == "Ready");
  CHECK(living.happy_reason() == "Ready");
  CHECK(living.dependents() == std::vector<std::string>{"Image", "Deployment"});

  const auto batch = rr::ConditionSet::batch({"Succeeded", "Job"});
  CHECK(batch.happy_type() == "Succeeded");
  CHECK(batch.happy_reason() == "Succeeded");
  CHECK(batch.dependents() == std::vector<std::string>{"Job"});

  CHECK(rr::ConditionSet::living_with_happy_reason("AllGood", {}).happy_reason() == "AllGood");
  CHECK(rr::ConditionSet::batch_with_happy_reason("Done", {}).happy_reason() == "Done");
}

TEST_CASE("ConditionManager: initialize") {
  const auto set = rr::ConditionSet::living({"Image", "Deployment"});
  SUBCASE("from nothing: all Unknown, reason Initializing, sorted by type") {
    std::vector<rr::Condition> conditions;
    set.manage(conditions, t0).initialize();
    CHECK(types(conditions) == std::vector<std::string>{"Deployment", "Image", "Ready"});
    for (const auto& c : conditions) {
      CHECK(c.status == "Unknown");
      CHECK(c.reason == "Initializing");
      CHECK(c.last_transition_time.str() == "2023-11-14T22:13:20Z");
      CHECK_FALSE(c.observed_generation.has_value());
    }
  }
  SUBCASE("a True happy condition initialises missing dependents True and keeps existing ones") {
    std::vector<rr::Condition> conditions;
    auto m = set.manage(conditions, t0);
    m.set(cond("Ready", "True", "Ready"));
    m.set(cond("Image", "False", "Broken"));
    set.manage(conditions, t1).initialize();
    CHECK(status_of(conditions, "Deployment") == "True");
    CHECK(status_of(conditions, "Image") == "False");
    CHECK(rr::find_condition(conditions, "Ready")->last_transition_time.str() == "2023-11-14T22:13:20Z");
  }
}

TEST_CASE("ConditionManager: set skips writes that would only move the time") {
  std::vector<rr::Condition> conditions;
  const auto set = rr::ConditionSet::living({});
  set.manage(conditions, t0).mark_false("Ready", "Broken", "it broke");
  set.manage(conditions, t1).mark_false("Ready", "Broken", "it broke");
  REQUIRE(conditions.size() == 1);
  CHECK(conditions[0].last_transition_time.str() == "2023-11-14T22:13:20Z");

  set.manage(conditions, t1).mark_false("Ready", "Broken", "it broke again");
  CHECK(conditions[0].message == "it broke again");
  CHECK(conditions[0].last_transition_time.str() == "2023-11-14T22:14:50Z");  // t1 truncated to seconds
}

TEST_CASE("ConditionManager: observedGeneration when the manager has a generation") {
  std::vector<rr::Condition> conditions;
  const auto set = rr::ConditionSet::living({"Image"});
  set.manage(conditions, t0, 3).mark_true("Image", "Built");
  for (const auto& c : conditions) CHECK(c.observed_generation == 3);
  // A new generation alone is a change (the condition now speaks for generation 4).
  set.manage(conditions, t1, 4).mark_true("Image", "Built");
  const rr::Condition* image = rr::find_condition(conditions, "Image");
  CHECK(image->observed_generation == 4);
  CHECK(image->last_transition_time.str() == "2023-11-14T22:14:50Z");
}

TEST_CASE("ConditionManager: mark_true sets happy only when every dependent is True") {
  std::vector<rr::Condition> conditions;
  const auto set = rr::ConditionSet::living_with_happy_reason("AllGood", {"Image", "Deployment"});
  auto m = set.manage(conditions, t0);
  m.initialize();
  m.mark_true("Image", "Built", "image built");
  CHECK(status_of(conditions, "Image") == "True");
  CHECK(rr::find_condition(conditions, "Image")->message == "image built");
  CHECK(status_of(conditions, "Ready") == "Unknown");
  CHECK_FALSE(m.is_happy());

  m.mark_true("Deployment", "Deployed");
  CHECK(status_of(conditions, "Ready") == "True");
  CHECK(m.happy()->reason == "AllGood");
  CHECK(m.happy()->message.empty());
  CHECK(m.is_happy());
}

TEST_CASE("ConditionManager: mark_false on a dependent also fails happy; on another type it does not") {
  std::vector<rr::Condition> conditions;
  const auto set = rr::ConditionSet::living({"Image"});
  auto m = set.manage(conditions, t0);
  m.mark_true("Image", "Built");
  REQUIRE(m.is_happy());

  m.mark_false("Unrelated", "Meh", "not a dependent");
  CHECK(m.is_happy());

  m.mark_false("Image", "BuildFailed", "exit 1");
  CHECK(status_of(conditions, "Image") == "False");
  CHECK(m.happy()->status == "False");
  CHECK(m.happy()->reason == "BuildFailed");
  CHECK(m.happy()->message == "exit 1");
}

TEST_CASE("ConditionManager: mark_unknown") {
  const auto set = rr::ConditionSet::living({"Image", "Deployment"});
  SUBCASE("a dependent makes happy Unknown with the same reason and message") {
    std::vector<rr::Condition> conditions;
    auto m = set.manage(conditions, t0);
    m.mark_true("Image", "Built");
    m.mark_true("Deployment", "Deployed");
    m.mark_unknown("Image", "Rebuilding", "new source");
    CHECK(m.happy()->status == "Unknown");
    CHECK(m.happy()->reason == "Rebuilding");
    CHECK(m.happy()->message == "new source");
  }
  SUBCASE("a False dependent keeps happy False") {
    std::vector<rr::Condition> conditions;
    auto m = set.manage(conditions, t0);
    m.mark_false("Image", "BuildFailed", "exit 1");
    m.mark_unknown("Deployment", "Waiting", "for the image");
    CHECK(status_of(conditions, "Deployment") == "Unknown");
    CHECK(m.happy()->status == "False");
    CHECK(m.happy()->reason == "BuildFailed");  // already False: left alone
  }
  SUBCASE("a False dependent turns a non-False happy False with the Unknown's reason") {
    std::vector<rr::Condition> conditions;
    auto m = set.manage(conditions, t0);
    m.set(cond("Image", "False", "BuildFailed"));
    m.set(cond("Ready", "True", "Ready"));
    m.mark_unknown("Deployment", "Waiting", "for the image");
    CHECK(m.happy()->status == "False");
    CHECK(m.happy()->reason == "Waiting");
    CHECK(m.happy()->message == "for the image");
  }
  SUBCASE("a type outside the set leaves happy alone") {
    std::vector<rr::Condition> conditions;
    auto m = set.manage(conditions, t0);
    m.mark_true("Image", "Built");
    m.mark_true("Deployment", "Deployed");
    m.mark_unknown("Other", "Hmm", "");
    CHECK(m.is_happy());
    CHECK(status_of(conditions, "Other") == "Unknown");
  }
}

TEST_CASE("ConditionManager: clear removes only non-terminal conditions") {
  std::vector<rr::Condition> conditions;
  const auto set = rr::ConditionSet::living({"Image"});
  auto m = set.manage(conditions, t0);
  m.initialize();
  m.mark_true("Extra", "Yes");
  CHECK(m.clear("Extra").ok());
  CHECK(m.get("Extra") == nullptr);
  CHECK(m.clear("NeverThere").ok());

  const rr::Error dependent = m.clear("Image");
  CHECK(dependent.message() ==
        "condition type \"Image\" is terminal (the happy condition or one of its dependents) and cannot be cleared");
  CHECK(m.clear("Ready"));
  CHECK(m.get("Image") != nullptr);
  CHECK(m.get("Ready") != nullptr);
}

TEST_CASE("condition predicates") {
  const rr::Condition t = cond("A", "True");
  const rr::Condition f = cond("A", "False");
  const rr::Condition u = cond("A", "Unknown");
  CHECK(rr::condition_is_true(&t));
  CHECK_FALSE(rr::condition_is_true(&f));
  CHECK_FALSE(rr::condition_is_true(nullptr));
  CHECK(rr::condition_is_false(&f));
  CHECK_FALSE(rr::condition_is_false(nullptr));
  CHECK(rr::condition_is_unknown(&u));
  CHECK(rr::condition_is_unknown(nullptr));
  CHECK_FALSE(rr::condition_is_unknown(&t));
}
