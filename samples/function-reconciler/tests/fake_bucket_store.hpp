// An object store in memory that counts what it is asked to do, and fails as a real one does:
// creating a bucket that exists or deleting one that does not throws. `fail_removes` makes
// remove() fail while the bucket is still there (an outage).
#pragma once
#include <functional>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>

#include "bucket_store.hpp"

namespace fntest {

class FakeBucketStore final : public fnsample::BucketStore {
 public:
  explicit FakeBucketStore(std::set<std::string, std::less<>> buckets = {}) : buckets_(std::move(buckets)) {}

  bool exists(std::string_view bucket) override { return buckets_.contains(bucket); }
  void create(std::string_view bucket) override {
    ++creates;
    if (!buckets_.emplace(bucket).second) throw std::runtime_error("bucket \"" + std::string(bucket) + "\" already exists");
  }
  void remove(std::string_view bucket) override {
    ++removes;
    if (fail_removes) throw std::runtime_error("object store unavailable");
    auto it = buckets_.find(bucket);
    if (it == buckets_.end()) throw std::runtime_error("bucket \"" + std::string(bucket) + "\" not found");
    buckets_.erase(it);
  }

  const std::set<std::string, std::less<>>& buckets() const noexcept { return buckets_; }

  int creates = 0;
  int removes = 0;
  bool fail_removes = false;

 private:
  std::set<std::string, std::less<>> buckets_;
};

}  // namespace fntest
