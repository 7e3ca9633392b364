#include "namespace_objects.hpp"

#include "rr/client/api_error.hpp"

namespace rr::kube_controllers::detail {

namespace {

// The publisher's description of the ConfigMap (kubernetes.io/description), as 1.35 writes it.
constexpr const char* root_ca_description =
    "Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the "
    "internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes "
    "clusters.";

std::optional<Json> get_if_present(const Cluster& cluster, const KindInfo& kind, const std::string& ns,
                                   const std::string& name) {
  try {
    return cluster.get(kind, {ns, name});
  } catch (const ApiError& e) {
    if (is_not_found(e.status())) return std::nullopt;
    throw;
  }
}

// The field manager the objects' managedFields name, as on a real cluster.
WriteOptions writer() {
  WriteOptions options;
  options.field_manager = "kube-controller-manager";
  return options;
}

bool config_map_current(const Json& config_map, const std::string& ca_pem) {
  const Json data = config_map.value("data", Json::object());
  return data.is_object() && data.size() == 1 && data.value("ca.crt", Json()) == ca_pem;
}

// A create that lost to another writer (or to the namespace's own deletion) is not a failure
// here: the next event says what to do.
bool create(Cluster& cluster, const KindInfo& kind, const Json& object) {
  try {
    cluster.create(kind, object, writer());
    return true;
  } catch (const ApiError& e) {
    if (is_already_exists(e.status())) return false;
    throw;
  }
}

}  // namespace

std::optional<Kinds> find_kinds(const Cluster& cluster) {
  auto ns = cluster.find_kind({"", "v1", "Namespace"});
  auto sa = cluster.find_kind({"", "v1", "ServiceAccount"});
  auto cm = cluster.find_kind({"", "v1", "ConfigMap"});
  if (!ns || !sa || !cm) return std::nullopt;
  return Kinds{*ns, *sa, *cm};
}

Json default_service_account_of(const std::string& ns) {
  return {{"apiVersion", "v1"},
          {"kind", "ServiceAccount"},
          {"metadata", {{"name", default_service_account}, {"namespace", ns}}}};
}

Json root_ca_config_map_of(const std::string& ns, const std::string& ca_pem) {
  return {{"apiVersion", "v1"},
          {"kind", "ConfigMap"},
          {"metadata",
           {{"name", root_ca_config_map},
            {"namespace", ns},
            {"annotations", {{"kubernetes.io/description", root_ca_description}}}}},
          {"data", {{"ca.crt", ca_pem}}}};
}

bool active(const Json& namespace_object) {
  if (namespace_object.contains("/metadata/deletionTimestamp"_json_pointer)) return false;
  return namespace_object.value("/status/phase"_json_pointer, std::string()) != "Terminating";
}

bool settle_namespace(Cluster& cluster, const Kinds& kinds, const std::string& ns, const std::string& ca_pem) {
  bool wrote = false;
  if (!get_if_present(cluster, kinds.service_account, ns, default_service_account)) {
    wrote = create(cluster, kinds.service_account, default_service_account_of(ns)) || wrote;
  }
  if (ca_pem.empty()) return wrote;
  auto config_map = get_if_present(cluster, kinds.config_map, ns, root_ca_config_map);
  if (!config_map) return create(cluster, kinds.config_map, root_ca_config_map_of(ns, ca_pem)) || wrote;
  if (config_map_current(*config_map, ca_pem)) return wrote;
  // Edited: the publisher puts its data back (other metadata, labels say, stays).
  (*config_map)["data"] = {{"ca.crt", ca_pem}};
  config_map->erase("binaryData");
  cluster.update(kinds.config_map, *config_map, writer());
  return true;
}

bool namespace_settled(const Cluster& cluster, const Kinds& kinds, const std::string& ns, const std::string& ca_pem) {
  if (!get_if_present(cluster, kinds.service_account, ns, default_service_account)) return false;
  if (ca_pem.empty()) return true;
  const auto config_map = get_if_present(cluster, kinds.config_map, ns, root_ca_config_map);
  return config_map && config_map_current(*config_map, ca_pem);
}

}  // namespace rr::kube_controllers::detail
