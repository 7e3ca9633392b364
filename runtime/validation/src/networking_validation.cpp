// networking.k8s.io/v1 Ingress and NetworkPolicy (pkg/apis/networking/validation).
#include <string>
#include <vector>

#include "core_kinds.hpp"
#include "ip_address.hpp"
#include "kind_util.hpp"
#include "rr/validation/label_selector.hpp"
#include "rr/validation/names.hpp"
#include "rr/validation/ports.hpp"

namespace rr::validation::detail {
namespace {

// IsWildcardDNS1123Subdomain: "*." followed by a DNS subdomain.
Messages wildcard_subdomain_messages(std::string_view host) {
  Messages out;
  if (host.size() > kDNS1123SubdomainMaxLength) out.emplace_back("must be no more than 253 characters");
  if (!host.starts_with("*.") || !is_dns1123_subdomain(host.substr(2)).empty()) {
    out.emplace_back(
        "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of "
        "lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character (e.g. '*.example.com', "
        "regex used for validation is '\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')");
  }
  return out;
}

void host_name(ErrorList& errs, std::string_view host, const std::string& path) {
  if (host.find('*') != std::string_view::npos) {
    invalid_each(errs, path, host, wildcard_subdomain_messages(host));
  } else {
    invalid_each(errs, path, host, is_dns1123_subdomain(host));
  }
}

void typed_reference(ErrorList& errs, const Json& ref, const std::string& path) {
  if (const Json* group = member(ref, "apiGroup"); group && group->is_string()) {
    invalid_each(errs, child(path, "apiGroup"), group->get<std::string>(),
                 is_dns1123_subdomain(group->get<std::string>()));
  }
  kind_and_name(errs, ref, path);
}

void backend(ErrorList& errs, const Json& b, const std::string& path) {
  const Json* resource = object_at(b, "resource");
  const Json* service = object_at(b, "service");
  if (resource && service) return errs.push_back(invalid(path, "", "cannot set both resource and service backends"));
  if (resource) return typed_reference(errs, *resource, child(path, "resource"));
  if (!service) return errs.push_back(invalid(path, "", "resource or service backend is required"));
  const std::string name_path = child(child(path, "service"), "name");
  const std::string_view name = string_member(*service, "name");
  if (name.empty()) {
    errs.push_back(required(name_path));
  } else {
    // A Service name is a DNS-1035 label (RelaxedServiceNameValidation, which allows DNS-1123 labels, is off).
    invalid_each(errs, name_path, name, is_dns1035_label(name));
  }
  const Json& port = value_at(*service, "port");
  const std::string_view port_name = string_member(port, "name");
  const std::int64_t number = int_at(port, "number").value_or(0);
  const std::string port_path = child(child(path, "service"), "port");
  if (!port_name.empty() && number != 0) {
    errs.push_back(invalid(path, "", "cannot set both port name & port number"));
  } else if (!port_name.empty()) {
    invalid_each(errs, child(port_path, "name"), port_name, is_valid_port_name(port_name));
  } else if (number != 0) {
    for (std::string& m : is_valid_port_num(number))
      errs.push_back(invalid_int(child(port_path, "number"), number, std::move(m)));
  } else {
    errs.push_back(required(path, "port name or number is required"));
  }
}

void http_path(ErrorList& errs, const Json& p, const std::string& path) {
  const Json* type = member(p, "pathType");
  if (!type || !type->is_string())
    return errs.push_back(required(child(path, "pathType"), "pathType must be specified"));
  const std::string& t = type->get_ref<const std::string&>();
  const std::string_view value = string_member(p, "path");
  const std::string at = child(path, "path");
  if (t == "Exact" || t == "Prefix") {
    if (!value.starts_with("/")) errs.push_back(invalid(at, value, "must be an absolute path"));
    if (!value.empty()) {
      for (std::string_view seq : {"//", "/./", "/../", "%2f", "%2F"}) {
        if (value.find(seq) != std::string_view::npos) {
          errs.push_back(invalid(at, value, "must not contain '" + std::string(seq) + "'"));
        }
      }
      for (std::string_view suffix : {"/..", "/."}) {
        if (value.ends_with(suffix))
          errs.push_back(invalid(at, value, "cannot end with '" + std::string(suffix) + "'"));
      }
    }
  } else if (t == "ImplementationSpecific") {
    if (!value.empty() && !value.starts_with("/")) errs.push_back(invalid(at, value, "must be an absolute path"));
  } else {
    errs.push_back(typed(not_supported(child(path, "pathType"), t, {"Exact", "ImplementationSpecific", "Prefix"}), t));
  }
  backend(errs, value_at(p, "backend"), child(path, "backend"));
}

// The rules of a wildcard host that were invalid before are kept acceptable on update.
bool rule_value_invalid(const Json& rule) {
  ErrorList errs;
  const Json* http = object_at(rule, "http");
  if (!http) return false;
  if (size_at(*http, "paths") == 0) return true;
  for (const Json& p : value_at(*http, "paths")) http_path(errs, p, "");
  return !errs.empty();
}

struct IngressOptions {
  bool allow_invalid_secret_name = false;
  bool allow_invalid_wildcard_host_rule = false;
};

ErrorList ingress_spec(const Json& spec, const IngressOptions& opts) {
  ErrorList errs;
  const Json* rules = array_at(spec, "rules");
  const bool has_default = object_at(spec, "defaultBackend") != nullptr;
  if ((!rules || rules->empty()) && !has_default) {
    errs.push_back(invalid_json("spec", rules ? "[]" : "null", "either `defaultBackend` or `rules` must be specified"));
  }
  if (has_default) backend(errs, value_at(spec, "defaultBackend"), "spec.defaultBackend");
  for (std::size_t i = 0; rules && i < rules->size(); ++i) {
    const Json& rule = (*rules)[i];
    const std::string path = index("spec.rules", i);
    const std::string_view host = string_member(rule, "host");
    bool wildcard = false;
    if (!host.empty()) {
      if (parse_ip_sloppy(host))
        errs.push_back(invalid(child(path, "host"), host, "must be a DNS name, not an IP address"));
      wildcard = host.find('*') != std::string_view::npos;
      host_name(errs, host, child(path, "host"));
    }
    if (wildcard && opts.allow_invalid_wildcard_host_rule) continue;
    if (const Json* http = object_at(rule, "http")) {
      const std::string http_at = child(path, "http");
      if (size_at(*http, "paths") == 0) errs.push_back(required(child(http_at, "paths")));
      if (const Json* paths = array_at(*http, "paths")) {
        for (std::size_t j = 0; j < paths->size(); ++j) http_path(errs, (*paths)[j], index(child(http_at, "paths"), j));
      }
    }
  }
  if (const Json* tls = array_at(spec, "tls")) {
    for (std::size_t i = 0; i < tls->size(); ++i) {
      const std::string path = index("spec.tls", i);
      const std::vector<std::string> hosts = string_list(value_at((*tls)[i], "hosts"));
      for (std::size_t j = 0; j < hosts.size(); ++j) host_name(errs, hosts[j], index(child(path, "hosts"), j));
      const std::string_view secret = string_member((*tls)[i], "secretName");
      if (!opts.allow_invalid_secret_name && !secret.empty()) {
        invalid_each(errs, child(path, "secretName"), secret, is_dns1123_subdomain(secret));
      }
    }
  }
  if (const Json* cls = member(spec, "ingressClassName"); cls && cls->is_string()) {
    invalid_each(errs, "spec.ingressClassName", cls->get<std::string>(), is_dns1123_subdomain(cls->get<std::string>()));
  }
  return errs;
}

void network_policy_port(ErrorList& errs, const Json& port, const std::string& path) {
  if (const Json* protocol = member(port, "protocol"); protocol && protocol->is_string()) {
    const std::string& p = protocol->get_ref<const std::string&>();
    if (p != "TCP" && p != "UDP" && p != "SCTP") {
      errs.push_back(typed(not_supported(child(path, "protocol"), p, {"TCP", "UDP", "SCTP"}), p));
    }
  }
  const Json* number = member(port, "port");
  const auto end_port = int_at(port, "endPort");
  const std::string end_path = child(path, "endPort");
  if (number && number->is_number_integer()) {
    const std::int64_t n = number->get<std::int64_t>();
    for (std::string& m : is_valid_port_num(n)) errs.push_back(invalid_int(child(path, "port"), n, std::move(m)));
    if (end_port) {
      if (*end_port < n) errs.push_back(invalid_int(end_path, *end_port, "must be greater than or equal to `port`"));
      for (std::string& m : is_valid_port_num(*end_port))
        errs.push_back(invalid_int(end_path, *end_port, std::move(m)));
    }
  } else if (number && number->is_string()) {
    if (end_port) errs.push_back(invalid_int(end_path, *end_port, "may not be specified when `port` is non-numeric"));
    invalid_each(errs, child(path, "port"), number->get<std::string>(), is_valid_port_name(number->get<std::string>()));
  } else if (end_port) {
    errs.push_back(invalid_int(end_path, *end_port, "may not be specified when `port` is not specified"));
  }
}

// A CIDR of the old policy stays acceptable (IsValidCIDRForLegacyField's allow list).
void policy_cidr(ErrorList& errs, std::string_view value, const std::string& path,
                 const std::vector<std::string>& allowed) {
  for (const std::string& a : allowed) {
    if (a == value) return;
  }
  if (!is_cidr_sloppy(value)) errs.push_back(invalid(path, value, std::string(kInvalidCidrMessage)));
}

void ip_block(ErrorList& errs, const Json& block, const std::string& path, const std::vector<std::string>& allowed) {
  const std::string_view value = string_member(block, "cidr");
  if (value.empty()) return errs.push_back(required(child(path, "cidr")));
  policy_cidr(errs, value, child(path, "cidr"), allowed);
  const auto net = parse_cidr_sloppy(value);
  if (!net) return;
  const std::vector<std::string> except = string_list(value_at(block, "except"));
  for (std::size_t i = 0; i < except.size(); ++i) {
    const std::string at = index(child(path, "except"), i);
    policy_cidr(errs, except[i], at, allowed);
    const auto sub = parse_cidr_sloppy(except[i]);
    if (!sub) continue;
    if (!net->contains(sub->network) || net->prefix >= sub->prefix) {
      errs.push_back(invalid(at, except[i], "must be a strict subset of `cidr`"));
    }
  }
}

void peer(ErrorList& errs, const Json& p, const std::string& path, const std::vector<std::string>& allowed) {
  int peers = 0;
  for (const char* selector : {"podSelector", "namespaceSelector"}) {
    if (const Json* s = object_at(p, selector)) {
      ++peers;
      append(errs, validate_label_selector(*s, child(path, selector)));
    }
  }
  const Json* block = object_at(p, "ipBlock");
  if (block) {
    ++peers;
    ip_block(errs, *block, child(path, "ipBlock"), allowed);
  }
  if (peers == 0) {
    errs.push_back(required(path, "must specify a peer"));
  } else if (peers > 1 && block) {
    errs.push_back(forbidden(path, "may not specify both ipBlock and another peer"));
  }
}

ErrorList network_policy_spec(const Json& spec, const std::vector<std::string>& allowed_cidrs) {
  ErrorList errs;
  append(errs, validate_label_selector(value_at(spec, "podSelector"), "spec.podSelector"));
  for (const auto& [rules_key, peers_key] : {std::pair{"ingress", "from"}, std::pair{"egress", "to"}}) {
    const Json* rules = array_at(spec, rules_key);
    for (std::size_t i = 0; rules && i < rules->size(); ++i) {
      const std::string path = index(child("spec", rules_key), i);
      if (const Json* ports = array_at((*rules)[i], "ports")) {
        for (std::size_t j = 0; j < ports->size(); ++j)
          network_policy_port(errs, (*ports)[j], index(child(path, "ports"), j));
      }
      if (const Json* peers = array_at((*rules)[i], peers_key)) {
        for (std::size_t j = 0; j < peers->size(); ++j)
          peer(errs, (*peers)[j], index(child(path, peers_key), j), allowed_cidrs);
      }
    }
  }
  const std::vector<std::string> types = string_list(value_at(spec, "policyTypes"));
  if (types.size() > 2) {
    errs.push_back(
        invalid_json("spec.policyTypes", go_json_string_list(types), "may not specify more than two policyTypes"));
    return errs;
  }
  for (std::size_t i = 0; i < types.size(); ++i) {
    if (types[i] != "Ingress" && types[i] != "Egress") {
      errs.push_back(typed(not_supported(index("spec.policyTypes", i), types[i], {"Ingress", "Egress"}), types[i]));
    }
  }
  return errs;
}

}  // namespace

ErrorList validate_ingress(const Json& ingress) {
  ErrorList errs = ingress_spec(value_at(ingress, "spec"), {});
  const Json& annotations = value_at(value_at(ingress, "metadata"), "annotations");
  const Json* annotation = member(annotations, "kubernetes.io/ingress.class");
  const Json* cls = member(value_at(ingress, "spec"), "ingressClassName");
  if (annotation && annotation->is_string() && cls && cls->is_string() && *annotation != *cls) {
    errs.push_back(invalid("annotations.kubernetes.io/ingress.class", annotation->get<std::string>(),
                           "must match `ingressClassName` when both are specified"));
  }
  return errs;
}

ErrorList validate_ingress_update(const Json& ingress, const Json& old) {
  IngressOptions opts;
  const Json& old_spec = value_at(old, "spec");
  for (const Json& tls : value_at(old_spec, "tls")) {
    const std::string_view secret = string_member(tls, "secretName");
    if (!secret.empty() && !is_dns1123_subdomain(secret).empty()) opts.allow_invalid_secret_name = true;
  }
  for (const Json& rule : value_at(old_spec, "rules")) {
    if (string_member(rule, "host").find('*') != std::string_view::npos && rule_value_invalid(rule)) {
      opts.allow_invalid_wildcard_host_rule = true;
    }
  }
  return ingress_spec(value_at(ingress, "spec"), opts);
}

ErrorList validate_network_policy(const Json& policy) { return network_policy_spec(value_at(policy, "spec"), {}); }

ErrorList validate_network_policy_update(const Json& policy, const Json& old) {
  std::vector<std::string> existing;
  const Json& old_spec = value_at(old, "spec");
  for (const auto& [rules_key, peers_key] : {std::pair{"ingress", "from"}, std::pair{"egress", "to"}}) {
    for (const Json& rule : value_at(old_spec, rules_key)) {
      for (const Json& p : value_at(rule, peers_key)) {
        const Json& block = value_at(p, "ipBlock");
        if (!block.is_object()) continue;
        existing.emplace_back(string_member(block, "cidr"));
        for (std::string& e : string_list(value_at(block, "except"))) existing.push_back(std::move(e));
      }
    }
  }
  return network_policy_spec(value_at(policy, "spec"), existing);
}

}  // namespace rr::validation::detail
