// Kubeconfig text for a local server.
#pragma once
#include <string>

#include "rr/apiserver/api_server.hpp"

namespace rr::apiserver_detail {

// One cluster, user and context named after `cluster_name`/`user.name`, the context current.
// `ca_pem` empty: no certificate-authority-data (plain HTTP).
std::string kubeconfig_text(const std::string& server_url, const std::string& cluster_name, const std::string& ca_pem,
                            const KubeconfigUser& user);

}  // namespace rr::apiserver_detail
