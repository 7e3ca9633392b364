// FunctionChildImageReconciler on its own: what it does without the target image reconciler
// in front of it, and without anything to build.
#include <doctest/doctest.h>

#include "fixtures.hpp"
#include "function_reconciler.hpp"
#include "rr/testing/registration.hpp"

namespace {

using fnsample::Function;
using fntest::condition;
using fntest::with;

Function function_given() {
  Function f;
  f.metadata.namespace_ = "my-namespace";
  f.metadata.name = "my-function";
  f.metadata.uid = "function-uid";
  f.spec.emplace().git.emplace().url = "https://github.com/example/hello";
  return f;
}

}  // namespace

RR_SUB_RECONCILER_TESTS("FunctionChildImageReconciler", Function,
                        [](const rr::testing::SubReconcilerTestCase<Function>&, const rr::Config&) {
                          return fnsample::FunctionChildImageReconciler();
                        }) {
  const Function function = function_given();
  const Function without_git = with(function, [](Function& f) { f.spec->git.reset(); });
  return rr::testing::SubReconcilerTests<Function>{
      {"spec.git without a resolved target image: an error, no Image created",
       {
           .resource = function,
           .should_err = true,
           .verify =
               [](const rr::Result&, const rr::Error& err) {
                 CHECK(err.message() == "status.targetImage is not resolved; FunctionTargetImageReconciler runs first");
               },
       }},
      {"nothing to build and no Image: the target image is the latest image",
       {
           .resource = with(without_git, [](Function& f) { f.status.emplace().target_image = "registry.example/hello:v1"; }),
           .expect_resource = with(without_git,
                                   [](Function& f) {
                                     auto& s = f.status.emplace();
                                     s.target_image = "registry.example/hello:v1";
                                     s.latest_image = "registry.example/hello:v1";
                                     s.conditions = {condition("ImageReady", "True", "BuildNotUsed")};
                                   }),
       }},
  };
}
