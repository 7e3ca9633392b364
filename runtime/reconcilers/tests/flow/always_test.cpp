#include "rr/reconcilers/always.hpp"

#include <doctest/doctest.h>

#include "flow_support.hpp"

using namespace flowtest;

TEST_CASE("Always calls every step whatever the errors, and aggregates the results") {
  std::vector<std::string> trace;
  rr::Error first = rr::Error::make("first");
  rr::Error second = rr::Error::make("second");
  rr::Always<TestResource> always{traced(trace, "a", rr::Outcome{requeue_after(10s), first}),
                                  traced(trace, "b", requeue()),
                                  traced(trace, "c", rr::Outcome{requeue_after(3s), second})};
  auto ctx = make_context();
  TestResource r;
  rr::Outcome out = always.reconcile(ctx, r);
  CHECK(trace == std::vector<std::string>{"a", "b", "c"});
  CHECK(out.result.requeue);
  CHECK(out.result.requeue_after == 3s);
  CHECK(out.error.is(first));
  CHECK(out.error.is(second));
  CHECK(out.error.message() == "first\nsecond");
  CHECK(always.display_name() == "Always");
}

TEST_CASE("Always: the outcome is quiet only when every error was quiet") {
  std::vector<std::string> trace;
  rr::Error quiet_a = rr::err_quiet().wrap("a");
  rr::Error quiet_b = rr::err_quiet().wrap("b");
  rr::Error loud = rr::Error::make("loud");
  auto ctx = make_context();
  TestResource r;

  SUBCASE("all quiet: joined, still quiet") {
    rr::Always<TestResource> always{traced(trace, "a", quiet_a), traced(trace, "b", quiet_b)};
    rr::Outcome out = always.reconcile(ctx, r);
    CHECK(out.error.is(rr::err_quiet()));
    CHECK(out.error.is(quiet_a));
    CHECK(out.error.is(quiet_b));
  }
  SUBCASE("one loud: only the loud errors come back") {
    rr::Always<TestResource> always{traced(trace, "a", quiet_a), traced(trace, "b", loud),
                                    traced(trace, "c", quiet_b)};
    rr::Outcome out = always.reconcile(ctx, r);
    CHECK(out.error.same(loud));
    CHECK_FALSE(out.error.is(rr::err_quiet()));
  }
}

TEST_CASE("Always with no errors returns none") {
  std::vector<std::string> trace;
  rr::Always<TestResource> always{"Cleanup", {traced(trace, "a"), traced(trace, "b")}};
  auto ctx = make_context();
  TestResource r;
  CHECK(always.reconcile(ctx, r).error.ok());
  CHECK(always.display_name() == "Cleanup");
}

TEST_CASE("Always sets up every step and validates them only when recursive") {
  Step<> watching;
  watching.watches = child_kind();
  Step<> invalid;
  invalid.invalid = "bad";
  rr::Always<TestResource> always{watching, invalid};
  CHECK(watches_of(always).size() == 1);
  CHECK(findings(always, false).empty());
  CHECK(findings(always, true) == std::vector<std::string>{"Always.Step: bad"});
}
