// Serves the kinds CustomResourceDefinitions declare. Runs after every CRD write through the HTTP
// front end (so a CR can be created right after its CRD) and from a watch on the cluster (so CRDs
// written through the C++ API register too). Idempotent: both paths may see the same CRD.
#pragma once
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "crd_kinds.hpp"
#include "kind_catalog.hpp"
#include "rr/core/json.hpp"

namespace rr {
class Cluster;
}

namespace rr::apiserver_detail {

class CrdController {
 public:
  CrdController(std::shared_ptr<Cluster> cluster, KindCatalog& catalog);
  ~CrdController();

  void start();  // the watch thread
  void stop();

  // Brings the served kinds in line with the CRD of this name (registered, or gone).
  void sync(const std::string& crd_name);

 private:
  void apply(const Json& crd);
  void forget(const std::string& crd_name);
  // After the storage version changed: the old storage version's objects move to the new one,
  // converted (they stay where they are when the conversion webhook fails).
  void adopt_old_storage(const Json& crd, const CrdKinds& declared);
  void mark_accepted(const KindInfo& crd_kind, Json crd);
  void run();

  std::shared_ptr<Cluster> cluster_;
  KindCatalog& catalog_;
  std::mutex mutex_;  // one sync at a time
  std::map<std::string, std::vector<GroupVersionKind>> served_by_crd_;
  std::set<GroupVersionKind> registered_here_;              // kinds this controller registered
  std::map<std::string, std::int64_t> applied_generation_;
  std::map<std::string, std::string>
      storage_version_;  // per CRD: where its objects are stored  // per CRD: the spec its kinds were registered from
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

}  // namespace rr::apiserver_detail
