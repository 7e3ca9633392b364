// A Secret's data values, decoded (base64 in the object).
#pragma once
#include <optional>
#include <string>

#include "rr/core/json.hpp"
#include "rr/core/time.hpp"

namespace rr::cert_manager {

// data[key] decoded; nullopt when absent, empty or not base64.
inline std::optional<std::string> secret_value(const Json& secret, const std::string& key) {
  const Json* data = secret.is_object() && secret.contains("data") ? &secret["data"] : nullptr;
  if (data == nullptr || !data->is_object()) return std::nullopt;
  auto it = data->find(key);
  if (it == data->end() || !it->is_string()) return std::nullopt;
  auto decoded = Bytes(it->get<std::string>()).decode();
  if (!decoded || decoded->empty()) return std::nullopt;
  return decoded;
}

}  // namespace rr::cert_manager
