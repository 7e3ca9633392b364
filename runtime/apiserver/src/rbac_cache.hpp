// The RBAC objects a decision reads, kept current from watches on the cluster, as the API server's
// RBAC authorizer reads its informers' listers instead of listing storage at every request. A
// change to a Role, ClusterRole or binding is seen by the next request (events are drained before
// each read); between changes the per-namespace views are shared, not rebuilt.
#pragma once
#include <array>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "rbac_authorizer.hpp"
#include "rr/client/kind.hpp"
#include "rr/client/watch.hpp"

namespace rr {
class Cluster;
}

namespace rr::apiserver_detail {

// The objects a decision in one namespace reads, and its bindings compiled.
struct RbacView {
  RbacObjects objects;
  CompiledRbac compiled;
};

class RbacCache {
 public:
  explicit RbacCache(std::shared_ptr<Cluster> cluster);
  ~RbacCache();
  RbacCache(const RbacCache&) = delete;
  RbacCache& operator=(const RbacCache&) = delete;

  // The ClusterRoles and ClusterRoleBindings, and the Roles and RoleBindings of `namespace_`
  // (none for ""), in (namespace, name) order as a list returns them. Thread-safe.
  std::shared_ptr<const RbacView> objects(const std::string& namespace_) const;

 private:
  struct Kind {
    const char* name;
    std::optional<KindInfo> info;
    std::unique_ptr<Watch> watch;
    std::map<std::pair<std::string, std::string>, Json> objects;  // by (namespace, name)
  };
  // Applies pending events; (re)lists a kind whose watch is missing or ended. True on a change.
  bool sync_locked() const;
  bool relist_locked(Kind& kind) const;

  std::shared_ptr<Cluster> cluster_;
  mutable std::mutex mutex_;
  enum Index { role, role_binding, cluster_role, cluster_role_binding };
  mutable std::array<Kind, 4> kinds_;                                     // by Index
  mutable std::map<std::string, std::shared_ptr<const RbacView>> views_;  // by namespace
};

}  // namespace rr::apiserver_detail
