// The core kinds' columns without workload or network logic: ConfigMap, Secret, ServiceAccount,
// Namespace, Node, and coordination's Lease, as the kube-apiserver prints them.
#include <set>

#include "printer_columns_internal.hpp"

namespace rr::apiserver_detail {

namespace {

// The node's Ready condition as Ready/NotReady (Unknown without one), then SchedulingDisabled.
std::string node_status(const Json& node) {
  const std::string ready = condition_status(node, "/status/conditions", "Ready");
  std::string status = ready.empty() ? "Unknown" : ready == "True" ? "Ready" : "NotReady";
  if (at(node, "/spec/unschedulable") == true) status += ",SchedulingDisabled";
  return status;
}

// Roles from node-role.kubernetes.io/<role> label keys and the kubernetes.io/role label's value.
std::string node_roles(const Json& node) {
  static constexpr std::string_view prefix = "node-role.kubernetes.io/";
  std::set<std::string> roles;
  if (const Json& labels = at(node, "/metadata/labels"); labels.is_object()) {
    for (const auto& [key, value] : labels.items()) {
      if (key.starts_with(prefix) && key.size() > prefix.size()) roles.insert(key.substr(prefix.size()));
      else if (key == "kubernetes.io/role" && !text_of(value).empty()) roles.insert(text_of(value));
    }
  }
  return roles.empty() ? "<none>" : joined({roles.begin(), roles.end()});
}

std::string node_address(const Json& node, std::string_view type) {
  if (const Json& addresses = at(node, "/status/addresses"); addresses.is_array()) {
    for (const Json& a : addresses) {
      if (string_at(a, "/type") == type) return string_at(a, "/address");
    }
  }
  return "<none>";
}

PrinterColumn node_info_column(std::string name, std::string field) {
  return text_column(std::move(name), "From the node's system info.", 1,
                     [field = std::move(field)](const Json& n) -> Json {
                       return string_or(n, "/status/nodeInfo/" + field, "<unknown>");
                     });
}

// The keys of data and, as the server merges them into data on write, stringData.
std::size_t secret_keys(const Json& secret) {
  std::set<std::string> keys;
  for (const char* field : {"/data", "/stringData"}) {
    if (const Json& map = at(secret, field); map.is_object()) {
      for (const auto& [key, value] : map.items()) keys.insert(key);
    }
  }
  return keys.size();
}

}  // namespace

std::vector<PrinterColumn> config_map_columns() {
  return {name_column(),
          typed_column("Data", "string", "Keys in data and binaryData.", 0,
                       [](const Json& c) -> Json { return size_at(c, "/data") + size_at(c, "/binaryData"); }),
          age_column()};
}

std::vector<PrinterColumn> secret_columns() {
  return {name_column(),
          text_column("Type", "The type of the secret.", 0,
                      [](const Json& s) -> Json { return string_or(s, "/type", "Opaque"); }),
          typed_column("Data", "string", "Keys in data.", 0, [](const Json& s) -> Json { return secret_keys(s); }),
          age_column()};
}

std::vector<PrinterColumn> service_account_columns() {
  return {name_column(),
          typed_column("Secrets", "string", "Secrets listed by the account.", 0,
                       [](const Json& s) -> Json { return size_at(s, "/secrets"); }),
          age_column()};
}

std::vector<PrinterColumn> namespace_columns() {
  return {name_column(),
          text_column("Status", "The status of the namespace", 0,
                      [](const Json& n) -> Json { return string_or(n, "/status/phase", "Active"); }),
          age_column()};
}

std::vector<PrinterColumn> node_columns() {
  std::vector<PrinterColumn> columns{name_column()};
  columns.push_back(
      text_column("Status", "The status of the node", 0, [](const Json& n) -> Json { return node_status(n); }));
  columns.push_back(
      text_column("Roles", "The roles of the node", 0, [](const Json& n) -> Json { return node_roles(n); }));
  columns.push_back(age_column());
  columns.push_back(text_column("Version", "The kubelet's version.", 0,
                                [](const Json& n) -> Json { return string_at(n, "/status/nodeInfo/kubeletVersion"); }));
  columns.push_back(text_column("Internal-IP", "The first InternalIP address.", 1,
                                [](const Json& n) -> Json { return node_address(n, "InternalIP"); }));
  columns.push_back(text_column("External-IP", "The first ExternalIP address.", 1,
                                [](const Json& n) -> Json { return node_address(n, "ExternalIP"); }));
  columns.push_back(node_info_column("OS-Image", "osImage"));
  columns.push_back(node_info_column("Kernel-Version", "kernelVersion"));
  columns.push_back(node_info_column("Container-Runtime", "containerRuntimeVersion"));
  return columns;
}

std::vector<PrinterColumn> lease_columns() {
  return {name_column(),
          text_column("Holder", "The lease's holder.", 0,
                      [](const Json& l) -> Json { return string_at(l, "/spec/holderIdentity"); }),
          age_column()};
}

}  // namespace rr::apiserver_detail
