// users[].user.exec -> ExecConfig, checked as clientcmd's validateAuthInfo and client-go's exec
// authenticator check it, so a bad plugin section fails at load time, naming the file and user.
#pragma once
#include <string>

#include "kubeconfig_model.hpp"
#include "rr/rest_config/exec_config.hpp"

namespace rr::kubeconfig_detail {

// `where` is "kubeconfig <file>: user \"<name>\""; `cluster_extension_json` is the context's
// cluster's exec extension (Cluster::exec_extension_json). Throws ConfigError.
ExecConfig exec_config_of(const Exec& exec, const Origin& origin, const std::string& cluster_extension_json,
                          const std::string& where);

}  // namespace rr::kubeconfig_detail
