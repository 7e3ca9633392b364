#include "rr/testing/reactor.hpp"

#include <doctest/doctest.h>

using rr::testing::Action;
using rr::testing::ActionCall;
using rr::testing::Reaction;
using rr::testing::Reactor;

namespace {

Action action(std::string verb, std::string kind, std::string ns = "ns", std::string name = "n",
              std::string subresource = "") {
  Action a;
  a.verb = std::move(verb);
  a.kind = std::move(kind);
  a.namespace_ = std::move(ns);
  a.name = std::move(name);
  a.subresource = std::move(subresource);
  return a;
}

}  // namespace

TEST_CASE("Action::matches: verb and kind, '*' for any") {
  Action a = action("update", "TestResource");
  CHECK(a.matches("update", "TestResource"));
  CHECK(a.matches("*", "TestResource"));
  CHECK(a.matches("update", "*"));
  CHECK_FALSE(a.matches("create", "TestResource"));
  CHECK_FALSE(a.matches("update", "TestChild"));
}

TEST_CASE("induce_failure: the default error names the verb and the kind") {
  Reactor r = rr::testing::induce_failure("update", "TestResource");
  Action a = action("update", "TestResource");
  Reaction reaction = rr::testing::react({r}, a);
  CHECK(reaction.handled);
  CHECK(reaction.error.message() == "inducing failure for update TestResource");
  CHECK_FALSE(reaction.error.status().has_value());
}

TEST_CASE("induce_failure: namespace, name and subresource narrow it; a given error is used") {
  Reactor r = rr::testing::induce_failure(
      "update", "TestResource",
      {.error = rr::Error::api(rr::api_errors::conflict("testresources", "testing.rrgen.dev", "n", "stale")),
       .namespace_ = "ns",
       .name = "n",
       .subresource = "status"});
  Action other_ns = action("update", "TestResource", "elsewhere", "n", "status");
  Action other_name = action("update", "TestResource", "ns", "m", "status");
  Action main_resource = action("update", "TestResource", "ns", "n", "");
  Action status = action("update", "TestResource", "ns", "n", "status");
  CHECK_FALSE(rr::testing::react({r}, other_ns).handled);
  CHECK_FALSE(rr::testing::react({r}, other_name).handled);
  CHECK_FALSE(rr::testing::react({r}, main_resource).handled);
  Reaction reaction = rr::testing::react({r}, status);
  CHECK(reaction.handled);
  CHECK(rr::is_conflict(reaction.error));
}

TEST_CASE("induce_failure without a subresource matches the status calls too (as upstream)") {
  Action status = action("update", "TestResource", "ns", "n", "status");
  CHECK(rr::testing::react({rr::testing::induce_failure("update", "TestResource")}, status).handled);
}

TEST_CASE("react: matching reactors run in order and the first that handles the call wins") {
  std::vector<std::string> ran;
  auto recording = [&ran](std::string label, Reaction reaction) {
    return [&ran, label, reaction](Action&) {
      ran.push_back(label);
      return reaction;
    };
  };
  std::vector<Reactor> reactors = {
      {"create", "*", recording("passes", Reaction::pass())},
      {"get", "*", recording("other verb", Reaction::stop())},
      {"*", "TestResource", recording("stops", Reaction::stop())},
      {"*", "*", recording("never", Reaction::fail(rr::Error::make("x")))},
  };
  Action a = action("create", "TestResource");
  Reaction reaction = rr::testing::react(reactors, a);
  CHECK(reaction.handled);
  CHECK_FALSE(reaction.error);
  CHECK(ran == std::vector<std::string>{"passes", "stops"});
}

TEST_CASE("called_at_most_times counts the calls matching its own verb and kind (Q8)") {
  Reactor r = rr::testing::called_at_most_times("list", "TestChildList", 2);
  std::vector<ActionCall> history;
  auto call = [&](std::string verb, std::string kind) {
    history.push_back({verb, kind});
    Action a = action(verb, kind);
    a.history = &history;
    return rr::testing::react({r}, a);
  };
  CHECK_FALSE(call("list", "TestChildList").handled);
  CHECK_FALSE(call("list", "ConfigMapList").handled);  // another kind: not counted, not failed
  CHECK_FALSE(call("get", "TestChild").handled);
  CHECK_FALSE(call("list", "TestChildList").handled);
  Reaction third = call("list", "TestChildList");
  CHECK(third.handled);
  CHECK(third.error.message() == "list TestChildList called 3 times, expected 2 call(s)");
}
