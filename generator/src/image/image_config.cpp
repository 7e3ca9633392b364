#include "image/image_config.hpp"

#include <ctime>
#include <nlohmann/json.hpp>

namespace rrgen::image {

std::string rfc3339(std::int64_t seconds) {
  const std::time_t t = static_cast<std::time_t>(seconds);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

std::string image_config_json(const ImageConfig& config) {
  // nlohmann::json keeps object keys in a std::map: sorted, so dump() is deterministic.
  nlohmann::json process = {
      {"Entrypoint", config.entrypoint},
      {"Env", config.env},
      {"User", config.user},
      {"WorkingDir", "/"},
  };
  if (!config.exposed_ports.empty()) {
    process["ExposedPorts"] = nlohmann::json::object();
    for (const auto& port : config.exposed_ports) process["ExposedPorts"][port] = nlohmann::json::object();
  }
  if (!config.labels.empty()) process["Labels"] = config.labels;
  const std::string created = rfc3339(config.created);
  const nlohmann::json json = {
      {"architecture", config.architecture},
      {"os", "linux"},
      {"created", created},
      {"config", process},
      {"rootfs", {{"type", "layers"}, {"diff_ids", {config.layer_diff_id}}}},
      {"history", {{{"created", created}, {"created_by", config.created_by}}}},
  };
  return json.dump();
}

}  // namespace rrgen::image
