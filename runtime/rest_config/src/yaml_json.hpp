// A YAML value as JSON text, for the kubeconfig fields that are opaque objects (a cluster's exec
// extension, passed to a credential plugin as spec.cluster.config).
#pragma once
#include <string>

namespace YAML {
class Node;
}

namespace rr::config_detail {

// Plain scalars resolve as sigs.k8s.io/yaml resolves them (null, booleans, numbers, else
// strings; numbers in decimal only); quoted scalars stay strings. Throws ConfigError "<where>: ..."
// when the value nests deeper than 64 levels or holds more than 10000 values (aliases included).
std::string yaml_to_json_text(const YAML::Node& value, const std::string& where);

}  // namespace rr::config_detail
