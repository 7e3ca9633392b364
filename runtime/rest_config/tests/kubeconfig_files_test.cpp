// Files named by a kubeconfig: CA, client certificate and key, token file; relative paths.
#include <doctest/doctest.h>

#include "rr/rest_config/kubeconfig.hpp"
#include "test_support.hpp"

using rr::config_test::kPem;
using rr::config_test::TempDir;

namespace {

const std::string kWithFiles = R"(current-context: c
clusters:
- name: k
  cluster:
    server: https://k:6443
    certificate-authority: pki/ca.crt
users:
- name: u
  user:
    client-certificate: pki/client.crt
    client-key: pki/client.key
contexts:
- name: c
  context: {cluster: k, user: u}
)";

const std::string kWithTokenFile = R"(current-context: c
clusters:
- name: k
  cluster: {server: "https://k:6443"}
users:
- name: u
  user: {tokenFile: secrets/token}
contexts:
- name: c
  context: {cluster: k, user: u}
)";

}  // namespace

TEST_CASE("relative file paths resolve against the kubeconfig's directory, not the working directory") {
  const TempDir dir;
  dir.write("home/pki/ca.crt", kPem);
  dir.write("home/pki/client.crt", "CERT");
  dir.write("home/pki/client.key", "KEY");
  const auto path = dir.write("home/config", kWithFiles);
  const auto c = rr::load_kubeconfig_file(path).config;
  CHECK(c.ca_data == kPem);
  CHECK(c.client_cert_data == "CERT");
  CHECK(c.client_key_data == "KEY");
}

TEST_CASE("absolute file paths are used as written") {
  const TempDir dir;
  const auto ca = dir.write("elsewhere/ca.pem", kPem);
  const auto path = dir.write("home/config", R"(current-context: c
clusters:
- name: k
  cluster: {server: "https://k:6443", certificate-authority: ")" + ca + R"("}
contexts:
- name: c
  context: {cluster: k}
)");
  CHECK(rr::load_kubeconfig_file(path).config.ca_data == kPem);
}

TEST_CASE("kubeconfig text resolves relative paths against the given base directory") {
  const TempDir dir;
  dir.write("pki/ca.crt", kPem);
  dir.write("pki/client.crt", "CERT");
  dir.write("pki/client.key", "KEY");
  const auto c = rr::load_kubeconfig_text(kWithFiles, {}, dir.str()).config;
  CHECK(c.ca_data == kPem);
  CHECK(c.client_key_data == "KEY");
}

TEST_CASE("tokenFile is read at load time and kept for the transport to re-read") {
  const TempDir dir;
  const auto token = dir.write("home/secrets/token", "file-token");
  const auto path = dir.write("home/config", kWithTokenFile);
  const auto c = rr::load_kubeconfig_file(path).config;
  CHECK(c.bearer_token == "file-token");
  CHECK(c.bearer_token_file == token);
}

TEST_CASE("a literal token wins over tokenFile, which is still kept") {
  const TempDir dir;
  const auto path = dir.write("config", R"(current-context: c
clusters:
- name: k
  cluster: {server: "https://k:6443"}
users:
- name: u
  user: {token: literal, tokenFile: missing/token}
contexts:
- name: c
  context: {cluster: k, user: u}
)");
  const auto c = rr::load_kubeconfig_file(path).config;
  CHECK(c.bearer_token == "literal");
  CHECK(c.bearer_token_file == dir.str() + "/missing/token");
}
