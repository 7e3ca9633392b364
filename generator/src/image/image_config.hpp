// The OCI image configuration (application/vnd.oci.image.config.v1+json) of a one-layer image:
// what the runtime needs to start the process and what registries and scanners show. Written as
// deterministic JSON (keys sorted, no spaces): the same inputs give the same digest.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace rrgen::image {

struct ImageConfig {
  std::string architecture;  // "amd64"
  std::vector<std::string> entrypoint;
  std::string user;  // "65532:65532"
  std::vector<std::string> env;
  std::vector<std::string> exposed_ports;  // "8443/tcp"
  std::map<std::string, std::string> labels;
  std::int64_t created = 0;   // seconds since the epoch (SOURCE_DATE_EPOCH)
  std::string layer_diff_id;  // "sha256:..." of the uncompressed layer
  std::string created_by;     // the history entry's text
};

std::string image_config_json(const ImageConfig& config);

// "1970-01-01T00:00:00Z": RFC 3339 in UTC, as the OCI spec's `created`.
std::string rfc3339(std::int64_t seconds);

}  // namespace rrgen::image
