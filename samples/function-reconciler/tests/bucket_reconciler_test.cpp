// BucketReconciler: the finalizer-guarded external resource. Each case gets its own fake object
// store (through the case's metadata) and checks, in `verify`, what the store was asked to do.
#include <doctest/doctest.h>

#include <any>
#include <chrono>
#include <map>
#include <memory>
#include <string>

#include "bucket_reconciler.hpp"
#include "fake_bucket_store.hpp"
#include "fixtures.hpp"
#include "rr/testing/registration.hpp"

namespace {

using fnsample::Bucket;
using fntest::condition;
using fntest::FakeBucketStore;
using fntest::with;
using rr::testing::induce_failure;
using rr::testing::new_event;
using rr::testing::PatchRef;

constexpr const char* test_namespace = "my-namespace";
const std::string finalizer(fnsample::bucket_finalizer);

std::shared_ptr<FakeBucketStore> store_of(const std::map<std::string, std::any>& metadata) {
  return std::any_cast<std::shared_ptr<FakeBucketStore>>(metadata.at("store"));
}

Bucket bucket_given() {
  Bucket b;
  b.metadata.namespace_ = test_namespace;
  b.metadata.name = "my-bucket";
  b.metadata.generation = 1;
  b.spec.emplace().bucket_name = "photos";
  return b;
}

Bucket provisioned(Bucket b) {
  b.metadata.finalizers = {finalizer};
  auto& s = b.status.emplace();
  s.observed_generation = 1;
  s.ready = true;
  s.conditions = {condition("BucketReady", "True", "Provisioned"), condition("Ready", "True", "Ready")};
  return b;
}

Bucket terminating(Bucket b) {
  b.metadata.deletion_timestamp = rr::Time::from(std::chrono::system_clock::time_point{} + std::chrono::hours(1));
  return b;
}

// The finalizer merge patches, locked on the given resourceVersion "999" (exact bytes).
PatchRef finalizer_patch(const char* body) {
  return PatchRef{.group = "storage.example.rrgen.dev",
                  .kind = "Bucket",
                  .namespace_ = test_namespace,
                  .name = "my-bucket",
                  .patch_type = rr::PatchType::Merge,
                  .patch = body};
}
const PatchRef add_finalizer_patch =
    finalizer_patch(R"({"metadata":{"finalizers":["storage.example.rrgen.dev/bucket"],"resourceVersion":"999"}})");
const PatchRef clear_finalizer_patch = finalizer_patch(R"({"metadata":{"finalizers":null,"resourceVersion":"999"}})");

}  // namespace

RR_RECONCILER_TESTS("BucketReconciler", [](const rr::testing::ReconcilerTestCase& tc, const rr::Config& config) {
  return fnsample::BucketReconciler(config, store_of(tc.metadata));
}) {
  const rr::Request request{test_namespace, "my-bucket"};
  const Bucket bucket = bucket_given();
  const Bucket deleted = terminating(provisioned(bucket));
  const auto empty_store = std::make_shared<FakeBucketStore>();
  const auto store_with_bucket = std::make_shared<FakeBucketStore>(std::set<std::string, std::less<>>{"photos"});
  const auto store_already_gone = std::make_shared<FakeBucketStore>();
  const auto store_down = std::make_shared<FakeBucketStore>(std::set<std::string, std::less<>>{"photos"});
  store_down->fail_removes = true;
  const auto store_for_deletion = std::make_shared<FakeBucketStore>(std::set<std::string, std::less<>>{"photos"});

  return rr::testing::ReconcilerTests{
      {"a new Bucket: the finalizer is added first, then the bucket created",
       {
           .metadata = {{"store", empty_store}},
           .request = request,
           .given_objects = {bucket},
           .expect_events =
               {
                   new_event(bucket, rr::event_normal, "FinalizerPatched",
                             R"(Patched finalizer "storage.example.rrgen.dev/bucket")"),
                   new_event(bucket, rr::event_normal, "BucketCreated", R"(Created bucket "photos")"),
                   new_event(bucket, rr::event_normal, "StatusUpdated", "Updated status"),
               },
           .expect_patches = {add_finalizer_patch},
           .expect_status_updates = {provisioned(bucket)},
           .verify =
               [store = empty_store](const rr::Result&, const rr::Error&) {
                 CHECK(store->creates == 1);
                 CHECK(store->buckets().contains("photos"));
               },
       }},
      {"the bucket exists: nothing is created and nothing written",
       {
           .metadata = {{"store", store_with_bucket}},
           .request = request,
           .given_objects = {provisioned(bucket)},
           .verify = [store = store_with_bucket](const rr::Result&, const rr::Error&) { CHECK(store->creates == 0); },
       }},
      {"deleted: the bucket is deleted, then the finalizer cleared",
       {
           .metadata = {{"store", store_for_deletion}},
           .request = request,
           .given_objects = {deleted},
           .expect_events =
               {
                   new_event(deleted, rr::event_normal, "BucketDeleted", R"(Deleted bucket "photos")"),
                   new_event(deleted, rr::event_normal, "FinalizerPatched",
                             R"(Patched finalizer "storage.example.rrgen.dev/bucket")"),
               },
           .expect_patches = {clear_finalizer_patch},
           .verify =
               [store = store_for_deletion](const rr::Result&, const rr::Error&) {
                 CHECK(store->removes == 1);
                 CHECK(store->buckets().empty());
               },
       }},
      {"deleted and the bucket already gone: only the finalizer is cleared",
       {
           .metadata = {{"store", store_already_gone}},
           .request = request,
           .given_objects = {deleted},
           .expect_events = {new_event(deleted, rr::event_normal, "FinalizerPatched",
                                       R"(Patched finalizer "storage.example.rrgen.dev/bucket")")},
           .expect_patches = {clear_finalizer_patch},
           .verify = [store = store_already_gone](const rr::Result&, const rr::Error&) { CHECK(store->removes == 0); },
       }},
      {"deleting the bucket fails: the finalizer stays and the error is returned",
       {
           .metadata = {{"store", store_down}},
           .request = request,
           .given_objects = {deleted},
           .should_err = true,
           .verify =
               [store = store_down](const rr::Result&, const rr::Error& err) {
                 CHECK(err.message() == "object store unavailable");
                 CHECK(store->buckets().contains("photos"));
               },
       }},
  };
}

// The retry the finalizer exists for: the bucket was deleted but clearing the finalizer failed,
// so the request is retried with the Bucket still terminating. The same reconciler (and store)
// serves both requests; the second finds the bucket gone and only clears the finalizer.
RR_SUB_RECONCILER_TESTS("BucketLifecycleReconciler", Bucket,
                        [](const rr::testing::SubReconcilerTestCase<Bucket>& tc, const rr::Config&) {
                          return fnsample::BucketLifecycleReconciler(store_of(tc.metadata));
                        }) {
  const Bucket deleted = terminating(provisioned(bucket_given()));
  const auto store = std::make_shared<FakeBucketStore>(std::set<std::string, std::less<>>{"photos"});

  rr::testing::SubReconcilerTestCase<Bucket> retry{
      .name = "retry after the failed finalizer clear",
      .resource = deleted,
      .expect_resource = with(deleted,
                              [](Bucket& b) {
                                b.metadata.finalizers.clear();
                                b.metadata.resource_version = "1000";
                              }),
      .expect_events = {new_event(deleted, rr::event_normal, "FinalizerPatched",
                                  R"(Patched finalizer "storage.example.rrgen.dev/bucket")")},
      .expect_patches = {clear_finalizer_patch},
      .verify =
          [store](const rr::Result&, const rr::Error&) {
            CHECK(store->removes == 1);  // not deleted a second time
            CHECK(store->creates == 0);
          },
  };

  return rr::testing::SubReconcilerTests<Bucket>{
      {"a failed finalizer clear is retried without deleting the bucket twice",
       {
           .metadata = {{"store", store}},
           .resource = deleted,
           .with_reactors = {induce_failure("patch", "Bucket")},
           .expect_events =
               {
                   new_event(deleted, rr::event_normal, "BucketDeleted", R"(Deleted bucket "photos")"),
                   new_event(deleted, rr::event_warning, "FinalizerPatchFailed",
                             R"(Failed to patch finalizer "storage.example.rrgen.dev/bucket": inducing failure for patch Bucket)"),
               },
           .expect_patches = {clear_finalizer_patch},
           .should_err = true,
           .verify =
               [store](const rr::Result&, const rr::Error&) {
                 CHECK(store->removes == 1);
                 CHECK(store->buckets().empty());
               },
           .additional_reconciles = {retry},
       }},
  };
}
