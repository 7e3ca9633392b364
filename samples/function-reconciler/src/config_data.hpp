// Reading one key of a ConfigMap's data, as the reconcilers of this sample do.
#pragma once
#include <string>
#include <string_view>

#include "k8s/core/v1/config_map.hpp"

namespace fnsample {

// data[key], or "" when the ConfigMap has no such key.
inline std::string config_value(const k8s::core::v1::ConfigMap& config, std::string_view key) {
  if (!config.data) return {};
  auto it = config.data->find(std::string(key));
  return it == config.data->end() ? std::string() : it->second;
}

}  // namespace fnsample
