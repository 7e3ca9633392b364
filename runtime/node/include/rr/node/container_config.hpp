// What the kubelet computes for a container before it asks the runtime to create it: the
// environment (envFrom, env with valueFrom, $(VAR) references, the service variables) and the
// command line (command/args over the image's Entrypoint/Cmd). Pure functions over the pod's JSON.
#pragma once
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rr/core/json.hpp"
#include "rr/node/oci_layout.hpp"

namespace rr::node {

// A container that cannot be configured (a missing ConfigMap key, say): the kubelet's
// CreateContainerConfigError with this message.
struct ContainerConfigError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Reads a ConfigMap ("ConfigMap") or Secret ("Secret") of the pod's namespace; nullopt: not found.
using ObjectLookup = std::function<std::optional<Json>(std::string_view kind, const std::string& name)>;

// Kubernetes' expansion.Expand: $(VAR) from `vars` (an unknown one stays as written), $$ is $.
std::string expand(std::string_view text, const std::function<std::optional<std::string>(const std::string&)>& vars);

// The container's environment in order (image Env first, then the service variables, envFrom,
// env; a later name replaces an earlier one in place). `service_env` is what the kubelet adds
// for the cluster's `kubernetes` service.
std::vector<std::pair<std::string, std::string>> container_env(
    const Json& pod, const Json& container, const ImageConfig& image,
    const std::vector<std::pair<std::string, std::string>>& service_env, const ObjectLookup& lookup);

// The kubelet's command line: command (else Entrypoint) then args (else Cmd only when command is
// not set), with $(VAR) expanded from `env`. Empty when neither gives a program.
std::vector<std::string> container_command(const Json& container, const ImageConfig& image,
                                           const std::vector<std::pair<std::string, std::string>>& env);

// The service variables of the API server at host:port (KUBERNETES_SERVICE_HOST, ..._PORT, ...).
std::vector<std::pair<std::string, std::string>> kubernetes_service_env(const std::string& host, int port);

}  // namespace rr::node
