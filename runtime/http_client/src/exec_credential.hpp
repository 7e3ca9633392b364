// The client.authentication.k8s.io ExecCredential a credential plugin prints, read strictly, and
// the one it is given in $KUBERNETES_EXEC_INFO. Errors use client-go's exec authenticator's words.
#pragma once
#include <chrono>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "rr/rest_config/rest_config.hpp"

namespace rr::http_detail {

// Credentials could not be had from the plugin; the message says why.
class ExecPluginError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ExecCredential {
  std::string token;
  std::string client_certificate_pem;
  std::string client_key_pem;
  // None: valid until the server refuses it (a 401).
  std::optional<std::chrono::system_clock::time_point> expiration;
};

// The plugin's stdout, for a plugin configured with `api_version`. Throws ExecPluginError:
// "decoding stdout: ..." for what is not an ExecCredential of that version, and client-go's
// messages for a missing status, token or certificate/key pair.
ExecCredential parse_exec_credential(std::string_view stdout_text, std::string_view api_version);

// $KUBERNETES_EXEC_INFO: an ExecCredential with spec.interactive (always false: an operator gives
// no stdin) and, with provideClusterInfo, spec.cluster from `cluster` and exec.cluster_config_json.
std::string exec_info_json(const ExecConfig& exec, const RestConfig& cluster);

}  // namespace rr::http_detail
