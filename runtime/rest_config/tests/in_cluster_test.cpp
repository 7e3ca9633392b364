// The in-cluster config from the service environment and a (temporary) service-account directory.
#include <doctest/doctest.h>

#include "rr/rest_config/rest_config.hpp"
#include "test_support.hpp"

using rr::config_test::EnvVar;
using rr::config_test::kPem;
using rr::config_test::TempDir;

TEST_CASE("in-cluster: host and port from the environment, token, CA and namespace from the files") {
  const TempDir sa;
  const auto token = sa.write("token", "sa-token");
  sa.write("ca.crt", kPem);
  sa.write("namespace", "operators");
  const EnvVar host("KUBERNETES_SERVICE_HOST", "10.96.0.1");
  const EnvVar port("KUBERNETES_SERVICE_PORT", "443");
  const EnvVar pod_ns("POD_NAMESPACE", std::nullopt);
  const auto loaded = rr::in_cluster_config(sa.str());
  CHECK(loaded.config.host == "https://10.96.0.1:443");
  CHECK(loaded.config.bearer_token == "sa-token");
  CHECK(loaded.config.bearer_token_file == token);
  CHECK(loaded.config.ca_data == kPem);
  CHECK_FALSE(loaded.config.insecure_skip_tls_verify);
  CHECK(loaded.namespace_name == "operators");
  CHECK(loaded.source == "in-cluster");
  CHECK(loaded.context.empty());
}

TEST_CASE("in-cluster: an IPv6 service host goes in brackets") {
  const TempDir sa;
  sa.write("token", "t");
  sa.write("ca.crt", kPem);
  const EnvVar host("KUBERNETES_SERVICE_HOST", "fd00:10:96::1");
  const EnvVar port("KUBERNETES_SERVICE_PORT", "6443");
  CHECK(rr::in_cluster_config(sa.str()).config.host == "https://[fd00:10:96::1]:6443");
}

TEST_CASE("in-cluster: the namespace is $POD_NAMESPACE, else the file, else default") {
  const TempDir sa;
  sa.write("token", "t");
  sa.write("ca.crt", kPem);
  const EnvVar host("KUBERNETES_SERVICE_HOST", "10.0.0.1");
  const EnvVar port("KUBERNETES_SERVICE_PORT", "443");
  {
    const EnvVar pod_ns("POD_NAMESPACE", std::nullopt);
    CHECK(rr::in_cluster_config(sa.str()).namespace_name == "default");
  }
  sa.write("namespace", "from-file");
  {
    const EnvVar pod_ns("POD_NAMESPACE", "from-env");
    CHECK(rr::in_cluster_config(sa.str()).namespace_name == "from-env");
  }
}

TEST_CASE("in-cluster: errors name what is missing") {
  const TempDir sa;
  {
    const EnvVar host("KUBERNETES_SERVICE_HOST", std::nullopt);
    const EnvVar port("KUBERNETES_SERVICE_PORT", "443");
    CHECK_THROWS_WITH_AS(rr::in_cluster_config(sa.str()),
                         "in-cluster config: KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be set "
                         "(not running in a Pod?)",
                         rr::ConfigError);
  }
  const EnvVar host("KUBERNETES_SERVICE_HOST", "10.0.0.1");
  const EnvVar port("KUBERNETES_SERVICE_PORT", "443");
  CHECK_THROWS_WITH_AS(rr::in_cluster_config(sa.str()),
                       ("in-cluster config: cannot read service account token " + sa.str() + "/token").c_str(),
                       rr::ConfigError);
  sa.write("token", "t");
  CHECK_THROWS_WITH_AS(rr::in_cluster_config(sa.str()),
                       ("in-cluster config: cannot read service account CA " + sa.str() + "/ca.crt").c_str(),
                       rr::ConfigError);
}
