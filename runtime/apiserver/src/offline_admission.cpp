#include "rr/apiserver/offline_admission.hpp"

#include <map>

#include "admission_plugins.hpp"
#include "authorization.hpp"
#include "crd_controller.hpp"
#include "crd_conversion.hpp"
#include "crd_kinds.hpp"
#include "kind_catalog.hpp"
#include "policy_schemas.hpp"
#include "rr/apiserver/builtin_kinds.hpp"
#include "rr/cluster/cluster.hpp"

namespace rr {

struct OfflineAdmission::Impl {
  std::shared_ptr<Cluster> cluster;
  apiserver_detail::KindCatalog catalog;
  apiserver_detail::CrdController crds;
  // A CRD's versions other than its storage version: how they convert, and the storage kind.
  struct ToStorage {
    apiserver_detail::CrdConversion conversion;
    KindInfo storage;
  };
  std::map<GroupVersionKind, ToStorage> to_storage;
  // The policies' `authorizer` variable: whoever runs the check may do anything (AlwaysAllow), as
  // an administrator's dry run; the cell is emptied before the authorizer goes.
  apiserver_detail::Authorizer authorizer;
  apiserver_detail::AuthorizerCell policy_authorizer;

  Impl(std::shared_ptr<Cluster> c, apiserver_detail::AuthorizerCell cell)
      : cluster(std::move(c)),
        catalog(cluster),
        crds(cluster, catalog),
        authorizer(cluster, AuthorizationMode::AlwaysAllow),
        policy_authorizer(std::move(cell)) {
    policy_authorizer->store(&authorizer);
  }
  ~Impl() { policy_authorizer->store(nullptr); }
};

OfflineAdmission::OfflineAdmission() {
  // As ApiServer's constructor: the built-in kinds and the same admission chain (policies, then
  // webhooks, which never run offline: no webhook configuration is stored); no default RBAC
  // objects (a dry run of a ClusterRole must not collide with them).
  ClusterOptions options;
  options.require_namespaces = false;
  auto cluster = std::make_shared<Cluster>(std::move(options));
  register_builtin_kinds(*cluster);
  auto cell = apiserver_detail::install_admission_plugins(*cluster, /*offline=*/true);
  impl_ = std::make_unique<Impl>(std::move(cluster), std::move(cell));
}

OfflineAdmission::~OfflineAdmission() = default;

Json OfflineAdmission::add_crd(const Json& crd) {
  const GroupVersionKind crd_gvk{"apiextensions.k8s.io", "v1", "CustomResourceDefinition"};
  const auto kind = impl_->cluster->find_kind(crd_gvk);
  Json created = impl_->cluster->create(*kind, crd);
  // What the HTTP front end does after a CRD write (the watch thread is not started).
  impl_->crds.sync(created.value("/metadata/name"_json_pointer, std::string()));
  // Worked out once here: a dry run per document must not parse the CRD again.
  auto declared = apiserver_detail::kinds_of_crd(created);
  auto conversion = apiserver_detail::crd_conversion(created);
  if (declared && conversion) {
    for (const KindInfo& served : declared->kinds) {
      if (served.gvk.version == conversion->storage_version) continue;
      if (auto storage = impl_->catalog.find(served.gvk.group, conversion->storage_version, served.plural)) {
        impl_->to_storage.insert_or_assign(served.gvk, Impl::ToStorage{*conversion, *storage});
      }
    }
  }
  return created;
}

Json OfflineAdmission::create(const KindInfo& kind, const Json& object, FieldValidation validation,
                              std::vector<std::string>* warnings) {
  return impl_->cluster->create(kind, object, WriteOptions{.field_validation = validation, .warnings = warnings});
}

Json OfflineAdmission::dry_run_create(const KindInfo& kind, const Json& object, FieldValidation validation,
                                      std::vector<std::string>* warnings) const {
  const WriteOptions opts{.dry_run = true, .field_validation = validation, .warnings = warnings};
  // As the HTTP front end's conversion handler: a CRD's object in a version other than the
  // storage version is converted, then created in the storage version, admitted with the schema
  // of the version it was written in (the requested version's scope tells the CRD's admission).
  if (auto it = impl_->to_storage.find(kind.gvk); it != impl_->to_storage.end()) {
    const auto& [conversion, storage] = it->second;
    const apiserver_detail::RequestedVersionScope requested(kind.gvk.version);
    Json in_storage = std::move(apiserver_detail::convert_objects(conversion, {object}, storage.gvk.api_version(),
                                                                  apiserver_detail::ClusterReader(*impl_->cluster))
                                    .front());
    return impl_->cluster->create(storage, in_storage, opts);
  }
  return impl_->cluster->create(kind, object, opts);
}

std::optional<KindInfo> OfflineAdmission::find_kind(const GroupVersionKind& gvk) const {
  if (!impl_->catalog.is_served(gvk)) return std::nullopt;
  return impl_->cluster->find_kind(gvk);
}

Json OfflineAdmission::policy_status(const Json& policy) const {
  return admission_policy::policy_status(policy, impl_->cluster->kinds(),
                                         apiserver_detail::policy_schema_resolver(impl_->cluster));
}

const std::shared_ptr<Cluster>& OfflineAdmission::cluster() const { return impl_->cluster; }

}  // namespace rr
