// A kubeconfig value as JSON text, for the fields that are opaque objects (a cluster's exec
// extension, passed to a credential plugin as spec.cluster.config).
#pragma once
#include <string>

#include "rr/core/json.hpp"

namespace rr::config_detail {

// The value as read (rr::yaml: go-yaml v2 scalars, aliases expanded). Throws ConfigError
// "<where>: ..." when it nests deeper than 64 levels or holds more than 10000 values.
std::string yaml_to_json_text(const Json& value, const std::string& where);

}  // namespace rr::config_detail
