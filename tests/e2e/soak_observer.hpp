// The soak test's view of the store while the operator works: an rr::Informer over an in-process
// rr::ClusterClient (no HTTP, no faults) keeps, per object of one kind, whether it matches a
// predicate. Event-driven, so that watching 1,000 WebApps converge costs almost nothing; a
// polling list of the whole store holds the cluster's lock long enough to slow the server down.
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "rr/client/kind.hpp"
#include "rr/core/json.hpp"

namespace rr {
class Cluster;
class Informer;
}  // namespace rr

namespace rr::e2e {

class StoreObserver {
 public:
  using Predicate = std::function<bool(const Json& object)>;
  // Observes the objects of `kind` that `select` accepts (all when empty); `matches` is what
  // matching() counts. Starts at once; waits (up to 30 s) for the first list.
  StoreObserver(std::shared_ptr<Cluster> cluster, const KindInfo& kind, Predicate matches, Predicate select = {});
  ~StoreObserver();
  StoreObserver(const StoreObserver&) = delete;
  StoreObserver& operator=(const StoreObserver&) = delete;

  std::size_t size() const;
  std::size_t matching() const;
  // Up to `n` keys ("ns/name") of objects that do not match.
  std::vector<std::string> not_matching(std::size_t n) const;

 private:
  void put(const Json& object);
  void erase(const Json& object);

  Predicate matches_;
  Predicate select_;
  mutable std::mutex mutex_;
  std::map<std::string, bool> objects_;  // key -> matches
  std::shared_ptr<Informer> informer_;
  std::jthread thread_;
};

}  // namespace rr::e2e
