// client-go's rest.InClusterConfig(), plus the namespace lookup of clientcmd's in-cluster config.
#include <cstdlib>

#include "file_read.hpp"
#include "rr/rest_config/rest_config.hpp"

namespace rr {
namespace {

std::string env_or_empty(const char* name) {
  const char* value = std::getenv(name);
  return value ? std::string(value) : std::string{};
}

// Go's net.JoinHostPort: an IPv6 literal goes in brackets.
std::string join_host_port(const std::string& host, const std::string& port) {
  const bool needs_brackets = host.find(':') != std::string::npos && host.front() != '[';
  return needs_brackets ? "[" + host + "]:" + port : host + ":" + port;
}

}  // namespace

LoadedConfig in_cluster_config(std::string_view service_account_dir) {
  const std::string where = "in-cluster config";
  const std::string host = env_or_empty("KUBERNETES_SERVICE_HOST");
  const std::string port = env_or_empty("KUBERNETES_SERVICE_PORT");
  if (host.empty() || port.empty())
    throw ConfigError(where + ": KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be set (not running in a Pod?)");

  const std::string dir(service_account_dir);
  LoadedConfig loaded;
  loaded.source = "in-cluster";
  loaded.config.host = "https://" + join_host_port(host, port);
  loaded.config.bearer_token_file = dir + "/token";
  loaded.config.bearer_token = config_detail::read_file_or_throw(loaded.config.bearer_token_file,
                                                                 "service account token", where);
  // client-go only logs a missing ca.crt and then fails at the first request; fail here instead.
  loaded.config.ca_data = config_detail::read_file_or_throw(dir + "/ca.crt", "service account CA", where);

  // clientcmd's inClusterClientConfig.Namespace(): $POD_NAMESPACE, the namespace file, "default".
  loaded.namespace_name = env_or_empty("POD_NAMESPACE");
  if (loaded.namespace_name.empty())
    loaded.namespace_name = config_detail::try_read_file(dir + "/namespace").value_or("");
  if (loaded.namespace_name.empty()) loaded.namespace_name = "default";
  return loaded;
}

}  // namespace rr
