#include "rr/apiserver/builtin_kinds.hpp"

#include <atomic>
#include <cstdint>
#include <memory>

#include "builtin_resources.hpp"
#include "crd_kinds.hpp"
#include "go_defaults.hpp"
#include "rr/cluster/cluster.hpp"
#include "webhook_configuration.hpp"

namespace rr {

namespace {

// The API server's admission of a built-in kind: its Go defaults, then decode, the schema's
// defaults and validation through the generated type; the defaulted object is what is stored.
Cluster::AdmitFn admission_of(const KindCodec& row, GroupVersionKind gvk) {
  return [&row, gvk = std::move(gvk)](Json& object) -> std::vector<FieldError> {
    apiserver_detail::apply_go_defaults(gvk, object);
    std::string defaulted;
    auto findings = row.admit(object.dump(), defaulted);  // a DecodeError is the cluster's to report
    object = Json::parse(defaulted);
    return findings;
  };
}

// A Service gets its cluster IP from the service range on its first write (10.96.0.0/12, as
// kubeadm's default), unless it is headless ("None") or an ExternalName.
Cluster::AdmitFn with_cluster_ip(Cluster::AdmitFn admit) {
  auto next = std::make_shared<std::atomic<std::uint32_t>>(10);
  return [admit = std::move(admit), next](Json& object) {
    auto findings = admit(object);
    if (!findings.empty() || !object.contains("spec") || !object["spec"].is_object()) return findings;
    Json& spec = object["spec"];
    if (spec.value("type", std::string()) == "ExternalName" || spec.contains("clusterIP")) return findings;
    const std::uint32_t n = next->fetch_add(1);
    const std::string ip = "10.96." + std::to_string((n >> 8) & 0xff) + "." + std::to_string(n & 0xff);
    spec["clusterIP"] = ip;
    spec["clusterIPs"] = Json::array({ip});
    if (!spec.contains("ipFamilies")) spec["ipFamilies"] = Json::array({"IPv4"});
    if (!spec.contains("ipFamilyPolicy")) spec["ipFamilyPolicy"] = "SingleStack";
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
    Cluster::AdmitFn admit;
    if (info.gvk == crd) {
      admit = [](Json& object) { return apiserver_detail::admit_crd(object); };
    } else if (info.gvk == apiserver_detail::mutating_webhook_configuration_gvk ||
               info.gvk == apiserver_detail::validating_webhook_configuration_gvk) {
      // The schema's checks (types), then the registry's defaults and checks of the webhooks.
      const bool mutating = info.gvk == apiserver_detail::mutating_webhook_configuration_gvk;
      admit = [base = admission_of(*row, info.gvk), mutating](Json& object) {
        auto findings = base(object);
        if (findings.empty()) findings = apiserver_detail::admit_webhook_configuration(object, mutating);
        return findings;
      };
    } else if (info.gvk == GroupVersionKind{"", "v1", "Service"}) {
      admit = with_cluster_ip(admission_of(*row, info.gvk));
    } else {
      admit = admission_of(*row, info.gvk);
    }
    cluster.register_kind(std::move(info), std::move(admit));
  }
  const auto namespaces = cluster.find_kind(GroupVersionKind{"", "v1", "Namespace"});
  for (const char* name : {"default", "kube-system", "kube-public"}) ensure_namespace(cluster, *namespaces, name);
}

}  // namespace rr
