#include <stdexcept>

#include <doctest/doctest.h>

#include "flow_support.hpp"
#include "rr/reconcilers/flow.hpp"

using namespace flowtest;

namespace {
bool labelled(const TestResource& r) { return r.metadata.labels.count("gate") != 0; }
}  // namespace

TEST_CASE("IfThen calls then when if_ holds, else_ otherwise") {
  std::vector<std::string> trace;
  rr::IfThen<TestResource> branch{
      .if_ = [](rr::Context&, const TestResource& r) { return labelled(r); },
      .then = traced(trace, "then", requeue()),
      .else_ = traced(trace, "else", requeue_after(1s)),
  };
  auto ctx = make_context();
  TestResource r;

  rr::Outcome out = branch.reconcile(ctx, r);
  CHECK(trace == std::vector<std::string>{"else"});
  CHECK(out.result == requeue_after(1s));

  trace.clear();
  r.metadata.labels["gate"] = "on";
  out = branch.reconcile(ctx, r);
  CHECK(trace == std::vector<std::string>{"then"});
  CHECK(out.result == requeue());
  CHECK(branch.display_name() == "IfThen");
}

TEST_CASE("IfThen without else_ returns an empty result when if_ does not hold") {
  std::vector<std::string> trace;
  rr::IfThen<TestResource> branch{
      .if_ = [](rr::Context&, TestResource&) { return false; },
      .then = traced(trace, "then", requeue()),
  };
  auto ctx = make_context();
  TestResource r;
  rr::Outcome out = branch.reconcile(ctx, r);
  CHECK(trace.empty());
  CHECK(out.result.empty());
  CHECK(out.error.ok());
}

TEST_CASE("IfThen: an if_ that throws is the error, and no branch runs") {
  std::vector<std::string> trace;
  rr::IfThen<TestResource> branch{
      .if_ = [](rr::Context&, TestResource&) -> bool { throw std::runtime_error("cannot decide"); },
      .then = traced(trace, "then"),
      .else_ = traced(trace, "else"),
  };
  auto ctx = make_context();
  TestResource r;
  CHECK(branch.reconcile(ctx, r).error.message() == "cannot decide");
  CHECK(trace.empty());
}

TEST_CASE("IfThen sets up both branches and validates its hooks") {
  Step<> then_step;
  then_step.watches = child_kind();
  Step<> else_step;
  else_step.watches = resource_kind();
  rr::IfThen<TestResource> branch{
      .if_ = [](rr::Context&, TestResource&) { return true; },
      .then = then_step,
      .else_ = else_step,
  };
  CHECK(watches_of(branch).size() == 2);

  rr::IfThen<TestResource> empty{};
  CHECK(findings(empty) ==
        std::vector<std::string>{"IfThen: IfThen must implement if_", "IfThen: IfThen must implement then"});

  else_step.invalid = "bad else";
  branch.else_ = else_step;
  CHECK(findings(branch, false).empty());
  CHECK(findings(branch, true) == std::vector<std::string>{"IfThen.Step: bad else"});
}
