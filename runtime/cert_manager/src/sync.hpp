// One pass over the cluster: issuers' Ready conditions, Certificates' Secrets and statuses
// (sync_certificates) and the CA injector's caBundles (sync_ca_injection). Each pass reads the
// current objects and writes only what differs, so passes may run as often as events come.
#pragma once
#include <chrono>
#include <functional>
#include <optional>
#include <string>

#include "rr/cert_manager/cert_manager.hpp"

namespace rr::cert_manager {

using Log = std::function<void(const std::string&)>;

struct SyncResult {
  // The earliest renewal time of the Certificates (wall clock of the cluster).
  std::optional<std::chrono::system_clock::time_point> next_renewal;
  bool retry = false;  // a write conflicted or failed: run again soon
};

SyncResult sync_certificates(Cluster& cluster, const CertManagerOptions& options, const Log& log);
bool sync_ca_injection(Cluster& cluster, const Log& log);  // true: run again soon

}  // namespace rr::cert_manager
