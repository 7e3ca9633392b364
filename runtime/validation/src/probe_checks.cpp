// Probes, lifecycle handlers and security contexts (pkg/apis/core/validation, 1.35). Probe
// thresholds, HTTP paths and schemes read as their defaults when unset, as after defaulting.
#include <arpa/inet.h>

#include <algorithm>

#include "pod_parts.hpp"
#include "rr/validation/names.hpp"
#include "rr/validation/ports.hpp"

namespace rr::validation::detail {
namespace {

// IsHTTPHeaderName: [-A-Za-z0-9]+
void http_header_name(ErrorList& errs, std::string_view name, const std::string& path) {
  const bool ok = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-';
  });
  if (!ok) {
    errs.push_back(invalid(path, name,
                           "a valid HTTP header must consist of alphanumeric characters or '-' (e.g. "
                           "'X-Header-Name', regex used for validation is '[-A-Za-z0-9]+')"));
  }
}

void http_get(ErrorList& errs, const Json& h, const std::string& path) {
  // path defaults to "/" and scheme to HTTP.
  validate_port_num_or_name(errs, value_at(h, "port"), child(path, "port"));
  const std::string_view scheme = string_member(h, "scheme");
  if (!scheme.empty() && scheme != "HTTP" && scheme != "HTTPS") {
    errs.push_back(not_supported(child(path, "scheme"), scheme, {"HTTP", "HTTPS"}));
  }
  if (const Json& headers = value_at(h, "httpHeaders"); headers.is_array()) {
    for (const Json& header : headers)
      http_header_name(errs, string_member(header, "name"), child(path, "httpHeaders"));
  }
}

// validateHandler: exactly one action; `sleep` only in lifecycle handlers, `grpc` only in probes.
void handler(ErrorList& errs, const Json& h, bool lifecycle, std::optional<std::int64_t> grace,
             const std::string& path) {
  int count = 0;
  const auto one = [&](const char* key) {
    if (!value_at(h, key).is_object()) return false;
    if (count > 0) {
      errs.push_back(forbidden(child(path, key), "may not specify more than 1 handler type"));
      return false;
    }
    ++count;
    return true;
  };
  if (one("exec") && list_size(value_at(h, "exec"), "command") == 0)
    errs.push_back(required(child(path, "exec.command")));
  if (one("httpGet")) http_get(errs, value_at(h, "httpGet"), child(path, "httpGet"));
  if (one("tcpSocket"))
    validate_port_num_or_name(errs, value_at(value_at(h, "tcpSocket"), "port"), child(path, "tcpSocket.port"));
  if (!lifecycle && one("grpc")) {
    const std::int64_t port = int_member(value_at(h, "grpc"), "port").value_or(0);
    for (std::string& m : is_valid_port_num(port))
      errs.push_back(invalid_int(child(path, "grpc.port"), port, std::move(m)));
  }
  if (lifecycle && one("sleep")) {
    const std::int64_t seconds = int_member(value_at(h, "sleep"), "seconds").value_or(0);
    if (grace && (seconds < 0 || seconds > *grace)) {
      errs.push_back(invalid_int(
          child(path, "sleep"), seconds,
          "must be non-negative and less than terminationGracePeriodSeconds (" + std::to_string(*grace) + ")"));
    }
  }
  if (count == 0) errs.push_back(required(path, "must specify a handler type"));
}

std::int64_t defaulted(const Json& probe, std::string_view key, std::int64_t when_zero) {
  const std::int64_t v = int_member(probe, key).value_or(0);
  return v == 0 ? when_zero : v;
}

void id_range(ErrorList& errs, const Json& object, std::string_view key, const std::string& path) {
  if (const auto id = int_member(object, key); id && (*id < 0 || *id > 2147483647)) {
    errs.push_back(invalid_int(path, *id, inclusive_range_error(0, 2147483647)));
  }
}

void seccomp_profile(ErrorList& errs, const Json& sp, const std::string& path) {
  if (!sp.is_object()) return;
  const std::string_view type = string_member(sp, "type");
  if (type.empty()) {
    errs.push_back(required(child(path, "type"), "type is required when seccompProfile is set"));
  } else if (type != "Localhost" && type != "RuntimeDefault" && type != "Unconfined") {
    errs.push_back(not_supported(child(path, "type"), type, {"Localhost", "RuntimeDefault", "Unconfined"}));
  }
  const Json& localhost = value_at(sp, "localhostProfile");
  if (type == "Localhost") {
    if (!localhost.is_string()) {
      errs.push_back(required(child(path, "localhostProfile"), "must be set when seccomp type is Localhost"));
    } else {
      local_descending_path(errs, localhost.get<std::string>(), child(path, "localhostProfile"));
    }
  } else if (!localhost.is_null()) {
    errs.push_back(
        invalid_json(child(path, "localhostProfile"), go_json(sp), "can only be set when seccomp type is Localhost"));
  }
}

}  // namespace

void validate_port_num_or_name(ErrorList& errs, const Json& port, const std::string& path) {
  if (port.is_number_integer()) {
    const std::int64_t n = port.get<std::int64_t>();
    for (std::string& m : is_valid_port_num(n)) errs.push_back(invalid_int(path, n, std::move(m)));
  } else if (port.is_string()) {
    const std::string& s = port.get_ref<const std::string&>();
    for (std::string& m : is_valid_port_name(s)) errs.push_back(invalid(path, s, std::move(m)));
  } else if (port.is_null()) {
    // An unset IntOrString is the integer 0.
    for (std::string& m : is_valid_port_num(0)) errs.push_back(invalid_int(path, 0, std::move(m)));
  }
}

void validate_ip(ErrorList& errs, const Json& value, const std::string& path) {
  const std::string ip = value.is_string() ? value.get<std::string>() : std::string();
  unsigned char buf[16];
  if (inet_pton(AF_INET, ip.c_str(), buf) == 1 || inet_pton(AF_INET6, ip.c_str(), buf) == 1) return;
  errs.push_back(invalid(path, ip, "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"));
}

void validate_lifecycle(ErrorList& errs, const Json& lifecycle, std::optional<std::int64_t> grace,
                        const std::string& path) {
  for (const char* key : {"postStart", "preStop"}) {
    if (const Json& h = value_at(lifecycle, key); h.is_object()) handler(errs, h, true, grace, child(path, key));
  }
}

void validate_probe_of_kind(ErrorList& errs, const Json& probe, std::string_view kind,
                            std::optional<std::int64_t> grace, const std::string& path) {
  if (!probe.is_object()) return;
  handler(errs, probe, false, grace, path);
  nonnegative(errs, probe, "initialDelaySeconds", child(path, "initialDelaySeconds"));
  for (const auto& [key, when_zero] :
       {std::pair{"timeoutSeconds", 1}, {"periodSeconds", 10}, {"successThreshold", 1}, {"failureThreshold", 3}}) {
    if (const std::int64_t v = defaulted(probe, key, when_zero); v < 0) {
      errs.push_back(invalid_int(child(path, key), v, "must be greater than or equal to 0"));
    }
  }
  const auto grace_seconds = int_member(probe, "terminationGracePeriodSeconds");
  if (grace_seconds && *grace_seconds <= 0) {
    errs.push_back(invalid_int(child(path, "terminationGracePeriodSeconds"), *grace_seconds, "must be greater than 0"));
  }
  if (kind == "readiness") {
    if (grace_seconds) {
      errs.push_back(invalid_int(child(path, "terminationGracePeriodSeconds"), *grace_seconds,
                                 "must not be set for readinessProbes"));
    }
  } else if (const std::int64_t success = defaulted(probe, "successThreshold", 1); success != 1) {
    errs.push_back(invalid_int(child(path, "successThreshold"), success, "must be 1"));
  }
}

void validate_container_security_context(ErrorList& errs, const Json& sc, const std::string& path) {
  if (!sc.is_object()) return;
  id_range(errs, sc, "runAsUser", child(path, "runAsUser"));
  id_range(errs, sc, "runAsGroup", child(path, "runAsGroup"));
  if (const std::string_view proc = string_member(sc, "procMount"); is_set(sc, "procMount")) {
    if (proc != "Default" && proc != "Unmasked") {
      errs.push_back(not_supported(child(path, "procMount"), proc, {"Default", "Unmasked"}));
    }
  }
  seccomp_profile(errs, value_at(sc, "seccompProfile"), child(path, "seccompProfile"));
  const Json& escalation = value_at(sc, "allowPrivilegeEscalation");
  if (escalation.is_boolean() && !escalation.get<bool>()) {
    if (bool_member(sc, "privileged")) {
      errs.push_back(
          invalid_json(path, go_json(sc), "cannot set `allowPrivilegeEscalation` to false and `privileged` to true"));
    }
    if (const Json& add = value_at(value_at(sc, "capabilities"), "add"); add.is_array()) {
      for (const Json& cap : add) {
        if (cap == "CAP_SYS_ADMIN") {
          errs.push_back(
              invalid_json(path, go_json(sc),
                           "cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN"));
        }
      }
    }
  }
}

void validate_pod_security_context(ErrorList& errs, const Json& spec, const std::string& path) {
  const Json& sc = value_at(spec, "securityContext");
  if (!sc.is_object()) return;
  id_range(errs, sc, "fsGroup", child(path, "fsGroup"));
  id_range(errs, sc, "runAsUser", child(path, "runAsUser"));
  id_range(errs, sc, "runAsGroup", child(path, "runAsGroup"));
  if (const Json& groups = value_at(sc, "supplementalGroups"); groups.is_array()) {
    for (std::size_t i = 0; i < groups.size(); ++i) {
      if (!groups[i].is_number_integer()) continue;
      const std::int64_t gid = groups[i].get<std::int64_t>();
      if (gid < 0 || gid > 2147483647) {
        errs.push_back(
            invalid_int(index(child(path, "supplementalGroups"), i), gid, inclusive_range_error(0, 2147483647)));
      }
    }
  }
  // hostPID and shareProcessNamespace are pod spec members in v1 (the internal type keeps them in
  // the security context, hence the path).
  if (bool_member(spec, "shareProcessNamespace") && bool_member(spec, "hostPID")) {
    errs.push_back(invalid_json(child(path, "shareProcessNamespace"), "true",
                                "ShareProcessNamespace and HostPID cannot both be enabled"));
  }
  if (const std::string_view policy = string_member(sc, "fsGroupChangePolicy"); is_set(sc, "fsGroupChangePolicy")) {
    if (policy != "OnRootMismatch" && policy != "Always") {
      errs.push_back(not_supported(child(path, "fsGroupChangePolicy"), policy, {"Always", "OnRootMismatch"}));
    }
  }
  seccomp_profile(errs, value_at(sc, "seccompProfile"), child(path, "seccompProfile"));
  if (const std::string_view policy = string_member(sc, "supplementalGroupsPolicy");
      is_set(sc, "supplementalGroupsPolicy")) {
    if (policy != "Merge" && policy != "Strict") {
      errs.push_back(not_supported(child(path, "supplementalGroupsPolicy"), policy, {"Merge", "Strict"}));
    }
  }
}

}  // namespace rr::validation::detail
