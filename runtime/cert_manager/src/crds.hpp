// The cert-manager.io/v1 kinds the subset serves: their KindInfos and the CRDs that declare them
// (schemas written here: the honoured fields typed, the rest preserved).
#pragma once
#include <vector>

#include "rr/client/kind.hpp"
#include "rr/core/json.hpp"

namespace rr::cert_manager {

KindInfo certificate_kind();
KindInfo issuer_kind();
KindInfo cluster_issuer_kind();

// certificates.cert-manager.io, issuers.cert-manager.io, clusterissuers.cert-manager.io.
std::vector<Json> cert_manager_crds();

}  // namespace rr::cert_manager
