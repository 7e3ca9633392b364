#include "bucket_reconciler.hpp"

#include <string>
#include <utility>

#include "rr/reconcilers/resource.hpp"
#include "rr/reconcilers/sync.hpp"
#include "rr/reconcilers/with_finalizer.hpp"

namespace fnsample {

namespace {

std::string bucket_name(const Bucket& bucket) { return bucket.spec ? bucket.spec->bucket_name : std::string(); }

void record(rr::Context& ctx, const Bucket& bucket, std::string reason, std::string message) {
  if (const auto& recorder = ctx.config().recorder) {
    recorder->event(bucket, rr::event_normal, std::move(reason), std::move(message));
  }
}

}  // namespace

const rr::ConditionSet& bucket_conditions() {
  static const rr::ConditionSet set = rr::ConditionSet::living({std::string(condition_bucket_ready)});
  return set;
}

rr::Reconciler BucketReconciler(const rr::Config& config, std::shared_ptr<BucketStore> store) {
  return rr::ResourceReconciler<Bucket>{
      .name = "Bucket",
      .conditions = bucket_conditions(),
      .reconciler = BucketLifecycleReconciler(std::move(store)),
      .config = config,
  };
}

rr::SubReconciler<Bucket> BucketLifecycleReconciler(std::shared_ptr<BucketStore> store) {
  return rr::WithFinalizer<Bucket>{
      .name = "BucketFinalizer",
      .finalizer = std::string(bucket_finalizer),
      .reconciler =
          rr::SyncReconciler<Bucket>{
              .name = "Bucket",
              .sync = [store](rr::Context& ctx, Bucket& bucket) -> rr::Error {
                const std::string name = bucket_name(bucket);
                if (!store->exists(name)) {
                  store->create(name);
                  record(ctx, bucket, "BucketCreated", "Created bucket " + rr::go_quote(name));
                }
                rr::ensure_status(bucket).ready = true;
                bucket_conditions()
                    .manage(rr::ensure_conditions(bucket), ctx.now())
                    .mark_true(condition_bucket_ready, "Provisioned");
                return {};
              },
              // Runs on every request while the Bucket is terminating, until WithFinalizer has
              // cleared the finalizer: a bucket already gone is the cleanup done.
              .finalize = [store](rr::Context& ctx, Bucket& bucket) -> rr::Error {
                const std::string name = bucket_name(bucket);
                if (!store->exists(name)) {
                  ctx.log().with("bucket", name).info("bucket already deleted");
                  return {};
                }
                store->remove(name);
                record(ctx, bucket, "BucketDeleted", "Deleted bucket " + rr::go_quote(name));
                return {};
              },
          },
  };
}

}  // namespace fnsample
