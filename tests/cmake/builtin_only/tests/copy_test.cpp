// Step Copy of the Mirror reconciler (sync), on its own.
// A table of cases, each stating the world before, the ConfigMap handed in and
// everything the step should do (nothing else may happen). This file is yours:
// `rrgen generate --scaffold` wrote it once and never overwrites it.
// docs/testing-reconcilers.md describes every field of a case.
#include <doctest/doctest.h>

#include "mirror_hooks.hpp"
#include "rr/testing/registration.hpp"

namespace {

using mirror::ConfigMap;
using Case = rr::testing::SubReconcilerTestCase<ConfigMap>;

// The ConfigMap the cases start from.
ConfigMap given_config_map() {
  ConfigMap config_map;
  config_map.metadata.namespace_ = "test-namespace";
  config_map.metadata.name = "test-mirror";
  return config_map;
}

// The step under test, as the wiring builds it, with default hooks. To test
// with fakes in the hooks, pass std::make_shared<const mirror::MirrorHooks>(...).
rr::SubReconciler<ConfigMap> step(const Case&, const rr::Config&) {
  return mirror::MirrorCopyReconciler();
}

}  // namespace

RR_SUB_RECONCILER_TESTS("MirrorCopyReconciler", ConfigMap, step) {
  const ConfigMap config_map = given_config_map();
  return rr::testing::SubReconcilerTests<ConfigMap>{
      {"as scaffolded, the step leaves the ConfigMap as it is", {.resource = config_map}},
      // TODO(you): a case per thing the step does, for example:
      // {"records what it found in the status", {
      //     .resource = config_map,
      //     .given_objects = {/* what the hook reads */},
      //     .expect_resource = /* config_map with the status it should have */,
      // }},
  };
}
