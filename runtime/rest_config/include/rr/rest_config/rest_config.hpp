// How to reach and authenticate to an API server: the C++ counterpart of client-go's rest.Config,
// restricted to what rr's HTTP client uses. Plain data; the loaders fill it from a kubeconfig
// (rr/rest_config/kubeconfig.hpp) or from a Pod's service account (in_cluster_config()).
#pragma once
#include <chrono>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "rr/rest_config/exec_config.hpp"

namespace rr {

struct RestConfig {
  std::string host{};                     // "https://host:port" as written in the kubeconfig
  std::string ca_data{};                  // PEM bytes; empty = the system trust store
  bool insecure_skip_tls_verify{};        // never set together with ca_data
  std::string client_cert_data{};         // PEM bytes
  std::string client_key_data{};          // PEM bytes
  std::string bearer_token{};             // the token as read at load time
  std::string bearer_token_file{};        // when set, the transport re-reads it (tokens rotate)
  std::string tls_server_name{};          // SNI / verification name when it differs from host
  std::optional<std::string> proxy_url{};
  // A credential plugin; used only when no token, tokenFile or client certificate is set
  // (client-go's UpdateTransportConfig skips exec then).
  std::optional<ExecConfig> exec{};
  // client-go's rest.Config defaults (DefaultQPS = 5, DefaultBurst = 10) for client-side rate
  // limiting. controller-runtime overrides them in its own GetConfig; rr keeps client-go's.
  float qps{5.0F};
  int burst{10};
  std::chrono::milliseconds timeout{};    // 0 = no overall request timeout, as client-go
  std::string user_agent{};               // empty = the transport's default
};

// A configuration could not be loaded. The message names the file (or source) and what is wrong.
class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A RestConfig together with where it came from.
struct LoadedConfig {
  RestConfig config{};
  std::string namespace_name{};  // the context's namespace ("default" when it sets none)
  std::string context{};         // the kubeconfig context used; empty for in-cluster
  std::string source{};          // e.g. "kubeconfig ~/.kube/config" or "in-cluster"
};

inline constexpr std::string_view kServiceAccountDir = "/var/run/secrets/kubernetes.io/serviceaccount";

// client-go's rest.InClusterConfig(): KUBERNETES_SERVICE_HOST / KUBERNETES_SERVICE_PORT and the
// service account's token, ca.crt and namespace files under `service_account_dir`.
// Throws ConfigError when not running in a cluster or a file cannot be read.
LoadedConfig in_cluster_config(std::string_view service_account_dir = kServiceAccountDir);

struct ConfigSources {
  std::string kubeconfig_flag{};  // --kubeconfig
  std::string context{};          // --context (kubeconfig sources only)
  std::string service_account_dir{kServiceAccountDir};
};

// controller-runtime's config.GetConfig() order: the --kubeconfig flag, then $KUBECONFIG, then
// the in-cluster config, then $HOME/.kube/config. The first source present is used, and its
// errors are reported (an in-cluster failure falls through to $HOME/.kube/config instead).
LoadedConfig load_default_config(const ConfigSources& sources);
LoadedConfig load_default_config(std::string_view kubeconfig_flag = {});

}  // namespace rr
