#include <stdexcept>

#include <doctest/doctest.h>

#include "flow_support.hpp"
#include "rr/reconcilers/flow.hpp"
#include "rr/reconcilers/sequence.hpp"

using namespace flowtest;

namespace {
// A step recording retrieve_iteration() each time it runs.
Step<> iteration_recorder(std::vector<int>& seen, rr::Outcome outcome = {}) {
  Step<> s;
  s.fn = [&seen, outcome](rr::Context& ctx, TestResource&) {
    seen.push_back(rr::retrieve_iteration(ctx));
    return outcome;
  };
  return s;
}
}  // namespace

TEST_CASE("While calls the reconciler while the condition holds, with the iteration index stashed") {
  std::vector<int> seen;
  rr::While<TestResource> loop{
      .condition = [](rr::Context& ctx, TestResource&) { return rr::retrieve_iteration(ctx) < 3; },
      .reconciler = iteration_recorder(seen, requeue_after(7s)),
  };
  auto ctx = make_context();
  TestResource r;
  CHECK(rr::retrieve_iteration(ctx) == -1);
  rr::Outcome out = loop.reconcile(ctx, r);
  CHECK(out.error.ok());
  CHECK(seen == std::vector<int>{0, 1, 2});
  CHECK(out.result.requeue_after == 7s);
  CHECK(rr::retrieve_iteration(ctx) == -1);  // outside the loop again
  CHECK(loop.display_name() == "While");
}

TEST_CASE("While stops at max_iterations (100 by default) with a recognisable error") {
  std::vector<int> seen;
  rr::While<TestResource> loop{
      .condition = [](rr::Context&, TestResource&) { return true; },
      .reconciler = iteration_recorder(seen),
  };
  auto ctx = make_context();
  TestResource r;
  rr::Outcome out = loop.reconcile(ctx, r);
  CHECK(seen.size() == 100);
  CHECK(out.error.message() == "exceeded max iterations: 100");
  CHECK(rr::is_max_iterations(out.error));
  CHECK(rr::is_max_iterations(out.error.wrap("while reconciling")));
  CHECK(rr::is_max_iterations(rr::Error::join({rr::Error::make("other"), out.error})));
  CHECK_FALSE(rr::is_max_iterations(rr::Error::make("exceeded max iterations: 100")));  // same text, not the error
  CHECK_FALSE(rr::is_max_iterations(rr::Error{}));

  seen.clear();
  loop.max_iterations = 3;
  out = loop.reconcile(ctx, r);
  CHECK(seen.size() == 3);
  CHECK(out.error.message() == "exceeded max iterations: 3");
  CHECK(rr::is_max_iterations(out.error));
}

TEST_CASE("While with max_iterations 0 has no limit") {
  std::vector<int> seen;
  rr::While<TestResource> loop{
      .condition = [](rr::Context& ctx, TestResource&) { return rr::retrieve_iteration(ctx) < 150; },
      .reconciler = iteration_recorder(seen),
      .max_iterations = 0,
  };
  auto ctx = make_context();
  TestResource r;
  rr::Outcome out = loop.reconcile(ctx, r);
  CHECK(out.error.ok());
  CHECK(seen.size() == 150);
}

TEST_CASE("While: the first error stops the loop; results are aggregated up to it") {
  int calls = 0;
  Step<> step;
  step.fn = [&](rr::Context& ctx, TestResource&) {
    ++calls;
    if (rr::retrieve_iteration(ctx) == 1) return rr::Outcome{requeue_after(3s), rr::Error::make("second failed")};
    return rr::Outcome{requeue()};
  };
  rr::While<TestResource> loop{
      .condition = [](rr::Context&, TestResource&) { return true; },
      .reconciler = step,
  };
  auto ctx = make_context();
  TestResource r;
  rr::Outcome out = loop.reconcile(ctx, r);
  CHECK(calls == 2);
  CHECK(out.error.message() == "second failed");
  CHECK(out.result.requeue);
  CHECK(out.result.requeue_after == 3s);
}

TEST_CASE("Nested While loops: the inner index inside, the outer index back after the inner loop") {
  std::vector<int> inner_seen;
  std::vector<int> outer_seen;
  rr::While<TestResource> inner{
      .name = "Inner",
      .condition = [](rr::Context& ctx, TestResource&) { return rr::retrieve_iteration(ctx) < 2; },
      .reconciler = iteration_recorder(inner_seen),
  };
  rr::While<TestResource> outer{
      .name = "Outer",
      .condition = [](rr::Context& ctx, TestResource&) { return rr::retrieve_iteration(ctx) < 3; },
      .reconciler = rr::Sequence<TestResource>{inner, iteration_recorder(outer_seen)},
  };
  auto ctx = make_context();
  TestResource r;
  CHECK(outer.reconcile(ctx, r).error.ok());
  CHECK(inner_seen == std::vector<int>{0, 1, 0, 1, 0, 1});
  CHECK(outer_seen == std::vector<int>{0, 1, 2});
  CHECK(rr::retrieve_iteration(ctx) == -1);
}

TEST_CASE("While: a condition that throws is the error") {
  std::vector<int> seen;
  rr::While<TestResource> loop{
      .condition = [](rr::Context&, TestResource&) -> bool { throw std::runtime_error("no condition"); },
      .reconciler = iteration_recorder(seen),
  };
  auto ctx = make_context();
  TestResource r;
  CHECK(loop.reconcile(ctx, r).error.message() == "no condition");
  CHECK(seen.empty());
  CHECK(rr::retrieve_iteration(ctx) == -1);
}

TEST_CASE("While validation and setup") {
  rr::While<TestResource> empty{};
  empty.max_iterations = -1;
  CHECK(findings(empty) == std::vector<std::string>{"While: While must implement condition",
                                                    "While: While must implement reconciler",
                                                    "While: While max_iterations must not be negative (0 means no limit)"});
  Step<> watching;
  watching.watches = child_kind();
  rr::While<TestResource> loop{.condition = [](rr::Context&, TestResource&) { return false; }, .reconciler = watching};
  CHECK(watches_of(loop).size() == 1);
}
