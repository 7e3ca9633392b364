#include "rr/reconcilers/advice.hpp"

#include <stdexcept>

#include <doctest/doctest.h>

#include "flow_support.hpp"

using namespace flowtest;

TEST_CASE("Advice runs before, around and after in order; after sees the aggregated outcome") {
  std::vector<std::string> trace;
  rr::Error nested_error = rr::Error::make("nested");
  rr::Result seen_result;
  rr::Error seen_error;
  rr::Advice<TestResource> advice{
      .reconciler = traced(trace, "nested", rr::Outcome{requeue_after(10s), nested_error}),
      .before =
          [&](rr::Context&, TestResource&) {
            trace.push_back("before");
            return rr::Outcome{requeue()};
          },
      .around =
          [&](rr::Context& ctx, TestResource& r, const rr::SubReconciler<TestResource>& nested) {
            trace.push_back("around");
            return nested.reconcile(ctx, r);
          },
      .after =
          [&](rr::Context&, TestResource&, rr::Result result, rr::Error err) {
            trace.push_back("after");
            seen_result = result;
            seen_error = err;
            return rr::Outcome{requeue_after(1s)};  // after may replace everything
          },
  };
  auto ctx = make_context();
  TestResource r;
  rr::Outcome out = advice.reconcile(ctx, r);
  CHECK(trace == std::vector<std::string>{"before", "around", "nested", "after"});
  CHECK(seen_result.requeue);  // before's result aggregated with around's
  CHECK(seen_result.requeue_after == 10s);
  CHECK(seen_error.same(nested_error));
  CHECK(out.error.ok());
  CHECK(out.result == requeue_after(1s));
  CHECK(advice.display_name() == "Advice");
}

TEST_CASE("Advice: an error from before returns at once") {
  std::vector<std::string> trace;
  rr::Error stop = rr::Error::make("stop");
  rr::Advice<TestResource> advice{
      .reconciler = traced(trace, "nested"),
      .before = [&](rr::Context&, TestResource&) { return rr::Outcome{requeue(), stop}; },
      .after =
          [&](rr::Context&, TestResource&, rr::Result result, rr::Error err) {
            trace.push_back("after");
            return rr::Outcome{result, err};
          },
  };
  auto ctx = make_context();
  TestResource r;
  rr::Outcome out = advice.reconcile(ctx, r);
  CHECK(trace.empty());
  CHECK(out.error.same(stop));
  CHECK(out.result.requeue);
}

TEST_CASE("Advice: before prepares the request for the nested reconciler through the context") {
  rr::Stasher<std::string> note("test:note");
  std::string seen;
  Step<> nested;
  nested.fn = [&](rr::Context& ctx, TestResource&) {
    seen = note.retrieve_or_empty(ctx);
    return rr::Outcome{};
  };
  rr::Advice<TestResource> advice{
      .reconciler = nested,
      .before =
          [&](rr::Context& ctx, TestResource&) {
            note.store(ctx, "from before");
            return rr::Outcome{};
          },
  };
  auto ctx = make_context();
  TestResource r;
  CHECK(advice.reconcile(ctx, r).error.ok());
  CHECK(seen == "from before");
}

TEST_CASE("Advice: without around the nested reconciler runs once; around may run it twice") {
  std::vector<std::string> trace;
  auto ctx = make_context();
  TestResource r;

  rr::Advice<TestResource> once{
      .reconciler = traced(trace, "nested"),
      .after = [](rr::Context&, TestResource&, rr::Result result, rr::Error err) { return rr::Outcome{result, err}; },
  };
  CHECK(once.reconcile(ctx, r).error.ok());
  CHECK(trace.size() == 1);

  trace.clear();
  rr::Advice<TestResource> twice{
      .reconciler = traced(trace, "nested", requeue_after(5s)),
      .around =
          [](rr::Context& c, TestResource& res, const rr::SubReconciler<TestResource>& nested) {
            rr::Result result;
            for (int i = 0; i < 2; ++i) {
              rr::Outcome o = nested.reconcile(c, res);
              result = rr::aggregate_results(result, o.result);
              if (o.error) return rr::Outcome{result, o.error};
            }
            return rr::Outcome{result};
          },
  };
  rr::Outcome out = twice.reconcile(ctx, r);
  CHECK(trace.size() == 2);
  CHECK(out.result.requeue_after == 5s);
}

TEST_CASE("Advice: a hook that throws becomes the error") {
  std::vector<std::string> trace;
  rr::Advice<TestResource> advice{
      .reconciler = traced(trace, "nested"),
      .around = [](rr::Context&, TestResource&, const rr::SubReconciler<TestResource>&) -> rr::Outcome {
        throw std::runtime_error("around failed");
      },
  };
  auto ctx = make_context();
  TestResource r;
  rr::Outcome out = advice.reconcile(ctx, r);
  CHECK(out.error.message() == "around failed");
}

TEST_CASE("Q2: Advice sets up the nested reconciler even without on_setup") {
  Step<> nested;
  nested.watches = child_kind();
  rr::Advice<TestResource> advice{
      .reconciler = nested,
      .after = [](rr::Context&, TestResource&, rr::Result result, rr::Error err) { return rr::Outcome{result, err}; },
  };
  auto w = watches_of(advice);
  REQUIRE(w.size() == 1);
  CHECK(w[0].kind == child_kind());

  bool own_setup = false;
  advice.on_setup = [&](rr::Setup&) { own_setup = true; };
  CHECK(watches_of(advice).size() == 1);
  CHECK(own_setup);
}

TEST_CASE("Advice validation names the missing hooks") {
  rr::Advice<TestResource> empty{};
  CHECK(findings(empty) == std::vector<std::string>{"Advice: Advice must implement reconciler",
                                                    "Advice: Advice must implement at least one of before, around or after"});

  Step<> invalid;
  invalid.invalid = "bad";
  rr::Advice<TestResource> nested_invalid{
      .reconciler = invalid,
      .before = [](rr::Context&, TestResource&) { return rr::Outcome{}; },
  };
  CHECK(findings(nested_invalid, false).empty());
  CHECK(findings(nested_invalid, true) == std::vector<std::string>{"Advice.Step: bad"});
}
