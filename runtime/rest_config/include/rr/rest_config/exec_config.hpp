// A kubeconfig user's `exec` section: an external program (a client-go credential plugin) that
// prints a token or a client certificate (docs/runtime/16-client-config.md, "Exec credential
// plugins"). The loader fills and validates it as clientcmd does; rr::HttpClient runs the plugin
// and caches what it prints.
#pragma once
#include <string>
#include <vector>

namespace rr {

// client-go's ExecInteractiveMode. An operator never gives a plugin its standard input, so
// IfAvailable behaves as Never and Always fails when credentials are needed.
enum class ExecInteractiveMode { Never, IfAvailable, Always };

struct ExecEnvVar {
  std::string name{};
  std::string value{};
};

struct ExecConfig {
  // As the loader resolved it: a command with a '/' is made absolute against the kubeconfig's
  // directory; a bare name is looked up in $PATH when the plugin runs.
  std::string command{};
  std::vector<std::string> args{};
  std::vector<ExecEnvVar> env{};  // added to the operator's environment
  std::string api_version{};      // client.authentication.k8s.io/v1 or /v1beta1
  std::string install_hint{};     // shown when the command is not found
  bool provide_cluster_info{};    // KUBERNETES_EXEC_INFO carries spec.cluster
  ExecInteractiveMode interactive_mode{ExecInteractiveMode::IfAvailable};
  // The cluster's extensions[client.authentication.k8s.io/exec] as JSON text (spec.cluster.config);
  // empty when the cluster has none.
  std::string cluster_config_json{};
};

}  // namespace rr
