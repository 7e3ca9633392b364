// The stash example: ProcessorSyncImage stashes what it read, ProcessorApplyImage consumes it,
// each tested on its own with the stash as input or output; then both together.
#include <doctest/doctest.h>

#include <string>

#include "fixtures.hpp"
#include "processor_reconciler.hpp"
#include "rr/testing/registration.hpp"

namespace {

using fnsample::Processor;
using fntest::condition;
using fntest::config_map;
using fntest::with;
using rr::testing::StashedValue;

constexpr const char* test_namespace = "my-namespace";
constexpr const char* system_namespace = "my-system";

Processor processor_given() {
  Processor p;
  p.metadata.namespace_ = test_namespace;
  p.metadata.name = "my-processor";
  p.metadata.generation = 1;
  return p;
}

Processor with_image(Processor p, std::string image) {
  auto& s = p.status.emplace();
  s.image = std::move(image);
  s.conditions = {condition("Ready", "True", "Ready")};
  return p;
}

std::string stash_key() { return fnsample::processor_image_stash().key(); }

}  // namespace

RR_SUB_RECONCILER_TESTS("ProcessorSyncImage", Processor,
                        [](const rr::testing::SubReconcilerTestCase<Processor>&, const rr::Config&) {
                          return fnsample::ProcessorSyncImage(system_namespace);
                        }) {
  const Processor processor = processor_given();
  const auto images = config_map(system_namespace, "processor", {{"processorImage", "registry.example/processor:1"}});
  const auto track_images =
      rr::testing::create_track_request("", "ConfigMap", system_namespace, "processor").by(test_namespace, "my-processor");

  return rr::testing::SubReconcilerTests<Processor>{
      {"missing images configmap",
       {
           .resource = processor,
           .expect_stashed_values = {{stash_key(), StashedValue::absent()}},
           .expect_tracks = {track_images},
           .should_err = true,
       }},
      {"stash processor image",
       {
           .resource = processor,
           .given_objects = {images},
           .expect_stashed_values = {{stash_key(), StashedValue::of("registry.example/processor:1")}},
           .expect_tracks = {rr::testing::new_track_request(images, processor)},
       }},
      {"images configmap without processorImage: nothing stashed, error",
       {
           .resource = processor,
           .given_objects = {config_map(system_namespace, "processor", {})},
           .expect_stashed_values = {{stash_key(), StashedValue::absent()}},
           .expect_tracks = {track_images},
           .should_err = true,
       }},
  };
}

RR_SUB_RECONCILER_TESTS("ProcessorApplyImage", Processor,
                        [](const rr::testing::SubReconcilerTestCase<Processor>&, const rr::Config&) {
                          return fnsample::ProcessorApplyImage();
                        }) {
  const Processor processor = processor_given();
  return rr::testing::SubReconcilerTests<Processor>{
      {"the stashed image becomes status.image",
       {
           .resource = processor,
           .given_stashed_values = {{stash_key(), StashedValue::of("registry.example/processor:1")}},
           .expect_resource = with_image(processor, "registry.example/processor:1"),
       }},
      // retrieve_or_die throws on an empty stash. In Go that panic escapes the SyncReconciler (a
      // SubReconcilerTestCase would say ShouldPanic); SyncReconciler here runs its hooks through
      // rr::call_hook, which turns the exception into the reconciler's error.
      {"nothing stashed: retrieve_or_die's StashError is the reconciler's error",
       {
           .resource = processor,
           .should_err = true,
           .verify =
               [](const rr::Result&, const rr::Error& err) {
                 CHECK(err.message() == R"(stash: no value for key "fnsample:processor-image")");
               },
       }},
  };
}

RR_RECONCILER_TESTS("ProcessorReconciler", [](const rr::testing::ReconcilerTestCase&, const rr::Config& config) {
  return fnsample::ProcessorReconciler(config, system_namespace);
}) {
  const Processor processor = processor_given();
  const auto images = config_map(system_namespace, "processor", {{"processorImage", "registry.example/processor:1"}});
  return rr::testing::ReconcilerTests{
      {"the image goes from the ConfigMap through the stash to the status",
       {
           .request = {test_namespace, "my-processor"},
           .given_objects = {processor, images},
           .expect_tracks = {rr::testing::new_track_request(images, processor)},
           .expect_events = {rr::testing::new_event(processor, rr::event_normal, "StatusUpdated", "Updated status")},
           .expect_status_updates = {with(with_image(processor, "registry.example/processor:1"),
                                          [](Processor& p) { p.status->observed_generation = 1; })},
       }},
  };
}
