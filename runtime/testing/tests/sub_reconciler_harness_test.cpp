// The sub-reconciler harness checked against itself.
#include <doctest/doctest.h>

#include "strings_support.hpp"

#include <memory>

#include "harness_support.hpp"
#include "rr/core/json.hpp"
#include "rr/testing/sub_reconciler_test.hpp"

using harness::FakeSub;
using harness::TestResource;
using rr::testing::CapturedFailures;
using rr::testing::Severity;
using rr::testing::StashedValue;
using Case = rr::testing::SubReconcilerTestCase<TestResource>;
using Factory = rr::testing::SubReconcilerFactory<TestResource>;

namespace {

Factory doing(std::function<rr::Outcome(rr::Context&, TestResource&)> fn) {
  return [fn](const Case&, const rr::Config&) -> rr::SubReconciler<TestResource> { return FakeSub<>{.fn = fn}; };
}

Strings failures_of(const Case& tc, const Factory& factory) {
  CapturedFailures captured;
  rr::testing::run_case(tc, factory, captured.sink());
  return captured.messages();
}

}  // namespace

TEST_CASE("sub harness: the resource is in both stores, its resourceVersion defaults to 999") {
  std::string in_memory_rv;
  std::string client_rv;
  std::string reader_rv;
  rr::ObjectKey request;
  rr::KindInfo resource_type;
  Case tc{.resource = harness::resource()};
  CHECK(failures_of(tc, doing([&](rr::Context& ctx, TestResource& r) {
                      in_memory_rv = r.metadata.resource_version;
                      client_rv = ctx.config().api().get<TestResource>("ns", "r").metadata.resource_version;
                      reader_rv = ctx.config().reader().get<TestResource>("ns", "r").metadata.resource_version;
                      request = ctx.request();
                      resource_type = ctx.resource_type();
                      return rr::Outcome{};
                    }))
            .empty());
  CHECK(in_memory_rv == "999");
  CHECK(client_rv == "999");
  CHECK(reader_rv == "999");
  CHECK(request == rr::ObjectKey{"ns", "r"});
  CHECK(resource_type == rr::kind_info_of<TestResource>());
}

TEST_CASE("sub harness: expect_resource is the resource afterwards; unset means unchanged") {
  auto set_image = doing([](rr::Context&, TestResource& r) {
    r.status.emplace().latest_image = "b";
    return rr::Outcome{};
  });
  TestResource after = harness::resource();
  after.status.emplace().latest_image = "b";
  CHECK(failures_of({.resource = harness::resource(), .expect_resource = after}, set_image).empty());
  CHECK(failures_of({.resource = harness::resource()}, set_image) ==
        Strings{"ExpectResource differs (-expected, +actual):\n  status: -(absent) +{\"latestImage\":\"b\"}"});
}

TEST_CASE("sub harness: the expected resource's resourceVersion is compared (999 by default)") {
  auto bump = doing([](rr::Context&, TestResource& r) {
    r.metadata.resource_version = "1000";
    return rr::Outcome{};
  });
  TestResource after = harness::resource();
  after.metadata.resource_version = "1000";
  CHECK(failures_of({.resource = harness::resource(), .expect_resource = after}, bump).empty());
  CHECK(failures_of({.resource = harness::resource(), .expect_resource = harness::resource()}, bump) ==
        Strings{"ExpectResource differs (-expected, +actual):\n  metadata.resourceVersion: -\"999\" +\"1000\""});
}

TEST_CASE("sub harness: the stash is seeded and only the listed keys are checked") {
  auto stash_work = doing([](rr::Context& ctx, TestResource&) {
    const int seed = rr::Stasher<int>("seed").retrieve_or_die(ctx);
    rr::Stasher<int>("doubled").store(ctx, seed * 2);
    rr::Stasher<std::string>("noise").store(ctx, "unchecked");
    rr::Stasher<harness::TestChild>("child").store(ctx, harness::child());
    return rr::Outcome{};
  });
  Case tc{.resource = harness::resource(),
          .given_stashed_values = {{"seed", StashedValue::of(21)}},
          .expect_stashed_values = {{"doubled", StashedValue::of(42)},
                                    {"child", StashedValue::of(harness::child())},
                                    {"never", StashedValue::absent()}}};
  CHECK(failures_of(tc, stash_work).empty());

  tc.expect_stashed_values["doubled"] = StashedValue::of(41);
  CHECK(failures_of(tc, stash_work) ==
        Strings{"ExpectStashedValues[\"doubled\"] differs (-expected, +actual):\n  -41 +42"});
}

TEST_CASE("sub harness: should_panic") {
  auto dies = doing([](rr::Context& ctx, TestResource&) {
    rr::Stasher<int>("missing").retrieve_or_die(ctx);
    return rr::Outcome{};
  });
  CHECK(failures_of({.resource = harness::resource(), .should_panic = true}, dies).empty());

  CapturedFailures captured;
  rr::testing::run_case(Case{.resource = harness::resource()}, dies, captured.sink());
  REQUIRE(captured.messages().size() == 1);
  CHECK(captured.all().front().severity == Severity::Fatal);
  CHECK(captured.messages()[0] == R"(unexpected panic: stash: no value for key "missing")");

  CHECK(failures_of({.resource = harness::resource(), .should_panic = true}, doing([](rr::Context&, TestResource&) {
                      return rr::Outcome{};
                    })) == Strings{"expected Reconcile() to panic"});
}

TEST_CASE("sub harness: additional reconciles run on the same reconciler instance") {
  auto calls = std::make_shared<int>(0);
  Factory counting = [calls](const Case&, const rr::Config&) -> rr::SubReconciler<TestResource> {
    return FakeSub<>{.fn = [calls](rr::Context&, TestResource&) {
      ++*calls;
      return rr::Outcome{rr::Result{.requeue_after = std::chrono::seconds(*calls)}};
    }};
  };
  Case tc{.resource = harness::resource(),
          .expected_result = {.requeue_after = std::chrono::seconds(1)},
          .additional_reconciles = {Case{.name = "second",
                                         .resource = harness::resource(),
                                         .expected_result = {.requeue_after = std::chrono::seconds(2)}},
                                    Case{.name = "third", .resource = harness::resource()}}};
  CHECK(failures_of(tc, counting) ==
        Strings{"AdditionalReconciles[1] \"third\": ExpectedResult differs (-expected, +actual):\n"
                "  requeueAfter: -\"0s\" +\"3s\""});
  CHECK(*calls == 3);
}

TEST_CASE("sub harness: subreconciler validation is fatal") {
  Strings failures = failures_of({.resource = harness::resource()},
                                 [](const Case&, const rr::Config&) -> rr::SubReconciler<TestResource> {
                                   return FakeSub<>{.invalid = "FakeSub must define fn"};
                                 });
  REQUIRE(failures.size() == 1);
  CHECK(failures[0].rfind("subreconciler validation failed: ", 0) == 0);
}

TEST_CASE("sub harness: prepare sees the context; clean_up runs last") {
  Strings order;
  Case tc{.resource = harness::resource(),
          .prepare =
              [&](rr::Context& ctx, const Case&) {
                order.push_back("prepare");
                ctx.stash().store("from-prepare", 7);
                return rr::Error{};
              },
          .clean_up =
              [&](rr::Context&, const Case&) {
                order.push_back("clean_up");
                return rr::Error{};
              }};
  CHECK(failures_of(tc, doing([&](rr::Context& ctx, TestResource&) {
                      order.push_back(std::to_string(rr::Stasher<int>("from-prepare").retrieve_or_die(ctx)));
                      return rr::Outcome{};
                    }))
            .empty());
  CHECK(order == Strings{"prepare", "7", "clean_up"});
}

TEST_CASE(
    "sub harness: a failing case says which of the root's steps a step test does not run; a passing one says nothing") {
  const auto durable = doing([](rr::Context&, TestResource&) { return rr::Outcome{rr::err_durable()}; });
  CapturedFailures captured;
  rr::testing::run_case(Case{.resource = harness::resource()}, durable, captured.sink());
  REQUIRE_FALSE(captured.empty());
  bool explained = false;
  for (const auto& failure : captured.all()) {
    if (failure.severity == Severity::Info && failure.message.find("runs this step alone") != std::string::npos &&
        failure.message.find("should_err = true") != std::string::npos) {
      explained = true;
    }
  }
  CHECK(explained);

  CapturedFailures quiet;
  rr::testing::run_case(Case{.resource = harness::resource(), .should_err = true}, durable, quiet.sink());
  CHECK(quiet.all().empty());
}
