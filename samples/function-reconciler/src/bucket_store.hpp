// The external system behind a Bucket: an object store reached through its own API (a cloud
// SDK in real life). Injected into the reconciler so tests can count what it is asked to do.
#pragma once
#include <string_view>

namespace fnsample {

class BucketStore {
 public:
  virtual ~BucketStore() = default;
  virtual bool exists(std::string_view bucket) = 0;
  // Both throw on failure, including (as object stores answer) creating a bucket that exists or
  // deleting one that does not.
  virtual void create(std::string_view bucket) = 0;
  virtual void remove(std::string_view bucket) = 0;
};

}  // namespace fnsample
