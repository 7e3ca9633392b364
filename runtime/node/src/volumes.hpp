// A pod's volumes as the kubelet's volume manager sets them up: configMap, secret, downwardAPI,
// projected (serviceAccountToken, configMap, secret, downwardAPI) and emptyDir, each a directory
// under the pod's own, written with the atomic writer's layout (atomic_writer.hpp). The
// ServiceAccount token volume the API server's admission adds (kube-api-access-xxxxx) is set up
// as any projected volume; a pod without one (not admitted by that plugin) gets it added here
// when automountServiceAccountToken is not false.
#pragma once
#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "atomic_writer.hpp"
#include "container_process.hpp"
#include "rr/core/json.hpp"
#include "rr/node/container_config.hpp"
#include "rr/node/node_agent.hpp"

namespace rr::node_detail {

// Where the default token volume is mounted, as the ServiceAccount admission mounts it.
inline constexpr const char* service_account_mount_path = "/var/run/secrets/kubernetes.io/serviceaccount";

class PodVolumes {
 public:
  // `dir`: the pod's volume directory (made on first use, removed by remove()).
  using Clock = std::chrono::system_clock;
  // `now`: when tokens are due (the system clock when empty; tests pass their own).
  PodVolumes(std::filesystem::path dir, node::ObjectLookup lookup, node::TokenMinter minter, std::string ca_pem,
             std::function<Clock::time_point()> now = {});

  // Sets up every volume not set up yet and re-projects those due (configMaps and secrets each
  // minute, tokens at 80% of their lifetime or after 24 h). A volume that cannot be set up is
  // remembered as failure(), the kubelet's FailedMount message, and tried again a second later;
  // the others are still set up.
  void sync(const Json& pod);
  // The first volume's FailedMount message while one fails: `MountVolume.SetUp failed for volume
  // "v" : configmap "x" not found`.
  const std::optional<std::string>& failure() const { return failure_; }
  // The container's volumeMounts (and the token volume's) as bind mounts; throws
  // node::ContainerConfigError for an unknown volume or a bad subPath.
  std::vector<VolumeBind> mounts(const Json& container) const;
  // The name of the token volume added, "" when none (automount off, no token minter, or the
  // pod has its own kube-api-access-* volume).
  const std::string& token_volume() const { return token_volume_; }
  void remove();

 private:
  void decide_token_volume(const Json& pod);
  VolumePayload projected(const std::string& volume, const Json& sources, int default_mode, const Json& pod,
                          Clock::time_point now, std::optional<Clock::time_point>& refresh);

  std::filesystem::path dir_;
  node::ObjectLookup lookup_;
  node::TokenMinter minter_;
  std::string ca_pem_;
  std::function<Clock::time_point()> now_;
  bool decided_ = false;
  std::string token_volume_;
  Json token_volume_spec_;
  std::map<std::string, Clock::time_point> next_sync_;  // volume -> when it is projected again
  std::map<std::string, VolumePayload> written_;
  struct Token {
    std::string value;
    Clock::time_point refresh;
  };
  std::map<std::string, Token> tokens_;  // "<volume>/<path>" -> the token until it is due
  std::map<std::string, std::string> failed_;  // volume -> its FailedMount message
  std::optional<std::string> failure_;
};

}  // namespace rr::node_detail
