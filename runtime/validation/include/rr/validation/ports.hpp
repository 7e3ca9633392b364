// The small syntax checks of util/validation that pod specs, Services and ConfigMaps share, each
// returning upstream's messages in its order (empty when valid). Hand-written: they run on every write.
#pragma once
#include <cstdint>
#include <string_view>

#include "rr/validation/names.hpp"

namespace rr::validation {

// IsValidPortNum: 1..65535.
Messages is_valid_port_num(std::int64_t port);
// IsValidPortName (an IANA_SVC_NAME): at most 15 characters of [-a-z0-9], at least one letter, no
// "--", no leading or trailing '-'.
Messages is_valid_port_name(std::string_view port);
// IsRelaxedEnvVarName: the env var name rule of 1.35 (RelaxedEnvironmentVariableValidation is GA
// and always on since 1.34): non-empty, printable ASCII other than '='.
Messages is_relaxed_env_var_name(std::string_view name);
// IsConfigMapKey: at most 253 characters of [-._a-zA-Z0-9], not '.', '..' or starting with '..'.
Messages is_config_map_key(std::string_view key);
// InclusiveRangeError: "must be between lo and hi, inclusive".
std::string inclusive_range_error(std::int64_t lo, std::int64_t hi);

}  // namespace rr::validation
