#include "rr/apiserver/builtin_kinds.hpp"

#include "builtin_resources.hpp"
#include "crd_kinds.hpp"
#include "rr/cluster/cluster.hpp"

namespace rr {

namespace {


// The API server's admission of a built-in kind: decode, default, validate, through the
// generated type; the defaulted object is what is stored.
Cluster::AdmitFn admission_of(const KindCodec& row) {
  return [&row](Json& object) -> std::vector<FieldError> {
    std::string defaulted;
    auto findings = row.admit(object.dump(), defaulted);  // a DecodeError is the cluster's to report
    object = Json::parse(defaulted);
    return findings;
  };
}

void ensure_namespace(Cluster& cluster, const KindInfo& kind, const std::string& name) {
  try {
    Json created = cluster.create(kind, Json{{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", name}}}});
    created["status"] = {{"phase", "Active"}};
    cluster.update_status(kind, created);
  } catch (const ApiError& e) {
    if (!is_already_exists(e.status())) throw;
  }
}

}  // namespace

void register_builtin_kinds(Cluster& cluster) {
  const GroupVersionKind crd{"apiextensions.k8s.io", "v1", "CustomResourceDefinition"};
  for (const KindCodec* row : apiserver_detail::stored_builtin_resources()) {
    KindInfo info = apiserver_detail::kind_info_of(*row);
    if (cluster.find_kind(info.gvk)) continue;  // registered before: it keeps its admission
    if (info.gvk == crd) {
      cluster.register_kind(std::move(info), [](Json& object) { return apiserver_detail::admit_crd(object); });
    } else {
      cluster.register_kind(std::move(info), admission_of(*row));
    }
  }
  const auto namespaces = cluster.find_kind(GroupVersionKind{"", "v1", "Namespace"});
  for (const char* name : {"default", "kube-system", "kube-public"}) ensure_namespace(cluster, *namespaces, name);
}

}  // namespace rr
