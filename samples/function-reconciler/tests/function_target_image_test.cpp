// FunctionTargetImageReconciler on its own (reconciler.io's SubReconcilerTestSuite): where the
// target image comes from, and the ConfigMap it tracks when spec.image is empty.
#include <doctest/doctest.h>

#include <string>

#include "fixtures.hpp"
#include "function_reconciler.hpp"
#include "rr/testing/registration.hpp"

namespace {

using fnsample::Function;
using fntest::condition;
using fntest::config_map;
using fntest::with;

constexpr const char* test_namespace = "my-namespace";

Function function_without_image() {
  Function f;
  f.metadata.namespace_ = test_namespace;
  f.metadata.name = "my-function";
  f.metadata.generation = 1;
  f.spec.emplace().git.emplace().url = "https://github.com/example/hello";
  return f;
}

Function resolved(Function f, std::string target) {
  auto& status = f.status.emplace();
  status.target_image = std::move(target);
  // Ready is not touched: ImageReady, the other dependent, has not been reported.
  status.conditions = {condition("ImageResolved", "True", "Resolved")};
  return f;
}

Function unresolved(Function f, const std::string& message) {
  f.status.emplace().conditions = {
      condition("ImageResolved", "False", "DefaultImagePrefixMissing", message),
      condition("Ready", "False", "DefaultImagePrefixMissing", message),
  };
  return f;
}

}  // namespace

RR_SUB_RECONCILER_TESTS("FunctionTargetImageReconciler", Function,
                        [](const rr::testing::SubReconcilerTestCase<Function>&, const rr::Config&) {
                          return fnsample::FunctionTargetImageReconciler();
                        }) {
  const Function function = function_without_image();
  const Function with_image = with(function, [](Function& f) { f.spec->image = "registry.example/hello:v1"; });
  const auto build_config = config_map(test_namespace, "function-build", {{"defaultImagePrefix", "registry.example/team"}});
  const auto track_build_config =
      rr::testing::create_track_request("", "ConfigMap", test_namespace, "function-build").by(test_namespace, "my-function");

  return rr::testing::SubReconcilerTests<Function>{
      {"spec.image is the target image and no ConfigMap is read or tracked",
       {
           .resource = with_image,
           .given_objects = {build_config},
           .expect_resource = resolved(with_image, "registry.example/hello:v1"),
       }},
      {"no spec.image: <defaultImagePrefix>/<name> from the namespace's function-build ConfigMap",
       {
           .resource = function,
           .given_objects = {build_config},
           .expect_resource = resolved(function, "registry.example/team/my-function"),
           .expect_tracks = {track_build_config},
       }},
      {"no spec.image and no ConfigMap: tracked anyway (its creation re-drives), ImageResolved=False, error",
       {
           .resource = function,
           .expect_resource = unresolved(function, R"(spec.image is empty and ConfigMap "function-build" does not exist)"),
           .expect_tracks = {track_build_config},
           .should_err = true,
       }},
      {"no spec.image and a ConfigMap without defaultImagePrefix: ImageResolved=False, error",
       {
           .resource = function,
           .given_objects = {config_map(test_namespace, "function-build", {{"other", "value"}})},
           .expect_resource =
               unresolved(function, R"(spec.image is empty and ConfigMap "function-build" has no defaultImagePrefix)"),
           .expect_tracks = {track_build_config},
           .should_err = true,
       }},
      {"reading the ConfigMap fails: the error is returned, nothing is marked",
       {
           .resource = function,
           .given_objects = {build_config},
           .with_reactors = {rr::testing::induce_failure("get", "ConfigMap")},
           .expect_tracks = {track_build_config},
           .should_err = true,
       }},
  };
}
