// load_default_config(): --kubeconfig, then $KUBECONFIG, then in-cluster, then $HOME/.kube/config.
#include <doctest/doctest.h>

#include "rr/rest_config/kubeconfig.hpp"
#include "rr/rest_config/rest_config.hpp"
#include "test_support.hpp"

using rr::config_test::EnvVar;
using rr::config_test::kPem;
using rr::config_test::TempDir;

namespace {

std::string kubeconfig_for(const std::string& server) {
  return "current-context: c\nclusters:\n- name: k\n  cluster: {server: \"" + server + "\"}\n"
         "contexts:\n- name: c\n  context: {cluster: k}\n- name: other\n  context: {cluster: k, namespace: o}\n";
}

// Every source present: a flag file, $KUBECONFIG, a service account and a home kubeconfig.
struct AllSources {
  TempDir dir;
  std::string flag_file = dir.write("flag/config", kubeconfig_for("https://flag:1"));
  std::string env_file = dir.write("env/config", kubeconfig_for("https://env:1"));
  std::string home_file = dir.write("home/.kube/config", kubeconfig_for("https://home:1"));
  std::string sa_token = dir.write("sa/token", "t");
  std::string sa_ca = dir.write("sa/ca.crt", kPem);
  EnvVar kubeconfig{"KUBECONFIG", env_file};
  EnvVar host{"KUBERNETES_SERVICE_HOST", "10.0.0.1"};
  EnvVar port{"KUBERNETES_SERVICE_PORT", "443"};
  EnvVar home{"HOME", dir.str() + "/home"};
  EnvVar pod_ns{"POD_NAMESPACE", std::nullopt};

  rr::ConfigSources sources(std::string flag = {}) const {
    rr::ConfigSources s;
    s.kubeconfig_flag = std::move(flag);
    s.service_account_dir = dir.str() + "/sa";
    return s;
  }
};

}  // namespace

TEST_CASE("default config: the --kubeconfig flag comes first, with the context override") {
  const AllSources all;
  auto sources = all.sources(all.flag_file);
  CHECK(rr::load_default_config(sources).config.host == "https://flag:1");
  sources.context = "other";
  const auto loaded = rr::load_default_config(sources);
  CHECK(loaded.context == "other");
  CHECK(loaded.namespace_name == "o");
  CHECK(rr::load_default_config(std::string_view(all.flag_file)).source == "kubeconfig " + all.flag_file);
}

TEST_CASE("default config: a --kubeconfig flag naming a missing file is an error, not a fallback") {
  const AllSources all;
  CHECK_THROWS_WITH_AS(rr::load_default_config(all.sources(all.dir.str() + "/nope")),
                       ("kubeconfig " + all.dir.str() + "/nope: cannot read the file").c_str(), rr::ConfigError);
}

TEST_CASE("default config: $KUBECONFIG before in-cluster, merged as a list") {
  const AllSources all;
  CHECK(rr::load_default_config(all.sources()).config.host == "https://env:1");
  const EnvVar list("KUBECONFIG", all.dir.str() + "/missing:" + all.home_file + ":" + all.env_file);
  CHECK(rr::load_default_config(all.sources()).config.host == "https://home:1");
}

TEST_CASE("default config: in-cluster before $HOME/.kube/config") {
  const AllSources all;
  const EnvVar no_kubeconfig("KUBECONFIG", std::nullopt);
  const auto loaded = rr::load_default_config(all.sources());
  CHECK(loaded.source == "in-cluster");
  CHECK(loaded.config.host == "https://10.0.0.1:443");
  const EnvVar empty_kubeconfig("KUBECONFIG", "");  // empty counts as unset
  CHECK(rr::load_default_config(all.sources()).source == "in-cluster");
}

TEST_CASE("default config: $HOME/.kube/config when not in a cluster") {
  const AllSources all;
  const EnvVar no_kubeconfig("KUBECONFIG", std::nullopt);
  const EnvVar no_host("KUBERNETES_SERVICE_HOST", std::nullopt);
  const auto loaded = rr::load_default_config(all.sources());
  CHECK(loaded.config.host == "https://home:1");
  CHECK(loaded.source == "kubeconfig " + all.home_file);
}

TEST_CASE("default config: nothing found explains every source it tried") {
  const AllSources all;
  const EnvVar no_kubeconfig("KUBECONFIG", std::nullopt);
  const EnvVar no_host("KUBERNETES_SERVICE_HOST", std::nullopt);
  const EnvVar empty_home("HOME", all.dir.str() + "/empty");
  CHECK_THROWS_WITH_AS(
      rr::load_default_config(all.sources()),
      ("no Kubernetes configuration found: --kubeconfig was not given, KUBECONFIG is not set, in-cluster config: "
       "KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be set (not running in a Pod?), and " +
       all.dir.str() + "/empty/.kube/config does not exist")
          .c_str(),
      rr::ConfigError);
}
