#include "kubeconfig_exec.hpp"

#include "file_read.hpp"
#include "rr/rest_config/rest_config.hpp"

namespace rr::kubeconfig_detail {
namespace {

constexpr std::string_view kV1 = "client.authentication.k8s.io/v1";
constexpr std::string_view kV1Beta1 = "client.authentication.k8s.io/v1beta1";

ExecInteractiveMode interactive_mode_of(const Exec& exec, const std::string& where) {
  if (exec.interactive_mode.empty()) {
    // clientcmd's SetDefaults_ExecConfig defaults it for v1beta1 only; v1 must say it.
    if (exec.api_version == kV1)
      throw ConfigError(where + ": interactiveMode must be specified to use exec authentication plugin");
    return ExecInteractiveMode::IfAvailable;
  }
  if (exec.interactive_mode == "Never") return ExecInteractiveMode::Never;
  if (exec.interactive_mode == "IfAvailable") return ExecInteractiveMode::IfAvailable;
  if (exec.interactive_mode == "Always") return ExecInteractiveMode::Always;
  throw ConfigError(where + ": invalid interactiveMode \"" + exec.interactive_mode +
                    "\" (Never, IfAvailable or Always)");
}

}  // namespace

ExecConfig exec_config_of(const Exec& exec, const Origin& origin, const std::string& cluster_extension_json,
                          const std::string& user_where) {
  const std::string where = user_where + ": exec";
  if (exec.command.empty()) throw ConfigError(where + ": command must be specified to use exec authentication plugin");
  if (exec.api_version.empty())
    throw ConfigError(where + ": apiVersion must be specified to use exec authentication plugin");
  if (exec.api_version != kV1 && exec.api_version != kV1Beta1) {
    // client-go's newAuthenticator; v1alpha1 was removed in Kubernetes 1.24.
    throw ConfigError(where + ": exec plugin: invalid apiVersion \"" + exec.api_version +
                      "\" (supported: " + std::string(kV1) + ", " + std::string(kV1Beta1) + ")");
  }
  ExecConfig out;
  out.interactive_mode = interactive_mode_of(exec, where);
  for (const auto& [name, value] : exec.env) {
    if (name.empty())
      throw ConfigError(where + ": env variable name must be specified to use exec authentication plugin");
    out.env.push_back({name, value});
  }
  // clientcmd resolves the command against the kubeconfig's directory only when it names a path;
  // a bare name is looked up in $PATH when it runs.
  out.command = exec.command.find('/') != std::string::npos
                    ? config_detail::resolve_against(exec.command, origin.base_dir)
                    : exec.command;
  out.args = exec.args;
  out.api_version = exec.api_version;
  out.install_hint = exec.install_hint;
  out.provide_cluster_info = exec.provide_cluster_info;
  out.cluster_config_json = cluster_extension_json;
  return out;
}

}  // namespace rr::kubeconfig_detail
