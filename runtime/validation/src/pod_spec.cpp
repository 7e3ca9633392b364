// ValidatePodSpec (pkg/apis/core/validation, 1.35) over a v1 PodSpec as JSON, in upstream's order:
// volumes, containers, init and ephemeral containers, then the pod-level fields.
#include <set>
#include <utility>
#include <vector>

#include "pod_parts.hpp"
#include "rr/validation/label_selector.hpp"
#include "rr/validation/names.hpp"
#include "rr/validation/object_meta.hpp"

namespace rr::validation::detail {
namespace {

using NameSet = std::set<std::string, std::less<>>;

// checkHostPortConflicts: "<protocol>/<hostIP>/<hostPort>" once across `containers`.
void host_port_conflicts(ErrorList& errs, const Json& containers, std::size_t only, const std::string& path) {
  NameSet seen;
  for (std::size_t c = 0; c < containers.size(); ++c) {
    if (only != SIZE_MAX && c != only) continue;
    const Json& ports = value_at(containers[c], "ports");
    if (!ports.is_array()) continue;
    for (std::size_t p = 0; p < ports.size(); ++p) {
      const std::int64_t host_port = int_member(ports[p], "hostPort").value_or(0);
      if (host_port == 0) continue;
      std::string_view protocol = string_member(ports[p], "protocol");
      if (protocol.empty()) protocol = "TCP";
      const std::string key = std::string(protocol) + "/" + std::string(string_member(ports[p], "hostIP")) + "/" +
                              std::to_string(host_port);
      // The index is the container's within the list given (a single init container is index 0).
      const std::size_t shown = only == SIZE_MAX ? c : 0;
      if (seen.contains(key)) {
        errs.push_back(duplicate(child(index(child(index(path, shown), "ports"), p), "hostPort"), key));
      } else {
        seen.insert(key);
      }
    }
  }
}

void containers(ErrorList& errs, const Json& list, const VolumeMap& volumes, std::optional<std::int64_t> grace,
                std::string_view restart, const std::string& path) {
  if (!list.is_array() || list.empty()) {
    errs.push_back(required(path));
    return;
  }
  NameSet names;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const Json& ctr = list[i];
    const std::string at_i = index(path, i);
    validate_container_common(errs, ctr, volumes, at_i, restart);
    const std::string_view name = string_member(ctr, "name");
    if (names.contains(name)) {
      errs.push_back(duplicate(child(at_i, "name"), name));
    } else {
      names.insert(std::string(name));
    }
    if (const Json& lc = value_at(ctr, "lifecycle"); lc.is_object())
      validate_lifecycle(errs, lc, grace, child(at_i, "lifecycle"));
    validate_probe_of_kind(errs, value_at(ctr, "livenessProbe"), "liveness", grace, child(at_i, "livenessProbe"));
    validate_probe_of_kind(errs, value_at(ctr, "readinessProbe"), "readiness", grace, child(at_i, "readinessProbe"));
    validate_probe_of_kind(errs, value_at(ctr, "startupProbe"), "startup", grace, child(at_i, "startupProbe"));
    if (is_set(ctr, "restartPolicy"))
      errs.push_back(forbidden(child(at_i, "restartPolicy"), "may not be set for non-init containers"));
  }
  host_port_conflicts(errs, list, SIZE_MAX, path);
}

void init_containers(ErrorList& errs, const Json& list, const Json& regular, const VolumeMap& volumes,
                     std::optional<std::int64_t> grace, std::string_view restart, const std::string& path) {
  if (!list.is_array()) return;
  NameSet names;
  if (regular.is_array()) {
    for (const Json& c : regular) names.insert(std::string(string_member(c, "name")));
  }
  for (std::size_t i = 0; i < list.size(); ++i) {
    const Json& ctr = list[i];
    const std::string at_i = index(path, i);
    validate_container_common(errs, ctr, volumes, at_i, restart);
    bool restart_always = false;
    if (const Json& policy = value_at(ctr, "restartPolicy"); policy.is_string()) {
      const std::string& p = policy.get_ref<const std::string&>();
      if (p != "Always") errs.push_back(not_supported(child(at_i, "restartPolicy"), p, {"Always"}));
      restart_always = p == "Always";
    }
    const std::string_view name = string_member(ctr, "name");
    if (names.contains(name)) {
      errs.push_back(duplicate(child(at_i, "name"), name));
    } else if (!name.empty()) {
      names.insert(std::string(name));
    }
    host_port_conflicts(errs, list, i, path);
    if (restart_always) {
      if (const Json& lc = value_at(ctr, "lifecycle"); lc.is_object())
        validate_lifecycle(errs, lc, grace, child(at_i, "lifecycle"));
      validate_probe_of_kind(errs, value_at(ctr, "livenessProbe"), "liveness", grace, child(at_i, "livenessProbe"));
      validate_probe_of_kind(errs, value_at(ctr, "readinessProbe"), "readiness", grace, child(at_i, "readinessProbe"));
      validate_probe_of_kind(errs, value_at(ctr, "startupProbe"), "startup", grace, child(at_i, "startupProbe"));
    } else {
      for (const char* key : {"lifecycle", "livenessProbe", "readinessProbe", "startupProbe"}) {
        if (is_set(ctr, key)) {
          errs.push_back(
              forbidden(child(at_i, key), "may not be set for init containers without restartPolicy=Always"));
        }
      }
    }
  }
}

// A member an ephemeral container may not set, set to something other than its zero value.
bool set_to_something(const Json& v) {
  if (v.is_null()) return false;
  if ((v.is_object() || v.is_array()) && v.empty()) return false;
  return true;
}

void ephemeral_containers(ErrorList& errs, const Json& spec, const VolumeMap& volumes, std::string_view restart,
                          const std::string& path) {
  const Json& list = value_at(spec, "ephemeralContainers");
  if (!list.is_array() || list.empty()) return;
  NameSet others;
  for (const char* key : {"containers", "initContainers"}) {
    if (const Json& l = value_at(spec, key); l.is_array()) {
      for (const Json& c : l) others.insert(std::string(string_member(c, "name")));
    }
  }
  NameSet all = others;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const Json& ec = list[i];
    const std::string at_i = index(path, i);
    validate_container_common(errs, ec, volumes, at_i, restart);
    const std::string_view image = string_member(ec, "image");
    if (!image.empty() &&
        (image.front() == ' ' || image.back() == ' ' || image.front() == '\t' || image.back() == '\t')) {
      errs.push_back(invalid(child(at_i, "image"), image, "must not have leading or trailing whitespace"));
    }
    const std::string_view name = string_member(ec, "name");
    if (all.contains(name)) {
      errs.push_back(duplicate(child(at_i, "name"), name));
    } else {
      all.insert(std::string(name));
    }
    const std::string_view target = string_member(ec, "targetContainerName");
    if (!target.empty() && !others.contains(target))
      errs.push_back(not_found(child(at_i, "targetContainerName"), target));
    // Upstream's allow list, in the order of the Go struct's fields.
    for (const char* key : {"ports", "resources", "resizePolicy", "restartPolicy", "livenessProbe", "readinessProbe",
                            "startupProbe", "lifecycle"}) {
      if (set_to_something(value_at(ec, key))) {
        errs.push_back(forbidden(child(at_i, key), "cannot be set for an Ephemeral Container"));
      }
    }
    if (const Json& mounts = value_at(ec, "volumeMounts"); mounts.is_array()) {
      for (std::size_t m = 0; m < mounts.size(); ++m) {
        for (const char* key : {"subPath", "subPathExpr"}) {
          if (!string_member(mounts[m], key).empty()) {
            errs.push_back(forbidden(child(index(child(at_i, "volumeMounts"), m), key),
                                     "cannot be set for an Ephemeral Container"));
          }
        }
      }
    }
  }
}

void names_of(ErrorList& errs, const Json& spec, std::string_view key, NameRule rule, const std::string& path) {
  const std::string_view value = string_member(spec, key);
  if (value.empty()) return;
  for (std::string& m : name_messages(rule, value, false))
    errs.push_back(invalid(child(path, key), value, std::move(m)));
}

void dns_config(ErrorList& errs, const Json& spec, std::string_view dns_policy, const std::string& path) {
  const Json& config = value_at(spec, "dnsConfig");
  if (dns_policy == "None") {
    if (!config.is_object()) {
      errs.push_back(required(path, "must provide `dnsConfig` when `dnsPolicy` is None"));
      return;
    }
    if (list_size(config, "nameservers") == 0) {
      errs.push_back(
          required(child(path, "nameservers"), "must provide at least one DNS nameserver when `dnsPolicy` is None"));
      return;
    }
  }
  if (!config.is_object()) return;
  const Json& servers = value_at(config, "nameservers");
  if (servers.is_array()) {
    if (servers.size() > 3) {
      errs.push_back(
          invalid_json(child(path, "nameservers"), go_json(servers), "must not have more than 3 nameservers"));
    }
    for (std::size_t i = 0; i < servers.size(); ++i)
      validate_ip(errs, servers[i], index(child(path, "nameservers"), i));
  }
  const Json& searches = value_at(config, "searches");
  if (searches.is_array()) {
    if (searches.size() > 32) {
      errs.push_back(
          invalid_json(child(path, "searches"), go_json(searches), "must not have more than 32 search paths"));
    }
    std::size_t chars = searches.empty() ? 0 : searches.size() - 1;
    for (const Json& s : searches) chars += s.is_string() ? s.get_ref<const std::string&>().size() : 0;
    if (chars > 2048) {
      errs.push_back(invalid_json(child(path, "searches"), go_json(searches),
                                  "must not have more than 2048 characters (including spaces) in the search list"));
    }
    // RelaxedDNSSearchValidation (GA in 1.34): '.' alone is allowed, underscores too.
    for (std::size_t i = 0; i < searches.size(); ++i) {
      if (!searches[i].is_string()) continue;
      std::string search = searches[i].get<std::string>();
      if (search == ".") continue;
      if (search.ends_with('.')) search.pop_back();
      std::string masked = search;
      for (char& c : masked) c = c == '_' ? 'a' : c;
      if (!is_dns1123_subdomain(masked).empty()) {
        errs.push_back(
            invalid(index(child(path, "searches"), i), search,
                    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-', "
                    "'_' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', "
                    "regex used for validation is '[a-z0-9_]([-a-z0-9_]*[a-z0-9_])?(\\.[a-z0-9_]([-a-z0-9_]*"
                    "[a-z0-9_])?)*')"));
      }
    }
  }
  if (const Json& options = value_at(config, "options"); options.is_array()) {
    for (std::size_t i = 0; i < options.size(); ++i) {
      if (string_member(options[i], "name").empty())
        errs.push_back(required(index(child(path, "options"), i), "must not be empty"));
    }
  }
}

// validateTopologySpreadConstraints (matchLabelKeys aside).
void topology_spread_constraints(ErrorList& errs, const Json& list, const std::string& path) {
  if (!list.is_array()) return;
  NameSet later_pairs;  // {topologyKey, whenUnsatisfiable} of the constraints after this one
  std::vector<std::string> pairs;
  for (const Json& c : list) {
    pairs.push_back("{" + std::string(string_member(c, "topologyKey")) + ", " +
                    std::string(string_member(c, "whenUnsatisfiable")) + "}");
  }
  std::vector<bool> repeated(list.size(), false);
  for (std::size_t i = list.size(); i-- > 0;) {
    repeated[i] = later_pairs.contains(pairs[i]);
    later_pairs.insert(pairs[i]);
  }
  for (std::size_t i = 0; i < list.size(); ++i) {
    const Json& c = list[i];
    const std::string at_i = index(path, i);
    const std::int64_t skew = int_member(c, "maxSkew").value_or(0);
    if (skew <= 0) errs.push_back(invalid_int(child(at_i, "maxSkew"), skew, "must be greater than zero"));
    if (string_member(c, "topologyKey").empty())
      errs.push_back(required(child(at_i, "topologyKey"), "can not be empty"));
    const std::string_view action = string_member(c, "whenUnsatisfiable");
    if (action != "DoNotSchedule" && action != "ScheduleAnyway") {
      errs.push_back(not_supported(child(at_i, "whenUnsatisfiable"), action, {"DoNotSchedule", "ScheduleAnyway"}));
    }
    if (repeated[i]) errs.push_back(duplicate(child(at_i, "{topologyKey, whenUnsatisfiable}"), pairs[i]));
    if (const auto min_domains = int_member(c, "minDomains")) {
      if (*min_domains <= 0)
        errs.push_back(invalid_int(child(at_i, "minDomains"), *min_domains, "must be greater than zero"));
      if (action != "DoNotSchedule") {
        errs.push_back(
            invalid_int(child(at_i, "minDomains"), *min_domains,
                        "can only use minDomains if whenUnsatisfiable=DoNotSchedule, not " + std::string(action)));
      }
    }
    for (const char* key : {"nodeAffinityPolicy", "nodeTaintsPolicy"}) {
      const Json& policy = value_at(c, key);
      if (!policy.is_string()) continue;
      const std::string& p = policy.get_ref<const std::string&>();
      if (p != "Honor" && p != "Ignore") errs.push_back(not_supported(child(at_i, key), p, {"Honor", "Ignore"}));
    }
    append(errs, validate_label_selector(value_at(c, "labelSelector"), child(at_i, "labelSelector")));
  }
}

}  // namespace

void validate_tolerations(ErrorList& errs, const Json& list, const std::string& path) {
  if (!list.is_array()) return;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const Json& t = list[i];
    const std::string at_i = index(path, i);
    const std::string_view key = string_member(t, "key");
    const std::string_view op = string_member(t, "operator");
    const std::string_view effect = string_member(t, "effect");
    if (!key.empty()) {
      for (std::string& m : is_qualified_name(key)) errs.push_back(invalid(child(at_i, "key"), key, std::move(m)));
    }
    if (key.empty() && op != "Exists") {
      errs.push_back(
          invalid(child(at_i, "operator"), op,
                  "operator must be Exists when `key` is empty, which means \"match all values and all keys\""));
    }
    if (is_set(t, "tolerationSeconds") && effect != "NoExecute") {
      errs.push_back(
          invalid(child(at_i, "effect"), effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"));
    }
    const std::string_view value = string_member(t, "value");
    if (op.empty() || op == "Equal") {
      Messages msgs = is_valid_label_value(value);
      if (!msgs.empty()) {
        std::string joined;
        for (const std::string& m : msgs) joined += (joined.empty() ? "" : ";") + m;
        errs.push_back(invalid(child(at_i, "operator"), value, joined));
      }
    } else if (op == "Exists") {
      if (!value.empty())
        errs.push_back(invalid(child(at_i, "operator"), value, "value must be empty when `operator` is 'Exists'"));
    } else {
      errs.push_back(not_supported(child(at_i, "operator"), op, {"Equal", "Exists"}));
    }
    if (!effect.empty() && effect != "NoSchedule" && effect != "PreferNoSchedule" && effect != "NoExecute") {
      errs.push_back(not_supported(child(at_i, "effect"), effect, {"NoSchedule", "PreferNoSchedule", "NoExecute"}));
    }
  }
}

ErrorList validate_pod_spec(const Json& spec, const std::string& path, const PodSpecContext& context) {
  ErrorList errs;
  if (!spec.is_object()) {
    // A missing spec decodes to the zero PodSpec: no containers.
    errs.push_back(required(child(path, "containers")));
    return errs;
  }
  const std::optional<std::int64_t> grace = int_member(spec, "terminationGracePeriodSeconds").value_or(30);
  const std::string_view restart = restart_policy_of(spec);
  const VolumeMap volumes = validate_volumes(errs, value_at(spec, "volumes"), child(path, "volumes"), context.pod_name);
  containers(errs, value_at(spec, "containers"), volumes, grace, restart, child(path, "containers"));
  init_containers(errs, value_at(spec, "initContainers"), value_at(spec, "containers"), volumes, grace, restart,
                  child(path, "initContainers"));
  ephemeral_containers(errs, spec, volumes, restart, child(path, "ephemeralContainers"));

  // validatePodHostNetworkDeps: a Pod's unset hostPort is defaulted to the containerPort.
  if (bool_member(spec, "hostNetwork")) {
    if (const Json& list = value_at(spec, "containers"); list.is_array()) {
      for (std::size_t c = 0; c < list.size(); ++c) {
        const Json& ports = value_at(list[c], "ports");
        if (!ports.is_array()) continue;
        for (std::size_t p = 0; p < ports.size(); ++p) {
          const std::int64_t hp = int_member(ports[p], "hostPort").value_or(0);
          const std::int64_t cp = int_member(ports[p], "containerPort").value_or(0);
          if (hp != 0 && hp != cp) {
            errs.push_back(invalid_int(child(index(child(index(child(path, "containers"), c), "ports"), p), "hostPort"),
                                       hp, "must match `containerPort` when `hostNetwork` is true"));
          }
        }
      }
    }
  }
  if (restart != "Always" && restart != "OnFailure" && restart != "Never") {
    errs.push_back(not_supported(child(path, "restartPolicy"), restart, {"Always", "OnFailure", "Never"}));
  }
  std::string_view dns_policy = string_member(spec, "dnsPolicy");
  if (dns_policy.empty()) dns_policy = "ClusterFirst";
  if (dns_policy != "ClusterFirstWithHostNet" && dns_policy != "ClusterFirst" && dns_policy != "Default" &&
      dns_policy != "None") {
    errs.push_back(not_supported(child(path, "dnsPolicy"), dns_policy,
                                 {"ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"}));
  }
  append(errs, validate_labels(value_at(spec, "nodeSelector"), child(path, "nodeSelector")));
  validate_pod_security_context(errs, spec, child(path, "securityContext"));
  validate_affinity(errs, value_at(spec, "affinity"), child(path, "affinity"));
  dns_config(errs, spec, dns_policy, child(path, "dnsConfig"));
  if (const Json& gates = value_at(spec, "readinessGates"); gates.is_array()) {
    for (std::size_t i = 0; i < gates.size(); ++i) {
      const std::string_view type = string_member(gates[i], "conditionType");
      for (std::string& m : is_qualified_name(type)) {
        errs.push_back(invalid(child(index(child(path, "readinessGates"), i), "conditionType"), type, std::move(m)));
      }
    }
  }
  if (const Json& gates = value_at(spec, "schedulingGates"); gates.is_array()) {
    NameSet seen;
    for (std::size_t i = 0; i < gates.size(); ++i) {
      const std::string_view name = string_member(gates[i], "name");
      const std::string at_i = index(child(path, "schedulingGates"), i);
      for (std::string& m : is_qualified_name(name)) errs.push_back(invalid(at_i, name, std::move(m)));
      if (seen.contains(name)) errs.push_back(duplicate(at_i, name));
      seen.insert(std::string(name));
    }
  }
  topology_spread_constraints(errs, value_at(spec, "topologySpreadConstraints"),
                              child(path, "topologySpreadConstraints"));
  const Json& sc = value_at(spec, "securityContext");
  if (const Json& host_users = value_at(sc, "hostUsers"); host_users.is_boolean() && !host_users.get<bool>()) {
    if (bool_member(spec, "hostNetwork"))
      errs.push_back(forbidden(child(path, "hostNetwork"), "when `pod.Spec.HostUsers` is false"));
    if (bool_member(spec, "hostPID"))
      errs.push_back(forbidden(child(path, "HostPID"), "when `pod.Spec.HostUsers` is false"));
    if (bool_member(spec, "hostIPC"))
      errs.push_back(forbidden(child(path, "HostIPC"), "when `pod.Spec.HostUsers` is false"));
  }
  names_of(errs, spec, "serviceAccountName", NameRule::DNSSubdomain, path);
  names_of(errs, spec, "nodeName", NameRule::DNSSubdomain, path);
  if (const auto deadline = int_member(spec, "activeDeadlineSeconds");
      deadline && (*deadline < 1 || *deadline > 2147483647)) {
    errs.push_back(
        invalid_int(child(path, "activeDeadlineSeconds"), *deadline, "must be between 1 and 2147483647, inclusive"));
  }
  for (const char* key : {"hostname", "subdomain"}) {
    const std::string_view value = string_member(spec, key);
    if (value.empty()) continue;
    for (std::string& m : is_dns1123_label(value)) errs.push_back(invalid(child(path, key), value, std::move(m)));
  }
  validate_tolerations(errs, value_at(spec, "tolerations"), child(path, "tolerations"));
  if (const Json& aliases = value_at(spec, "hostAliases"); aliases.is_array()) {
    for (std::size_t i = 0; i < aliases.size(); ++i) {
      const std::string at_i = index(child(path, "hostAliases"), i);
      validate_ip(errs, value_at(aliases[i], "ip"), child(at_i, "ip"));
      if (const Json& names = value_at(aliases[i], "hostnames"); names.is_array()) {
        for (std::size_t j = 0; j < names.size(); ++j) {
          const std::string host = names[j].is_string() ? names[j].get<std::string>() : std::string();
          for (std::string& m : is_dns1123_subdomain(host)) {
            errs.push_back(invalid(index(child(at_i, "hostnames"), j), host, std::move(m)));
          }
        }
      }
    }
  }
  names_of(errs, spec, "priorityClassName", NameRule::DNSSubdomain, path);
  if (const Json& runtime = value_at(spec, "runtimeClassName"); runtime.is_string()) {
    const std::string& name = runtime.get_ref<const std::string&>();
    for (std::string& m : is_dns1123_subdomain(name))
      errs.push_back(invalid(child(path, "runtimeClassName"), name, std::move(m)));
  }
  if (const Json& preemption = value_at(spec, "preemptionPolicy"); preemption.is_string()) {
    const std::string& p = preemption.get_ref<const std::string&>();
    if (p.empty()) {
      errs.push_back(required(child(path, "preemptionPolicy")));
    } else if (p != "PreemptLowerPriority" && p != "Never") {
      errs.push_back(not_supported(child(path, "preemptionPolicy"), p, {"PreemptLowerPriority", "Never"}));
    }
  }
  return errs;
}

}  // namespace rr::validation::detail
