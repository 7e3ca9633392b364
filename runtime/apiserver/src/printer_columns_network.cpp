// Service, Ingress, Endpoints and EndpointSlice columns as the kube-apiserver prints them.
#include <set>

#include "printer_columns_internal.hpp"

namespace rr::apiserver_detail {

namespace {

// The IPs (else hostnames) of a load balancer status, sorted and unique (a Go string set).
std::string load_balancer_addresses(const Json& object) {
  std::set<std::string> addresses;
  if (const Json& list = at(object, "/status/loadBalancer/ingress"); list.is_array()) {
    for (const Json& entry : list) {
      const std::string ip = string_at(entry, "/ip");
      const std::string host = string_at(entry, "/hostname");
      if (!ip.empty() || !host.empty()) addresses.insert(ip.empty() ? host : ip);
    }
  }
  return joined({addresses.begin(), addresses.end()});
}

std::vector<std::string> strings_at(const Json& object, const std::string& pointer) {
  std::vector<std::string> out;
  if (const Json& list = at(object, pointer); list.is_array()) {
    for (const Json& s : list) out.push_back(text_of(s));
  }
  return out;
}

// getServiceExternalIP (the server prints wide, so nothing is clipped).
std::string service_external_ip(const Json& s) {
  const std::string type = string_or(s, "/spec/type", "ClusterIP");
  const std::vector<std::string> external = strings_at(s, "/spec/externalIPs");
  if (type == "ClusterIP" || type == "NodePort") return external.empty() ? "<none>" : joined(external);
  if (type == "ExternalName") return string_at(s, "/spec/externalName");
  if (type != "LoadBalancer") return "<unknown>";
  const std::string addresses = load_balancer_addresses(s);
  if (!external.empty()) return addresses.empty() ? joined(external) : addresses + "," + joined(external);
  return addresses.empty() ? "<pending>" : addresses;
}

// "80/TCP,443:30443/TCP" (makePortString; protocol defaults to TCP).
std::string service_ports(const Json& s) {
  std::vector<std::string> parts;
  if (const Json& ports = at(s, "/spec/ports"); ports.is_array()) {
    for (const Json& p : ports) {
      const std::string port = std::to_string(int_at(p, "/port"));
      const std::int64_t node_port = int_at(p, "/nodePort");
      parts.push_back(port + (node_port > 0 ? ":" + std::to_string(node_port) : "") + "/" +
                      string_or(p, "/protocol", "TCP"));
    }
  }
  return parts.empty() ? "<none>" : joined(parts);
}

// formatHosts: the first three hosts the rules name, "*" when none does; "+ n more..." counts the
// rules past three once three hosts are shown and another rule follows.
std::string ingress_hosts(const Json& ingress) {
  const Json& rules = at(ingress, "/spec/rules");
  std::vector<std::string> hosts;
  bool more = false;
  if (rules.is_array()) {
    for (const Json& rule : rules) {
      more = more || hosts.size() == 3;
      if (const std::string host = string_at(rule, "/host"); !more && !host.empty()) hosts.push_back(host);
    }
  }
  if (hosts.empty()) return "*";
  return more ? joined(hosts) + " + " + std::to_string(rules.size() - 3) + " more..." : joined(hosts);
}

std::string host_port(const std::string& ip, std::int64_t port) {
  const std::string host = ip.find(':') != std::string::npos ? "[" + ip + "]" : ip;
  return host + ":" + std::to_string(port);
}

// formatEndpoints: the first three ip:port pairs (an IP alone for a subset without ports).
std::string endpoints_text(const Json& e) {
  const Json& subsets = at(e, "/subsets");
  if (!subsets.is_array() || subsets.empty()) return "<none>";
  std::vector<std::string> shown;
  std::size_t count = 0;
  for (const Json& subset : subsets) {
    const std::vector<std::string> ips = [&] {
      std::vector<std::string> out;
      if (const Json& addresses = at(subset, "/addresses"); addresses.is_array()) {
        for (const Json& a : addresses) out.push_back(string_at(a, "/ip"));
      }
      return out;
    }();
    const Json& ports = at(subset, "/ports");
    const std::size_t port_count = ports.is_array() ? ports.size() : 0;
    for (std::size_t p = 0; p < std::max<std::size_t>(port_count, 1); ++p) {
      count += ips.size();
      for (const std::string& ip : ips) {
        if (shown.size() == 3) break;
        shown.push_back(port_count ? host_port(ip, int_at(ports[p], "/port")) : ip);
      }
    }
  }
  const std::string text = joined(shown);
  return count > 3 ? text + " + " + std::to_string(count - 3) + " more..." : text;
}

std::string slice_ports(const Json& slice) {
  std::vector<std::string> shown;
  const Json& ports = at(slice, "/ports");
  const std::size_t count = ports.is_array() ? ports.size() : 0;
  for (std::size_t i = 0; i < count && i < 3; ++i) {
    if (is_set(ports[i], "/port")) shown.push_back(std::to_string(int_at(ports[i], "/port")));
    else shown.push_back(is_set(ports[i], "/name") ? string_at(ports[i], "/name") : "*");
  }
  return list_with_more(shown, count, 3);
}

std::string slice_endpoints(const Json& slice) {
  std::vector<std::string> shown;
  std::size_t count = 0;
  if (const Json& endpoints = at(slice, "/endpoints"); endpoints.is_array()) {
    for (const Json& e : endpoints) {
      for (const std::string& address : strings_at(e, "/addresses")) {
        if (shown.size() < 3) shown.push_back(address);
        ++count;
      }
    }
  }
  return list_with_more(shown, count, 3);
}

}  // namespace

std::vector<PrinterColumn> service_columns() {
  std::vector<PrinterColumn> columns{name_column()};
  columns.push_back(text_column("Type", "The type of the service.", 0,
                                [](const Json& s) -> Json { return string_or(s, "/spec/type", "ClusterIP"); }));
  columns.push_back(text_column("Cluster-IP", "The cluster IP of the service.", 0, [](const Json& s) -> Json {
    // spec.clusterIPs[0]; the server keeps clusterIP in it, the local cluster may not have.
    return string_or(s, "/spec/clusterIPs/0", string_or(s, "/spec/clusterIP", "<none>"));
  }));
  columns.push_back(text_column("External-IP", "The external IP of the service.", 0,
                                [](const Json& s) -> Json { return service_external_ip(s); }));
  columns.push_back(
      text_column("Port(s)", "The ports of the service.", 0, [](const Json& s) -> Json { return service_ports(s); }));
  columns.push_back(age_column());
  columns.push_back(text_column("Selector",
                                "Route service traffic to pods with label keys and values matching this selector.", 1,
                                [](const Json& s) -> Json { return format_labels(at(s, "/spec/selector")); }));
  return columns;
}

std::vector<PrinterColumn> ingress_columns() {
  std::vector<PrinterColumn> columns{name_column()};
  columns.push_back(text_column("Class", "The IngressClass of the ingress.", 0, [](const Json& i) -> Json {
    return is_set(i, "/spec/ingressClassName") ? string_at(i, "/spec/ingressClassName") : "<none>";
  }));
  columns.push_back(
      text_column("Hosts", "The hosts the rules match.", 0, [](const Json& i) -> Json { return ingress_hosts(i); }));
  columns.push_back(text_column("Address", "The load balancer's addresses.", 0,
                                [](const Json& i) -> Json { return load_balancer_addresses(i); }));
  columns.push_back(text_column("Ports", "The ports served: 80, and 443 with TLS.", 0,
                                [](const Json& i) -> Json { return size_at(i, "/spec/tls") ? "80, 443" : "80"; }));
  columns.push_back(age_column());
  return columns;
}

std::vector<PrinterColumn> endpoints_columns() {
  std::vector<PrinterColumn> columns{name_column()};
  columns.push_back(text_column("Endpoints", "The first addresses and ports.", 0,
                                [](const Json& e) -> Json { return endpoints_text(e); }));
  columns.push_back(age_column());
  return columns;
}

std::vector<PrinterColumn> endpoint_slice_columns() {
  std::vector<PrinterColumn> columns{name_column()};
  columns.push_back(text_column("AddressType", "The type of the addresses.", 0,
                                [](const Json& s) -> Json { return string_at(s, "/addressType"); }));
  columns.push_back(text_column("Ports", "The first ports.", 0, [](const Json& s) -> Json { return slice_ports(s); }));
  columns.push_back(
      text_column("Endpoints", "The first addresses.", 0, [](const Json& s) -> Json { return slice_endpoints(s); }));
  columns.push_back(age_column());
  return columns;
}

}  // namespace rr::apiserver_detail
