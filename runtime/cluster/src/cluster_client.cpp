// rr::ClusterClient: the Client interface served by a Cluster in the same process.
#include "errors.hpp"
#include "rr/client/api_error.hpp"
#include "rr/client/call_deadline.hpp"
#include "rr/cluster/cluster.hpp"

namespace rr {

namespace {

// A call made after its reconcile's deadline fails as the HTTP client's would, without reaching
// the cluster (rr/client/call_deadline.hpp). A call already inside the cluster runs to its end,
// as a request the API server has received does.
void check_deadline(std::string_view verb, const KindInfo& kind, std::string_view target = {}) {
  if (!CallDeadline::passed()) return;
  std::string what = std::string(verb) + " " + kind.plural;
  if (!target.empty()) what += " \"" + std::string(target) + "\"";
  throw deadline_exceeded(what);
}

}  // namespace

ClusterClient::ClusterClient(std::shared_ptr<Cluster> cluster) : cluster_(std::move(cluster)) {}

KindInfo ClusterClient::do_kind_info(const GroupVersionKind& gvk) const {
  if (auto info = cluster_->find_kind(gvk)) return *info;
  Status s;
  s.message = "no matches for kind \"" + gvk.kind + "\" in version \"" + gvk.api_version() + "\"";
  s.reason = "NotFound";
  s.code = 404;
  s.details_group = gvk.group;
  s.details_kind = gvk.kind;
  cluster_detail::fail(std::move(s));
}

Json ClusterClient::do_get(const KindInfo& kind, const ObjectKey& key) {
  check_deadline("get", kind, key.str());
  return cluster_->get(kind, key);
}

Json ClusterClient::do_list(const KindInfo& kind, const ListOptions& opts) {
  check_deadline("list", kind, opts.namespace_);
  return cluster_->list(kind, opts);
}

Json ClusterClient::do_create(const KindInfo& kind, const Json& object, const WriteOptions& opts) {
  check_deadline("create", kind);
  return cluster_->create(kind, object, opts);
}

Json ClusterClient::do_update(const KindInfo& kind, const Json& object, const WriteOptions& opts) {
  check_deadline("update", kind);
  return cluster_->update(kind, object, opts);
}

Json ClusterClient::do_update_status(const KindInfo& kind, const Json& object, const WriteOptions& opts) {
  check_deadline("update", kind);
  return cluster_->update_status(kind, object, opts);
}

Json ClusterClient::do_patch(const KindInfo& kind, const ObjectKey& key, PatchType type, std::string_view body,
                             std::string_view subresource, const WriteOptions& opts) {
  check_deadline("patch", kind, key.str());
  return cluster_->patch(kind, key, type, body, subresource, opts);
}

Json ClusterClient::do_remove(const KindInfo& kind, const ObjectKey& key, const DeleteOptions& opts) {
  check_deadline("delete", kind, key.str());
  return cluster_->remove(kind, key, opts);
}

void ClusterClient::do_remove_collection(const KindInfo& kind, const ListOptions& list, const DeleteOptions& opts) {
  check_deadline("deletecollection", kind, list.namespace_);
  cluster_->remove_collection(kind, list, opts);
}

std::unique_ptr<Watch> ClusterClient::do_watch(const KindInfo& kind, const ListOptions& opts) {
  return cluster_->watch(kind, opts);
}

}  // namespace rr
