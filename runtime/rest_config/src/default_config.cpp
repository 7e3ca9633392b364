// controller-runtime's config.GetConfig() lookup order.
#include <pwd.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <system_error>
#include <vector>

#include "rr/rest_config/kubeconfig.hpp"
#include "rr/rest_config/rest_config.hpp"

namespace rr {
namespace {

// $HOME, else the password database, as Go's user.Current() when HOME is unset.
std::string home_directory() {
  if (const char* home = std::getenv("HOME")) return home;
  std::vector<char> buffer(16384);
  passwd entry{};
  passwd* found = nullptr;
  if (getpwuid_r(getuid(), &entry, buffer.data(), buffer.size(), &found) == 0 && found && found->pw_dir)
    return found->pw_dir;
  return {};
}

}  // namespace

LoadedConfig load_default_config(const ConfigSources& sources) {
  if (!sources.kubeconfig_flag.empty()) return load_kubeconfig_file(sources.kubeconfig_flag, sources.context);

  const char* kubeconfig_env = std::getenv("KUBECONFIG");
  if (kubeconfig_env && *kubeconfig_env)
    return load_kubeconfig_files(split_kubeconfig_list(kubeconfig_env), sources.context);

  std::string in_cluster_error;
  try {
    return in_cluster_config(sources.service_account_dir);
  } catch (const ConfigError& e) {
    in_cluster_error = e.what();
  }

  const std::string home = home_directory();
  const std::string home_config = home.empty() ? std::string{} : home + "/.kube/config";
  std::error_code ec;
  if (!home_config.empty() && std::filesystem::exists(home_config, ec))
    return load_kubeconfig_file(home_config, sources.context);

  throw ConfigError("no Kubernetes configuration found: --kubeconfig was not given, KUBECONFIG is not set, " +
                    in_cluster_error + ", and " +
                    (home_config.empty() ? std::string("the home directory is unknown") : home_config + " does not exist"));
}

LoadedConfig load_default_config(std::string_view kubeconfig_flag) {
  ConfigSources sources;
  sources.kubeconfig_flag = std::string(kubeconfig_flag);
  return load_default_config(sources);
}

}  // namespace rr
