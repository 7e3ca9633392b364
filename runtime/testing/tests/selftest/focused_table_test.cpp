// A table with focused cases, run by ctest as its own program: the focused cases run (one of
// them fails on purpose), the others are skipped, and "<suite>/focus" fails the run (Q7).
#include "harness_support.hpp"
#include "rr/testing/registration.hpp"

RR_RECONCILER_TESTS("Focused", [](const rr::testing::ReconcilerTestCase&, const rr::Config&) {
  return rr::Reconciler(harness::FakeRoot{});
}) {
  return rr::testing::ReconcilerTestSuite{
      {.name = "focused and passing", .focus = true},
      {.name = "not focused", .should_err = true},  // would fail if it ran
      {.name = "focused and failing", .focus = true, .expect_creates = {harness::child()}},
  };
}
