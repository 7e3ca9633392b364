#include "rr/apiserver/offline_admission.hpp"

#include "crd_controller.hpp"
#include "kind_catalog.hpp"
#include "rr/apiserver/builtin_kinds.hpp"
#include "rr/cluster/cluster.hpp"

namespace rr {

struct OfflineAdmission::Impl {
  std::shared_ptr<Cluster> cluster;
  apiserver_detail::KindCatalog catalog;
  apiserver_detail::CrdController crds;

  explicit Impl(std::shared_ptr<Cluster> c) : cluster(std::move(c)), catalog(cluster), crds(cluster, catalog) {}
};

OfflineAdmission::OfflineAdmission() {
  // As ApiServer's constructor: the built-in kinds; no webhooks (none can be configured offline)
  // and no default RBAC objects (a dry run of a ClusterRole must not collide with them).
  ClusterOptions options;
  options.require_namespaces = false;
  auto cluster = std::make_shared<Cluster>(std::move(options));
  register_builtin_kinds(*cluster);
  impl_ = std::make_unique<Impl>(std::move(cluster));
}

OfflineAdmission::~OfflineAdmission() = default;

Json OfflineAdmission::add_crd(const Json& crd) {
  const GroupVersionKind crd_gvk{"apiextensions.k8s.io", "v1", "CustomResourceDefinition"};
  const auto kind = impl_->cluster->find_kind(crd_gvk);
  Json created = impl_->cluster->create(*kind, crd);
  // What the HTTP front end does after a CRD write (the watch thread is not started).
  impl_->crds.sync(created.value("/metadata/name"_json_pointer, std::string()));
  return created;
}

Json OfflineAdmission::dry_run_create(const KindInfo& kind, const Json& object, FieldValidation validation,
                                      std::vector<std::string>* warnings) const {
  return impl_->cluster->create(kind, object,
                                WriteOptions{.dry_run = true, .field_validation = validation, .warnings = warnings});
}

std::optional<KindInfo> OfflineAdmission::find_kind(const GroupVersionKind& gvk) const {
  if (!impl_->catalog.is_served(gvk)) return std::nullopt;
  return impl_->cluster->find_kind(gvk);
}

const std::shared_ptr<Cluster>& OfflineAdmission::cluster() const { return impl_->cluster; }

}  // namespace rr
