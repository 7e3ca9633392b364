#include "load/spec_metrics.hpp"

#include "load/spec_reader.hpp"

namespace rrgen {

const std::vector<std::string>& spec_metrics_keys() {
  static const std::vector<std::string> keys = {"secure", "serviceMonitor", "networkPolicy"};
  return keys;
}

void read_spec_metrics(const Node& n, SpecMetrics& out, Diagnostics& diags) {
  if (!n.is_mapping()) {
    diags.error(n.location, "spec-wrong-type",
                "'metrics' must be a mapping of secure, serviceMonitor and networkPolicy, not " + describe(n));
    return;
  }
  for (std::size_t i = 0; i < n.keys.size(); ++i) {
    const std::string& key = n.keys[i];
    const Node& value = n.children[i];
    bool* field = key == "secure"           ? &out.secure
                  : key == "serviceMonitor" ? &out.service_monitor
                  : key == "networkPolicy"  ? &out.network_policy
                                            : nullptr;
    if (field == nullptr) {
      const std::string near = closest_match(key, spec_metrics_keys());
      diags.error(n.key_locations[i], "spec-unknown-key",
                  "unknown key '" + key + "'" + (near.empty() ? "" : "; did you mean '" + near + "'?"));
    } else if (value.is_scalar() && resolve_scalar(value) == ScalarType::Bool) {
      *field = to_json_text(value) == "true";
    } else {
      diags.error(value.location, "spec-wrong-type", "'" + key + "' must be true or false, not " + describe(value));
    }
  }
}

}  // namespace rrgen
