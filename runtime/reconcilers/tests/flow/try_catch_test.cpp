#include <doctest/doctest.h>

#include "flow_support.hpp"
#include "rr/reconcilers/flow.hpp"

using namespace flowtest;

TEST_CASE("TryCatch: catch_ sees try_'s outcome and may suppress the error") {
  std::vector<std::string> trace;
  rr::Error failed = rr::Error::make("try failed");
  rr::Error seen;
  rr::TryCatch<TestResource> tc{
      .try_ = traced(trace, "try", rr::Outcome{requeue_after(2s), failed}),
      .catch_ =
          [&](rr::Context&, TestResource&, rr::Result result, rr::Error err) {
            seen = err;
            return rr::Outcome{result};
          },
  };
  auto ctx = make_context();
  TestResource r;
  rr::Outcome out = tc.reconcile(ctx, r);
  CHECK(seen.same(failed));
  CHECK(out.error.ok());
  CHECK(out.result == requeue_after(2s));
  CHECK(tc.display_name() == "TryCatch");
}

TEST_CASE("TryCatch: without catch_ the error stands; finally runs anyway and its result is aggregated") {
  std::vector<std::string> trace;
  rr::Error failed = rr::Error::make("try failed");
  rr::TryCatch<TestResource> tc{
      .try_ = traced(trace, "try", rr::Outcome{requeue_after(8s), failed}),
      .finally = traced(trace, "finally", rr::Outcome{requeue()}),
  };
  auto ctx = make_context();
  TestResource r;
  rr::Outcome out = tc.reconcile(ctx, r);
  CHECK(trace == std::vector<std::string>{"try", "finally"});
  CHECK(out.error.same(failed));
  CHECK(out.result.requeue);
  CHECK(out.result.requeue_after == 8s);
}

TEST_CASE("TryCatch: an error from finally replaces the earlier error") {
  std::vector<std::string> trace;
  rr::Error failed = rr::Error::make("try failed");
  rr::Error cleanup = rr::Error::make("cleanup failed");
  rr::TryCatch<TestResource> tc{
      .try_ = traced(trace, "try", failed),
      .catch_ = [](rr::Context&, TestResource&, rr::Result result, rr::Error err) { return rr::Outcome{result, err}; },
      .finally = traced(trace, "finally", rr::Outcome{requeue(), cleanup}),
  };
  auto ctx = make_context();
  TestResource r;
  rr::Outcome out = tc.reconcile(ctx, r);
  CHECK(out.error.same(cleanup));
  CHECK_FALSE(out.error.is(failed));
  CHECK(out.result.requeue);
}

TEST_CASE("TryCatch: finally's error stands even after a success") {
  std::vector<std::string> trace;
  rr::Error cleanup = rr::Error::make("cleanup failed");
  rr::TryCatch<TestResource> tc{
      .try_ = traced(trace, "try", requeue_after(1s)),
      .finally = traced(trace, "finally", cleanup),
  };
  auto ctx = make_context();
  TestResource r;
  rr::Outcome out = tc.reconcile(ctx, r);
  CHECK(out.error.same(cleanup));
  CHECK(out.result == requeue_after(1s));
}

TEST_CASE("TryCatch validation and setup") {
  rr::TryCatch<TestResource> empty{};
  CHECK(findings(empty) == std::vector<std::string>{"TryCatch: TryCatch must implement try_"});
  Step<> watching;
  watching.watches = child_kind();
  Step<> finally_watching;
  finally_watching.watches = resource_kind();
  rr::TryCatch<TestResource> tc{.try_ = watching, .finally = finally_watching};
  CHECK(watches_of(tc).size() == 2);
}
