// Tables registered as doctest test cases, one per case. The cases below run as part of this
// binary (and as their own ctest tests); the last test case checks what was registered.
#include "rr/testing/registration.hpp"

#include <algorithm>

#include "harness_support.hpp"

namespace {

// Creates the child of the resource it is asked to reconcile.
rr::Reconciler child_creator(const rr::Config& config) {
  return harness::FakeRoot{.fn = [config](const rr::Request&, const rr::RequestOptions&) {
    config.api().create(harness::child());
    return rr::Outcome{};
  }};
}

}  // namespace

RR_RECONCILER_TESTS("RegisteredRoot",
                    [](const rr::testing::ReconcilerTestCase&, const rr::Config& c) { return child_creator(c); }) {
  return rr::testing::ReconcilerTests{
      {"creates the child", {.request = {"ns", "r"}, .expect_creates = {harness::child()}}},
      {"skipped", {.skip = true, .should_err = true}},
  };
}

RR_SUB_RECONCILER_TESTS("RegisteredSub", harness::TestResource,
                        [](const rr::testing::SubReconcilerTestCase<harness::TestResource>&, const rr::Config&) {
                          return rr::SubReconciler<harness::TestResource>(
                              harness::FakeSub<>{.fn = [](rr::Context&, harness::TestResource& r) {
                                r.status.emplace().latest_image = r.spec->image.value_or("");
                                return rr::Outcome{};
                              }});
                        }) {
  harness::TestResource after = harness::resource("img");
  after.status.emplace().latest_image = "img";
  return rr::testing::SubReconcilerTestSuite<harness::TestResource>{
      {.name = "reflects the image", .resource = harness::resource("img"), .expect_resource = after},
      {.name = "reflects the image", .resource = harness::resource("img"), .expect_resource = after},
  };
}

TEST_CASE("registration: each table case is its own doctest test case named <suite>/<case>") {
  const std::vector<std::string> names = rr::testing::detail::registered_case_names();
  auto registered = [&](const std::string& name) { return std::find(names.begin(), names.end(), name) != names.end(); };
  CHECK(registered("RegisteredRoot/creates the child"));
  CHECK(registered("RegisteredRoot/skipped"));
  CHECK(registered("RegisteredSub/reflects the image"));
  CHECK(registered("RegisteredSub/reflects the image#01"));  // a repeated name, as Go's t.Run names it
  CHECK_FALSE(registered("RegisteredRoot/focus"));
}
