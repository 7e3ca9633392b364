// core/v1 Endpoints (pkg/apis/core/validation ValidateEndpoints): subsets with addresses, valid and
// not special IPs, hostnames, node names, and ports. The same checks on create and update.
#include <string>

#include "core_kinds.hpp"
#include "ip_address.hpp"
#include "kind_util.hpp"
#include "rr/validation/names.hpp"
#include "rr/validation/ports.hpp"

namespace rr::validation::detail {
namespace {

void endpoint_address(ErrorList& errs, const Json& address, const std::string& path) {
  const std::string_view ip = string_member(address, "ip");
  const std::string ip_path = child(path, "ip");
  if (!parse_ip_sloppy(ip)) errs.push_back(invalid(ip_path, ip, std::string(kInvalidIpMessage)));
  const std::string_view hostname = string_member(address, "hostname");
  if (!hostname.empty()) invalid_each(errs, child(path, "hostname"), hostname, is_dns1123_label(hostname));
  if (const Json* node = member(address, "nodeName"); node && node->is_string()) {
    invalid_each(errs, child(path, "nodeName"), node->get<std::string>(), is_dns1123_subdomain(node->get<std::string>()));
  }
  // Checked even when the syntax check failed: an invalid IP is reported twice, as upstream does.
  non_special_ip(errs, ip, ip_path);
}

void endpoint_port(ErrorList& errs, const Json& port, bool require_name, const std::string& path) {
  const std::string_view name = string_member(port, "name");
  if (require_name && name.empty()) {
    errs.push_back(required(child(path, "name")));
  } else if (!name.empty()) {
    invalid_each(errs, child(path, "name"), name, is_dns1123_label(name));
  }
  const std::int64_t number = int_at(port, "port").value_or(0);
  for (std::string& m : is_valid_port_num(number)) errs.push_back(invalid_int(child(path, "port"), number, std::move(m)));
  const std::string_view protocol = string_member(port, "protocol");
  if (protocol.empty()) {
    errs.push_back(required(child(path, "protocol")));
  } else if (protocol != "SCTP" && protocol != "TCP" && protocol != "UDP") {
    errs.push_back(typed(not_supported(child(path, "protocol"), protocol, {"SCTP", "TCP", "UDP"}), protocol));
  }
  if (const Json* app = member(port, "appProtocol"); app && app->is_string()) {
    invalid_each(errs, child(path, "appProtocol"), app->get<std::string>(), is_qualified_name(app->get<std::string>()));
  }
}

}  // namespace

ErrorList validate_endpoints(const Json& endpoints) {
  ErrorList errs;
  const Json* subsets = array_at(endpoints, "subsets");
  for (std::size_t i = 0; subsets && i < subsets->size(); ++i) {
    const Json& subset = (*subsets)[i];
    const std::string path = index("subsets", i);
    if (size_at(subset, "addresses") == 0 && size_at(subset, "notReadyAddresses") == 0) {
      errs.push_back(required(path, "must specify `addresses` or `notReadyAddresses`"));
    }
    for (const char* list : {"addresses", "notReadyAddresses"}) {
      const Json* addresses = array_at(subset, list);
      for (std::size_t j = 0; addresses && j < addresses->size(); ++j) {
        endpoint_address(errs, (*addresses)[j], index(child(path, list), j));
      }
    }
    const Json* ports = array_at(subset, "ports");
    for (std::size_t j = 0; ports && j < ports->size(); ++j) {
      endpoint_port(errs, (*ports)[j], ports->size() > 1, index(child(path, "ports"), j));
    }
  }
  return errs;
}
ErrorList validate_endpoints_update(const Json& endpoints, const Json&) { return validate_endpoints(endpoints); }

}  // namespace rr::validation::detail
