// Tables whose failing cases must point at their own rows, run by ctest as a program of its own
// whose output is checked (runtime/testing/CMakeLists.txt names the lines below: keep them).
#include "harness_support.hpp"
#include "rr/testing/registration.hpp"

RR_RECONCILER_TESTS("RowsByName", [](const rr::testing::ReconcilerTestCase&, const rr::Config&) {
  return rr::Reconciler(harness::FakeRoot{});
}) {
  return rr::testing::ReconcilerTests{
      {"passes", {}},
      {"fails on its row", {.expect_creates = {harness::child()}}},  // line 11
  };
}

RR_RECONCILER_TESTS("RowsInOrder", [](const rr::testing::ReconcilerTestCase&, const rr::Config&) {
  return rr::Reconciler(harness::FakeRoot{});
}) {
  return rr::testing::ReconcilerTestSuite{
      {.name = "twice"},
      {.name = "twice", .should_err = true},  // line 20: the second "twice" fails
  };
}
