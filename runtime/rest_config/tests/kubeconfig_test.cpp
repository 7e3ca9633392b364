// Choosing a context and reading its cluster and user from kubeconfig text.
#include <doctest/doctest.h>

#include "rr/rest_config/kubeconfig.hpp"
#include "test_support.hpp"

using rr::config_test::kPem;
using rr::config_test::kPemBase64;

namespace {

const std::string kTwoContexts = R"(apiVersion: v1
kind: Config
current-context: dev
clusters:
- name: dev-cluster
  cluster:
    server: https://dev.example:6443
    certificate-authority-data: )" + kPemBase64 + R"(
    tls-server-name: api.dev.internal
    proxy-url: http://proxy.example:3128
- name: prod-cluster
  cluster:
    server: https://prod.example:6443
    insecure-skip-tls-verify: true
users:
- name: alice
  user:
    token: alice-token
- name: bob
  user:
    client-certificate-data: )" + kPemBase64 + R"(
    client-key-data: )" + kPemBase64 + R"(
contexts:
- name: dev
  context:
    cluster: dev-cluster
    user: alice
    namespace: team-a
- name: prod
  context:
    cluster: prod-cluster
    user: bob
- name: anonymous
  context:
    cluster: prod-cluster
preferences: {}
)";

}  // namespace

TEST_CASE("current-context selects the cluster, the user and the namespace") {
  const auto loaded = rr::load_kubeconfig_text(kTwoContexts);
  CHECK(loaded.context == "dev");
  CHECK(loaded.namespace_name == "team-a");
  CHECK(loaded.source == "kubeconfig <kubeconfig text>");
  const auto& c = loaded.config;
  CHECK(c.host == "https://dev.example:6443");
  CHECK(c.ca_data == kPem);
  CHECK_FALSE(c.insecure_skip_tls_verify);
  CHECK(c.tls_server_name == "api.dev.internal");
  REQUIRE(c.proxy_url.has_value());
  CHECK(*c.proxy_url == "http://proxy.example:3128");
  CHECK(c.bearer_token == "alice-token");
  CHECK(c.bearer_token_file.empty());
  CHECK(c.client_cert_data.empty());
  CHECK(c.client_key_data.empty());
}

TEST_CASE("a context override wins over current-context; a context without namespace gives default") {
  const auto loaded = rr::load_kubeconfig_text(kTwoContexts, "prod");
  CHECK(loaded.context == "prod");
  CHECK(loaded.namespace_name == "default");
  const auto& c = loaded.config;
  CHECK(c.host == "https://prod.example:6443");
  CHECK(c.insecure_skip_tls_verify);
  CHECK(c.ca_data.empty());
  CHECK_FALSE(c.proxy_url.has_value());
  CHECK(c.client_cert_data == kPem);
  CHECK(c.client_key_data == kPem);
  CHECK(c.bearer_token.empty());
}

TEST_CASE("a context without a user is anonymous") {
  const auto c = rr::load_kubeconfig_text(kTwoContexts, "anonymous").config;
  CHECK(c.host == "https://prod.example:6443");
  CHECK(c.bearer_token.empty());
  CHECK(c.client_cert_data.empty());
}

TEST_CASE("RestConfig defaults are client-go's: QPS 5, burst 10, no timeout, TLS verified") {
  const rr::RestConfig defaults;
  CHECK(defaults.qps == doctest::Approx(5.0));
  CHECK(defaults.burst == 10);
  CHECK(defaults.timeout.count() == 0);
  CHECK_FALSE(defaults.insecure_skip_tls_verify);
  const auto loaded = rr::load_kubeconfig_text(kTwoContexts).config;
  CHECK(loaded.qps == doctest::Approx(5.0));
  CHECK(loaded.burst == 10);
}

TEST_CASE("YAML 1.1 booleans, JSON syntax and unknown fields are accepted") {
  const auto c = rr::load_kubeconfig_text(R"({"current-context": "c", "extensions": [],
    "clusters": [{"name": "k", "cluster": {"server": "https://k:1", "insecure-skip-tls-verify": yes,
                                           "future-field": 1}}],
    "contexts": [{"name": "c", "context": {"cluster": "k", "extensions": []}}]})").config;
  CHECK(c.host == "https://k:1");
  CHECK(c.insecure_skip_tls_verify);
}

TEST_CASE("certificate-authority-data wins over certificate-authority, as client-go's transport") {
  const auto c = rr::load_kubeconfig_text(R"(current-context: c
clusters:
- name: k
  cluster:
    server: https://k:1
    certificate-authority: /nonexistent/ca.crt
    certificate-authority-data: )" + kPemBase64 + R"(
users:
- name: u
  user:
    client-certificate: /nonexistent/cert
    client-certificate-data: )" + kPemBase64 + R"(
    client-key: /nonexistent/key
    client-key-data: )" + kPemBase64 + R"(
contexts:
- name: c
  context: {cluster: k, user: u}
)").config;
  CHECK(c.ca_data == kPem);
  CHECK(c.client_cert_data == kPem);
  CHECK(c.client_key_data == kPem);
}

TEST_CASE("base64 data may be wrapped over lines, as Go's decoder ignores newlines") {
  const std::string wrapped = kPemBase64.substr(0, 40) + "\n      " + kPemBase64.substr(40);
  const auto c = rr::load_kubeconfig_text(R"(current-context: c
clusters:
- name: k
  cluster:
    server: https://k:1
    certificate-authority-data: |
      )" + wrapped + R"(
contexts:
- name: c
  context: {cluster: k}
)").config;
  CHECK(c.ca_data == kPem);
}
