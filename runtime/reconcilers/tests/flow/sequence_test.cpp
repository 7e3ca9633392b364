#include "rr/reconcilers/sequence.hpp"

#include <doctest/doctest.h>

#include "flow_support.hpp"

using namespace flowtest;

TEST_CASE("Sequence calls every step in order and aggregates their results") {
  std::vector<std::string> trace;
  rr::Sequence<TestResource> seq{traced(trace, "a", requeue_after(10s)), traced(trace, "b", requeue()),
                                 traced(trace, "c", requeue_after(5s))};
  auto ctx = make_context();
  TestResource r;
  rr::Outcome out = seq.reconcile(ctx, r);
  CHECK(trace == std::vector<std::string>{"a", "b", "c"});
  CHECK(out.error.ok());
  CHECK(out.result.requeue);
  CHECK(out.result.requeue_after == 5s);
  CHECK(seq.display_name() == "Sequence");
}

TEST_CASE("Sequence stops at the first error") {
  std::vector<std::string> trace;
  rr::Error boom = rr::Error::make("boom");
  rr::Sequence<TestResource> seq{traced(trace, "a"), traced(trace, "b", boom), traced(trace, "c")};
  auto ctx = make_context();
  TestResource r;
  rr::Outcome out = seq.reconcile(ctx, r);
  CHECK(trace == std::vector<std::string>{"a", "b"});
  CHECK(out.error.same(boom));
}

TEST_CASE("Q1: on error Sequence returns the results aggregated so far, not the failing step's alone") {
  std::vector<std::string> trace;
  rr::Sequence<TestResource> seq{traced(trace, "a", requeue()),
                                 traced(trace, "b", rr::Outcome{requeue_after(10s), rr::Error::make("boom")})};
  auto ctx = make_context();
  TestResource r;
  rr::Outcome out = seq.reconcile(ctx, r);
  CHECK(out.error);
  CHECK(out.result.requeue);  // from "a": reconciler.io would drop it
  CHECK(out.result.requeue_after == 10s);
}

TEST_CASE("Sequence names each step's logger by its index") {
  LogCapture logs;
  auto log_line = [](rr::Context& ctx, TestResource&) {
    ctx.log().info("step");
    return rr::Outcome{};
  };
  Step<> step;
  step.fn = log_line;
  auto ctx = make_context({}, logs.logger());
  TestResource r;

  rr::Sequence<TestResource>{step, step}.reconcile(ctx, r);
  CHECK(*logs.names == std::vector<std::string>{"0", "1"});

  logs.names->clear();
  rr::Sequence<TestResource> named{"Children", {step}};
  named.reconcile(ctx, r);
  CHECK(*logs.names == std::vector<std::string>{"Children.0"});
  CHECK(named.display_name() == "Children");
  CHECK(ctx.log().name().empty());  // the scope is gone once the sequence returns
}

TEST_CASE("Sequence sets up every step and validates them only when recursive") {
  Step<> watching;
  watching.watches = child_kind();
  Step<> invalid;
  invalid.name = "Broken";
  invalid.invalid = "Broken must implement fn";
  rr::Sequence<TestResource> seq{watching, invalid};

  auto w = watches_of(seq);
  REQUIRE(w.size() == 1);
  CHECK(w[0].kind == child_kind());

  CHECK(findings(seq, false).empty());
  CHECK(findings(seq, true) == std::vector<std::string>{"Sequence.Broken: Broken must implement fn"});
}
