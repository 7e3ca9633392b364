// The pieces of ValidatePodSpec, split by subject: containers (container_checks.cpp), volumes
// (volume_checks.cpp) and the pod-level fields (pod_spec.cpp).
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "workload_common.hpp"

namespace rr::validation::detail {

// The volumes that validated, by name, with the key of their source ("emptyDir", "secret", ...).
using VolumeMap = std::map<std::string, std::string, std::less<>>;

VolumeMap validate_volumes(ErrorList& errs, const Json& volumes, const std::string& path, std::string_view pod_name);

// validateContainerCommon: name, image, termination message policy, ports, env, envFrom, volume
// mounts and devices, pull policy, resources and the security context.
void validate_container_common(ErrorList& errs, const Json& container, const VolumeMap& volumes,
                               const std::string& path, std::string_view pod_restart_policy);

// Probes and lifecycle handlers; `grace` is the pod's terminationGracePeriodSeconds.
void validate_lifecycle(ErrorList& errs, const Json& lifecycle, std::optional<std::int64_t> grace,
                        const std::string& path);
// kind: "liveness", "readiness" or "startup".
void validate_probe_of_kind(ErrorList& errs, const Json& probe, std::string_view kind,
                            std::optional<std::int64_t> grace, const std::string& path);

// validateAffinity: node affinity, pod affinity and anti-affinity.
void validate_affinity(ErrorList& errs, const Json& affinity, const std::string& path);

// ValidateTolerations.
void validate_tolerations(ErrorList& errs, const Json& list, const std::string& path);

// validateObjectFieldSelector (a downward API fieldRef; `allowed` the paths the caller accepts) and
// validateContainerResourceFieldSelector (`volume`: a downward API volume file, which names its container).
void validate_object_field_selector(ErrorList& errs, const Json& fs, const std::set<std::string_view>& allowed,
                                    const std::string& path);
void validate_resource_field_selector(ErrorList& errs, const Json& rf, bool volume, const std::string& path);

// ValidatePortNumOrName over an IntOrString JSON value.
void validate_port_num_or_name(ErrorList& errs, const Json& port, const std::string& path);

// IsValidIP's finding ("must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)").
void validate_ip(ErrorList& errs, const Json& value, const std::string& path);

// validateLocalDescendingPath / ValidateLocalNonReservedPath / validatePathNoBacksteps.
void local_descending_path(ErrorList& errs, std::string_view target, const std::string& path);
void local_non_reserved_path(ErrorList& errs, std::string_view target, const std::string& path);
void no_backsteps(ErrorList& errs, std::string_view target, const std::string& path);

// ValidateSecurityContext (containers) and validatePodSpecSecurityContext.
void validate_container_security_context(ErrorList& errs, const Json& sc, const std::string& path);
void validate_pod_security_context(ErrorList& errs, const Json& spec, const std::string& path);

}  // namespace rr::validation::detail
