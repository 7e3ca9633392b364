// validateContainerCommon and what it calls (pkg/apis/core/validation, 1.35): ports, env, envFrom,
// volume mounts and devices, pull and termination-message policies, resources, security context.
#include <set>
#include <utility>

#include "pod_parts.hpp"
#include "rr/core/quantity.hpp"
#include "rr/validation/names.hpp"
#include "rr/validation/ports.hpp"

namespace rr::validation::detail {
namespace {

void container_ports(ErrorList& errs, const Json& ports, const std::string& path) {
  if (!ports.is_array()) return;
  std::set<std::string, std::less<>> names;
  for (std::size_t i = 0; i < ports.size(); ++i) {
    const Json& port = ports[i];
    const std::string at_i = index(path, i);
    if (const std::string_view name = string_member(port, "name"); !name.empty()) {
      Messages msgs = is_valid_port_name(name);
      if (!msgs.empty()) {
        for (std::string& m : msgs) errs.push_back(invalid(child(at_i, "name"), name, std::move(m)));
      } else if (names.contains(name)) {
        errs.push_back(duplicate(child(at_i, "name"), name));
      } else {
        names.insert(std::string(name));
      }
    }
    const std::int64_t container_port = int_member(port, "containerPort").value_or(0);
    if (container_port == 0) {
      errs.push_back(required(child(at_i, "containerPort")));
    } else {
      for (std::string& m : is_valid_port_num(container_port)) {
        errs.push_back(invalid_int(child(at_i, "containerPort"), container_port, std::move(m)));
      }
    }
    if (const std::int64_t host_port = int_member(port, "hostPort").value_or(0); host_port != 0) {
      for (std::string& m : is_valid_port_num(host_port)) {
        errs.push_back(invalid_int(child(at_i, "hostPort"), host_port, std::move(m)));
      }
    }
    // An unset protocol is defaulted to TCP.
    const std::string_view protocol = string_member(port, "protocol");
    if (!protocol.empty() && protocol != "TCP" && protocol != "UDP" && protocol != "SCTP") {
      errs.push_back(not_supported(child(at_i, "protocol"), protocol, {"SCTP", "TCP", "UDP"}));
    }
  }
}

// podshelper.ConvertDownwardAPIFieldLabel for v1 and fieldpath.SplitMaybeSubscriptedPath.
bool split_subscript(std::string_view field_path, std::string_view& path, std::string_view& subscript) {
  if (!field_path.ends_with("']")) return false;
  const std::string_view s = field_path.substr(0, field_path.size() - 2);
  const std::size_t open = s.find("['");
  if (open == std::string_view::npos || open == 0) return false;
  path = s.substr(0, open);
  subscript = s.substr(open + 2);
  return true;
}

}  // namespace

void validate_object_field_selector(ErrorList& errs, const Json& fs, const std::set<std::string_view>& allowed,
                                    const std::string& path) {
  std::string_view api_version = string_member(fs, "apiVersion");
  if (api_version.empty()) api_version = "v1";  // defaulted
  const std::string_view field_path = string_member(fs, "fieldPath");
  if (field_path.empty()) {
    errs.push_back(required(child(path, "fieldPath")));
    return;
  }
  const auto conversion_error = [&](const std::string& why) {
    errs.push_back(invalid(child(path, "fieldPath"), field_path, "error converting fieldPath: " + why));
  };
  if (api_version != "v1") return conversion_error("unsupported pod version: " + std::string(api_version));
  std::string_view base;
  std::string_view subscript;
  if (split_subscript(field_path, base, subscript)) {
    if (base != "metadata.annotations" && base != "metadata.labels") {
      return conversion_error("field label does not support subscript: " + std::string(field_path));
    }
    const std::string key = base == "metadata.annotations" ? [&] {
      std::string lower(subscript);
      for (char& c : lower) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
      return lower;
    }()
                                                           : std::string(subscript);
    for (std::string& m : is_qualified_name(key)) errs.push_back(invalid(path, key, std::move(m)));
    return;
  }
  static const std::set<std::string_view> kConvertible = {
      "metadata.annotations", "metadata.labels", "metadata.name",      "metadata.namespace",
      "metadata.uid",         "spec.nodeName",   "spec.restartPolicy", "spec.serviceAccountName",
      "spec.schedulerName",   "status.phase",    "status.hostIP",      "status.hostIPs",
      "status.podIP",         "status.podIPs",   "spec.host"};
  if (!kConvertible.contains(field_path)) {
    return conversion_error("field label not supported: " + std::string(field_path));
  }
  const std::string_view converted = field_path == "spec.host" ? "spec.nodeName" : field_path;
  if (!allowed.contains(converted)) {
    errs.push_back(
        not_supported(child(path, "fieldPath"), converted, std::vector<std::string>(allowed.begin(), allowed.end())));
  }
}

void validate_resource_field_selector(ErrorList& errs, const Json& rf, bool volume, const std::string& path) {
  static const std::set<std::string_view> kResourceFieldPaths = {
      "limits.cpu",   "limits.ephemeral-storage",   "limits.memory",
      "requests.cpu", "requests.ephemeral-storage", "requests.memory"};
  const std::string_view resource = string_member(rf, "resource");
  if (volume && string_member(rf, "containerName").empty()) {
    errs.push_back(required(child(path, "containerName")));
  } else if (resource.empty()) {
    errs.push_back(required(child(path, "resource")));
  } else if (!kResourceFieldPaths.contains(resource) && !resource.starts_with("requests.hugepages-") &&
             !resource.starts_with("limits.hugepages-")) {
    errs.push_back(not_supported(child(path, "resource"), resource,
                                 std::vector<std::string>(kResourceFieldPaths.begin(), kResourceFieldPaths.end())));
  }
}

namespace {

const std::set<std::string_view> kEnvFieldPaths = {
    "metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName",
    "status.hostIP", "status.hostIPs",     "status.podIP", "status.podIPs"};

void key_selector(ErrorList& errs, const Json& s, const std::string& path) {
  const std::string_view name = string_member(s, "name");
  for (std::string& m : is_dns1123_subdomain(name)) errs.push_back(invalid(child(path, "name"), name, std::move(m)));
  const std::string_view key = string_member(s, "key");
  if (key.empty()) {
    errs.push_back(required(child(path, "key")));
  } else {
    for (std::string& m : is_config_map_key(key)) errs.push_back(invalid(child(path, "key"), key, std::move(m)));
  }
}

void env_value_from(ErrorList& errs, const Json& ev, const std::string& path) {
  const Json& from = value_at(ev, "valueFrom");
  if (!from.is_object()) return;
  int sources = 0;
  if (const Json& f = value_at(from, "fieldRef"); f.is_object()) {
    ++sources;
    validate_object_field_selector(errs, f, kEnvFieldPaths, child(path, "fieldRef"));
  }
  if (const Json& r = value_at(from, "resourceFieldRef"); r.is_object()) {
    ++sources;
    validate_resource_field_selector(errs, r, false, child(path, "resourceFieldRef"));
  }
  if (const Json& c = value_at(from, "configMapKeyRef"); c.is_object()) {
    ++sources;
    key_selector(errs, c, child(path, "configMapKeyRef"));
  }
  if (const Json& s = value_at(from, "secretKeyRef"); s.is_object()) {
    ++sources;
    key_selector(errs, s, child(path, "secretKeyRef"));
  }
  if (sources == 0) {
    errs.push_back(
        invalid(path, "", "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`"));
  } else if (!string_member(ev, "value").empty()) {
    errs.push_back(invalid(path, "", "may not be specified when `value` is not empty"));
  } else if (sources > 1) {
    errs.push_back(invalid(path, "", "may not have more than one field specified at a time"));
  }
}

void env(ErrorList& errs, const Json& vars, const std::string& path) {
  if (!vars.is_array()) return;
  for (std::size_t i = 0; i < vars.size(); ++i) {
    const std::string at_i = index(path, i);
    const std::string_view name = string_member(vars[i], "name");
    if (name.empty()) {
      errs.push_back(required(child(at_i, "name")));
    } else {
      for (std::string& m : is_relaxed_env_var_name(name))
        errs.push_back(invalid(child(at_i, "name"), name, std::move(m)));
    }
    env_value_from(errs, vars[i], child(at_i, "valueFrom"));
  }
}

void env_from(ErrorList& errs, const Json& sources, const std::string& path) {
  if (!sources.is_array()) return;
  for (std::size_t i = 0; i < sources.size(); ++i) {
    const Json& ev = sources[i];
    const std::string at_i = index(path, i);
    if (const std::string_view prefix = string_member(ev, "prefix"); !prefix.empty()) {
      for (std::string& m : is_relaxed_env_var_name(prefix)) {
        errs.push_back(invalid(child(at_i, "prefix"), prefix, std::move(m)));
      }
    }
    int count = 0;
    for (const char* ref : {"configMapRef", "secretRef"}) {
      const Json& r = value_at(ev, ref);
      if (!r.is_object()) continue;
      ++count;
      const std::string_view name = string_member(r, "name");
      const std::string name_path = child(child(at_i, ref), "name");
      if (name.empty()) {
        errs.push_back(required(name_path));
      } else {
        for (std::string& m : name_messages(NameRule::DNSSubdomain, name, true)) {
          errs.push_back(invalid(name_path, name, std::move(m)));
        }
      }
    }
    // Upstream names the list, not the entry, in these two findings.
    if (count == 0) errs.push_back(invalid(path, "", "must specify one of: `configMapRef` or `secretRef`"));
    if (count > 1) errs.push_back(invalid(path, "", "may not have more than one field specified at a time"));
  }
}

using StringSet = std::set<std::string, std::less<>>;

// The names and paths of a container's volume mounts or devices (GetVolumeMountMap/DeviceMap).
void names_and_paths(const Json& list, const char* path_key, StringSet& names, StringSet& paths) {
  if (!list.is_array()) return;
  for (const Json& item : list) {
    names.insert(std::string(string_member(item, "name")));
    paths.insert(std::string(string_member(item, path_key)));
  }
}

bool privileged(const Json& container) { return bool_member(value_at(container, "securityContext"), "privileged"); }

void volume_mounts(ErrorList& errs, const Json& mounts, const Json& devices, const VolumeMap& volumes,
                   const Json& container, const std::string& path) {
  if (!mounts.is_array()) return;
  StringSet device_names;
  StringSet device_paths;
  names_and_paths(devices, "devicePath", device_names, device_paths);
  std::set<std::string, std::less<>> mount_points;
  for (std::size_t i = 0; i < mounts.size(); ++i) {
    const Json& mnt = mounts[i];
    const std::string at_i = index(path, i);
    const std::string_view name = string_member(mnt, "name");
    const std::string_view mount_path = string_member(mnt, "mountPath");
    if (name.empty()) errs.push_back(required(child(at_i, "name")));
    const auto volume = volumes.find(name);
    if (volume == volumes.end()) errs.push_back(not_found(child(at_i, "name"), name));
    if (mount_path.empty()) errs.push_back(required(child(at_i, "mountPath")));
    if (mount_points.contains(mount_path))
      errs.push_back(invalid(child(at_i, "mountPath"), mount_path, "must be unique"));
    mount_points.insert(std::string(mount_path));
    if (device_names.contains(name)) {
      errs.push_back(invalid(child(at_i, "name"), name, "must not already exist in volumeDevices"));
    }
    if (device_paths.contains(mount_path)) {
      errs.push_back(
          invalid(child(at_i, "mountPath"), mount_path, "must not already exist as a path in volumeDevices"));
    }
    const std::string_view sub_path = string_member(mnt, "subPath");
    const std::string_view sub_path_expr = string_member(mnt, "subPathExpr");
    if (volume != volumes.end() && volume->second == "image") {
      if (!sub_path.empty())
        errs.push_back(invalid(child(at_i, "subPath"), sub_path, "not allowed in image volume sources"));
      if (!sub_path_expr.empty()) {
        errs.push_back(invalid(child(at_i, "subPathExpr"), sub_path_expr, "not allowed in image volume sources"));
      }
    }
    // Upstream names the list, not the entry, for the sub-path checks.
    if (!sub_path.empty()) local_descending_path(errs, sub_path, child(path, "subPath"));
    if (!sub_path_expr.empty()) {
      if (!sub_path.empty()) {
        errs.push_back(
            invalid(child(at_i, "subPathExpr"), sub_path_expr, "subPathExpr and subPath are mutually exclusive"));
      }
      local_descending_path(errs, sub_path_expr, child(path, "subPathExpr"));
    }
    if (const Json& prop = value_at(mnt, "mountPropagation"); prop.is_string()) {
      const std::string& p = prop.get_ref<const std::string&>();
      if (p != "None" && p != "HostToContainer" && p != "Bidirectional") {
        errs.push_back(not_supported(child(path, "mountPropagation"), p, {"Bidirectional", "HostToContainer", "None"}));
      } else if (p == "Bidirectional" && !privileged(container)) {
        errs.push_back(forbidden(child(path, "mountPropagation"),
                                 "Bidirectional mount propagation is available only to privileged containers"));
      }
    }
  }
}

void volume_devices(ErrorList& errs, const Json& devices, const Json& mounts, const VolumeMap& volumes,
                    const std::string& path) {
  if (!devices.is_array()) return;
  StringSet mount_names;
  StringSet mount_paths;
  names_and_paths(mounts, "mountPath", mount_names, mount_paths);
  std::set<std::string, std::less<>> names;
  std::set<std::string, std::less<>> paths;
  for (std::size_t i = 0; i < devices.size(); ++i) {
    const std::string at_i = index(path, i);
    const std::string_view name = string_member(devices[i], "name");
    const std::string_view device_path = string_member(devices[i], "devicePath");
    const auto volume = volumes.find(name);
    if (name.empty()) errs.push_back(required(child(at_i, "name")));
    if (names.contains(name)) errs.push_back(invalid(child(at_i, "name"), name, "must be unique"));
    if (volume != volumes.end() && volume->second != "persistentVolumeClaim" && volume->second != "ephemeral") {
      errs.push_back(invalid(child(at_i, "name"), name,
                             "can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode"));
    }
    if (volume == volumes.end()) errs.push_back(not_found(child(at_i, "name"), name));
    if (device_path.empty()) errs.push_back(required(child(at_i, "devicePath")));
    if (paths.contains(device_path)) errs.push_back(invalid(child(at_i, "devicePath"), device_path, "must be unique"));
    ErrorList backsteps;
    if (!device_path.empty()) no_backsteps(backsteps, device_path, path);
    if (!backsteps.empty()) {
      errs.push_back(invalid(child(at_i, "devicePath"), device_path, "can not contain backsteps ('..')"));
    } else {
      paths.insert(std::string(device_path));
    }
    if (mount_names.contains(name))
      errs.push_back(invalid(child(at_i, "name"), name, "must not already exist in volumeMounts"));
    if (mount_paths.contains(device_path)) {
      errs.push_back(
          invalid(child(at_i, "devicePath"), device_path, "must not already exist as a path in volumeMounts"));
    }
    if (!name.empty()) names.insert(std::string(name));
  }
}

// helper.IsNativeResource: no domain, or a kubernetes.io one.
bool native_resource(std::string_view name) {
  const std::size_t slash = name.find('/');
  if (slash == std::string_view::npos) return true;
  const std::string_view domain = name.substr(0, slash);
  return domain == "kubernetes.io" || domain.ends_with(".kubernetes.io");
}
bool huge_pages(std::string_view name) { return name.starts_with("hugepages-"); }
// Native resources other than huge pages may be overcommitted (requests below limits).
bool overcommit_allowed(std::string_view name) { return native_resource(name) && !huge_pages(name); }
bool integer_resource(std::string_view name) { return !native_resource(name) || name == "pods"; }

void resource_name(ErrorList& errs, const std::string& name, const std::string& path) {
  for (std::string& m : is_qualified_name(name)) errs.push_back(invalid(path, name, std::move(m)));
  if (name.find('/') == std::string::npos) {
    if (name != "cpu" && name != "memory" && name != "ephemeral-storage" && !huge_pages(name)) {
      errs.push_back(invalid(path, name, "must be a standard resource for containers"));
    }
  } else if (!native_resource(name)) {
    // IsExtendedResourceName: "requests." + name must be a qualified name, and not itself prefixed.
    const std::string quota = "requests." + name;
    if (name.starts_with("requests.") || !is_qualified_name(quota).empty()) {
      errs.push_back(invalid(path, name, "doesn't follow extended resource name standard"));
    }
  }
}

std::optional<std::int64_t> milli(const Json& q) {
  if (q.is_string()) return Quantity(q.get<std::string>()).milli_value();
  if (q.is_number()) return Quantity::from_number(q.dump()).milli_value();
  return std::nullopt;
}
std::string quantity_text(const Json& q) { return q.is_string() ? q.get<std::string>() : q.dump(); }

void quantity_value(ErrorList& errs, const std::string& name, const Json& q, const std::string& path) {
  const auto m = milli(q);
  if (!m) return;  // not a quantity: the decoder's 400
  if (*m < 0) errs.push_back(invalid(path, quantity_text(q), "must be greater than or equal to 0"));
  if (integer_resource(name) && *m % 1000 != 0) errs.push_back(invalid(path, quantity_text(q), "must be an integer"));
}

void resources(ErrorList& errs, const Json& requirements, const std::string& path) {
  const Json& limits = value_at(requirements, "limits");
  const Json& requests = value_at(requirements, "requests");
  const std::string lim_path = child(path, "limits");
  const std::string req_path = child(path, "requests");
  if (limits.is_object()) {
    for (const auto& [name, q] : limits.items()) {
      const std::string at_name = lim_path + "[" + name + "]";
      resource_name(errs, name, at_name);
      quantity_value(errs, name, q, at_name);
    }
  }
  if (!requests.is_object()) return;
  for (const auto& [name, q] : requests.items()) {
    const std::string at_name = req_path + "[" + name + "]";
    resource_name(errs, name, at_name);
    quantity_value(errs, name, q, at_name);
    const Json* limit = member(limits, name);
    if (limit) {
      const auto request_m = milli(q);
      const auto limit_m = milli(*limit);
      if (!request_m || !limit_m) continue;
      if (*request_m != *limit_m && !overcommit_allowed(name)) {
        errs.push_back(
            invalid(req_path, quantity_text(q), "must be equal to " + name + " limit of " + quantity_text(*limit)));
      } else if (*request_m > *limit_m) {
        errs.push_back(invalid(req_path, quantity_text(q),
                               "must be less than or equal to " + name + " limit of " + quantity_text(*limit)));
      }
    } else if (!overcommit_allowed(name)) {
      errs.push_back(required(lim_path, "Limit must be set for non overcommitable resources"));
    }
  }
}

}  // namespace

void validate_container_common(ErrorList& errs, const Json& container, const VolumeMap& volumes,
                               const std::string& path, std::string_view pod_restart_policy) {
  const std::string_view name = string_member(container, "name");
  if (name.empty()) {
    errs.push_back(required(child(path, "name")));
  } else {
    for (std::string& m : is_dns1123_label(name)) errs.push_back(invalid(child(path, "name"), name, std::move(m)));
  }
  if (string_member(container, "image").empty()) errs.push_back(required(child(path, "image")));
  // terminationMessagePolicy and imagePullPolicy are defaulted when unset.
  const std::string_view tmp = string_member(container, "terminationMessagePolicy");
  if (!tmp.empty() && tmp != "File" && tmp != "FallbackToLogsOnError") {
    errs.push_back(not_supported(child(path, "terminationMessagePolicy"), tmp, {"File", "FallbackToLogsOnError"}));
  }
  container_ports(errs, value_at(container, "ports"), child(path, "ports"));
  env(errs, value_at(container, "env"), child(path, "env"));
  env_from(errs, value_at(container, "envFrom"), child(path, "envFrom"));
  volume_mounts(errs, value_at(container, "volumeMounts"), value_at(container, "volumeDevices"), volumes, container,
                child(path, "volumeMounts"));
  volume_devices(errs, value_at(container, "volumeDevices"), value_at(container, "volumeMounts"), volumes,
                 child(path, "volumeDevices"));
  const std::string_view pull = string_member(container, "imagePullPolicy");
  if (!pull.empty() && pull != "Always" && pull != "IfNotPresent" && pull != "Never") {
    errs.push_back(not_supported(child(path, "imagePullPolicy"), pull, {"Always", "IfNotPresent", "Never"}));
  }
  resources(errs, value_at(container, "resources"), child(path, "resources"));
  if (const Json& policies = value_at(container, "resizePolicy"); policies.is_array()) {
    const std::string rp_path = child(path, "resizePolicy");
    std::set<std::string, std::less<>> seen;
    for (std::size_t i = 0; i < policies.size(); ++i) {
      const std::string_view resource = string_member(policies[i], "resourceName");
      const std::string_view restart = string_member(policies[i], "restartPolicy");
      if (seen.contains(resource)) errs.push_back(duplicate(index(rp_path, i), resource));
      seen.insert(std::string(resource));
      if (resource.empty()) {
        errs.push_back(required(rp_path));
      } else if (resource != "cpu" && resource != "memory") {
        errs.push_back(not_supported(rp_path, resource, {"cpu", "memory"}));
      }
      if (restart.empty()) {
        errs.push_back(required(rp_path));
      } else if (restart != "NotRequired" && restart != "RestartContainer") {
        errs.push_back(not_supported(rp_path, restart, {"NotRequired", "RestartContainer"}));
      }
      if (pod_restart_policy == "Never" && restart != "NotRequired") {
        errs.push_back(invalid(rp_path, restart, "must be 'NotRequired' when `restartPolicy` is 'Never'"));
      }
    }
  }
  validate_container_security_context(errs, value_at(container, "securityContext"), child(path, "securityContext"));
}

}  // namespace rr::validation::detail
