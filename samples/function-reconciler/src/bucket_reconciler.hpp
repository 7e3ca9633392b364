// The Cluster API book's external resource, reconciler.io style: a Bucket object stands for a
// bucket of an external object store. While the Bucket lives, the bucket exists; when the Bucket
// is deleted, a finalizer holds it until the bucket has been deleted, exactly once.
//
//   BucketReconciler = ResourceReconciler<Bucket>{
//       reconciler: WithFinalizer{finalizer: "storage.example.rrgen.dev/bucket",
//                                 reconciler: SyncReconciler{sync: create if missing; finalize: delete if present}}}
//
// Idempotency (the book's point): every side effect is decided from the external state observed
// now, never from memory, so a request that is retried — because the finalizer could not be
// cleared after the bucket was deleted, say — does not act twice.
#pragma once
#include <memory>
#include <string_view>

#include "bucket_store.hpp"
#include "fnsample/v1/bucket.hpp"
#include "rr/reconcilers/conditions.hpp"
#include "rr/reconcilers/root.hpp"
#include "rr/reconcilers/sub_reconciler.hpp"

namespace fnsample {

using v1::Bucket;

// Unique to this reconciler and stable across releases (a renamed finalizer blocks deletion).
inline constexpr std::string_view bucket_finalizer = "storage.example.rrgen.dev/bucket";
inline constexpr std::string_view condition_bucket_ready = "BucketReady";

// Ready follows BucketReady.
const rr::ConditionSet& bucket_conditions();

rr::Reconciler BucketReconciler(const rr::Config& config, std::shared_ptr<BucketStore> store);

// The finalizer-guarded part: WithFinalizer around the SyncReconciler that creates and deletes
// the bucket (events BucketCreated / BucketDeleted on the Bucket).
rr::SubReconciler<Bucket> BucketLifecycleReconciler(std::shared_ptr<BucketStore> store);

}  // namespace fnsample
