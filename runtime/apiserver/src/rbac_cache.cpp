// RbacCache: list, then watch from the list's resourceVersion, per RBAC kind (see the header).
#include "rbac_cache.hpp"

#include "rr/client/api_error.hpp"
#include "rr/cluster/cluster.hpp"

namespace rr::apiserver_detail {

namespace {

std::pair<std::string, std::string> key_of(const Json& object) {
  return {object.value("/metadata/namespace"_json_pointer, std::string()),
          object.value("/metadata/name"_json_pointer, std::string())};
}

}  // namespace

RbacCache::RbacCache(std::shared_ptr<Cluster> cluster)
    : cluster_(std::move(cluster)),
      kinds_{Kind{"Role", {}, {}, {}}, Kind{"RoleBinding", {}, {}, {}}, Kind{"ClusterRole", {}, {}, {}},
             Kind{"ClusterRoleBinding", {}, {}, {}}} {}

RbacCache::~RbacCache() {
  for (Kind& kind : kinds_) {
    if (kind.watch) kind.watch->stop();
  }
}

bool RbacCache::relist_locked(Kind& kind) const {
  if (!kind.info) kind.info = cluster_->find_kind(GroupVersionKind{"rbac.authorization.k8s.io", "v1", kind.name});
  if (!kind.info) return false;  // not registered (yet): nothing to read
  Json list = cluster_->list(*kind.info, ListOptions{});
  kind.objects.clear();
  if (list.contains("items") && list["items"].is_array()) {
    for (Json& item : list["items"]) {
      auto key = key_of(item);  // before the move: the right side of `=` is evaluated first
      kind.objects[std::move(key)] = std::move(item);
    }
  }
  ListOptions from;
  from.resource_version = list.value("/metadata/resourceVersion"_json_pointer, std::string());
  kind.watch = cluster_->watch(*kind.info, from);
  return true;
}

bool RbacCache::sync_locked() const {
  bool changed = false;
  for (Kind& kind : kinds_) {
    if (!kind.watch || kind.watch->stopped()) {
      changed = relist_locked(kind) || changed;
      continue;
    }
    while (auto event = kind.watch->next(std::chrono::milliseconds(0))) {
      switch (event->type) {
        case WatchEventType::Added:
        case WatchEventType::Modified: {
          auto key = key_of(event->object);
          kind.objects[std::move(key)] = std::move(event->object);
          changed = true;
          break;
        }
        case WatchEventType::Deleted:
          kind.objects.erase(key_of(event->object));
          changed = true;
          break;
        case WatchEventType::Error:  // e.g. 410 Expired: start over
          changed = relist_locked(kind) || changed;
          break;
        case WatchEventType::Bookmark: break;
      }
      if (!kind.watch) break;
    }
  }
  return changed;
}

std::shared_ptr<const RbacView> RbacCache::objects(const std::string& namespace_) const {
  std::lock_guard lock(mutex_);
  if (sync_locked()) views_.clear();
  if (auto it = views_.find(namespace_); it != views_.end()) return it->second;
  auto view = std::make_shared<RbacView>();
  const auto copy = [&](const Kind& kind, std::vector<Json>& out, bool namespaced) {
    for (const auto& [key, object] : kind.objects) {
      if (!namespaced || key.first == namespace_) out.push_back(object);
    }
  };
  copy(kinds_[cluster_role], view->objects.cluster_roles, false);
  copy(kinds_[cluster_role_binding], view->objects.cluster_role_bindings, false);
  if (!namespace_.empty()) {
    copy(kinds_[role], view->objects.roles, true);
    copy(kinds_[role_binding], view->objects.role_bindings, true);
  }
  view->compiled = compile_rbac(view->objects, namespace_);
  views_[namespace_] = view;
  return view;
}

}  // namespace rr::apiserver_detail
