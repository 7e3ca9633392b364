// The Watcher reconciler over the Conditions duck: its steps in order, on one kind.
// A table of cases, each stating the world before, the request and everything the
// reconciler should do (nothing else may happen). A duck's status is written as a
// merge patch: expect it in .expect_status_patches, byte for byte. This file is
// yours: `rrgen generate --scaffold` wrote it once and never overwrites it.
// docs/testing-reconcilers.md describes every field of a case;
// docs/runtime/30-unstructured-and-duck-types.md the duck's patches.
#include <doctest/doctest.h>

#include "watcher_hooks.hpp"
#include "rr/testing/registration.hpp"

namespace {

// The kind the cases reconcile: the spec's first (apps/v1/Deployment).
rr::KindInfo kind() {
  const auto& k = watcher::WatcherWatches::resources.front();
  rr::KindInfo info;
  info.gvk = {std::string(k.group), std::string(k.version), std::string(k.kind)};
  info.plural = std::string(k.plural);
  info.scope = rr::Scope::Namespaced;
  info.has_status = true;
  return info;
}

}  // namespace

RR_RECONCILER_TESTS("WatcherReconciler", [](const rr::testing::ReconcilerTestCase&, const rr::Config& config) {
  return watcher::WatcherReconciler(config, kind());
}) {
  const rr::Request request{"test-namespace", "test-watcher"};
  return rr::testing::ReconcilerTests{
      {"as scaffolded, an object that does not exist is left alone", {.request = request}},
      // TODO(you): a case per thing the reconciler does, for example:
      // {"reports its conditions", {
      //     .request = request,
      //     .given_objects = {/* a Deployment (its type, or JSON through rr::testing::AnyObject) */},
      //     .expect_events = {/* StatusPatched "Patched status" on it */},
      //     .expect_status_patches = {{.group = "apps", .kind = "Deployment", .namespace_ = "test-namespace", .name = "test-watcher",
      //                                .subresource = "status", .patch = R"({"status":{...}})"}},
      // }},
  };
}
