#include <doctest/doctest.h>

#include "flow_support.hpp"
#include "rr/reconcilers/flow.hpp"

using namespace flowtest;

TEST_CASE("OverrideSetup calls only its own setup, never the nested reconciler's") {
  Step<> nested;
  nested.watches = child_kind();
  rr::OverrideSetup<TestResource> skip{.reconciler = nested};
  CHECK(watches_of(skip).empty());
  CHECK(skip.display_name() == "SkipSetup");

  skip.on_setup = [](rr::Setup& s) { s.watches_tracked(resource_kind()); };
  auto w = watches_of(skip);
  REQUIRE(w.size() == 1);
  CHECK(w[0].kind == resource_kind());
}

TEST_CASE("OverrideSetup delegates reconcile; an empty one returns an empty result") {
  std::vector<std::string> trace;
  rr::OverrideSetup<TestResource> skip{.reconciler = traced(trace, "nested", requeue())};
  auto ctx = make_context();
  TestResource r;
  CHECK(skip.reconcile(ctx, r).result == requeue());
  CHECK(trace.size() == 1);

  rr::OverrideSetup<TestResource> setup_only{.on_setup = [](rr::Setup&) {}};
  rr::Outcome out = setup_only.reconcile(ctx, r);
  CHECK(out.result.empty());
  CHECK(out.error.ok());
  CHECK(findings(setup_only).empty());
}

TEST_CASE("OverrideSetup validation") {
  rr::OverrideSetup<TestResource> empty{};
  CHECK(findings(empty) ==
        std::vector<std::string>{"SkipSetup: OverrideSetup must implement at least one of on_setup or reconciler"});
  Step<> invalid;
  invalid.invalid = "bad";
  rr::OverrideSetup<TestResource> skip{.reconciler = invalid};
  CHECK(findings(skip, false).empty());
  CHECK(findings(skip, true) == std::vector<std::string>{"SkipSetup.Step: bad"});
}
