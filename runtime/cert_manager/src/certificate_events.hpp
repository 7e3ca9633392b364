// core/v1 Events on a Certificate, as cert-manager's issuing controller records them
// (reason Issuing: why, then "The certificate has been successfully issued").
#pragma once
#include <string>

#include "rr/core/json.hpp"

namespace rr {
class Cluster;
}

namespace rr::cert_manager {

// Best effort: nothing when the cluster does not serve Events or the write fails.
void record_certificate_event(Cluster& cluster, const Json& certificate, const std::string& reason,
                              const std::string& message);

}  // namespace rr::cert_manager
