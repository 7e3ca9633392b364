// $KUBECONFIG lists: split, merged first-wins, missing files skipped.
#include <doctest/doctest.h>

#include "rr/rest_config/kubeconfig.hpp"
#include "test_support.hpp"

using rr::config_test::kPem;
using rr::config_test::TempDir;

namespace {

const std::string kFirst = R"(clusters:
- name: shared
  cluster: {server: "https://first:6443"}
users:
- name: shared-user
  user: {token: first-token}
contexts:
- name: shared
  context: {cluster: shared, user: shared-user, namespace: first-ns}
)";

const std::string kSecond = R"(current-context: second-only
clusters:
- name: shared
  cluster: {server: "https://second:6443", insecure-skip-tls-verify: true}
- name: second-cluster
  cluster: {server: "https://second-only:6443", certificate-authority: ca.crt}
users:
- name: shared-user
  user: {token: second-token}
contexts:
- name: shared
  context: {cluster: shared, user: shared-user, namespace: second-ns}
- name: second-only
  context: {cluster: second-cluster, user: shared-user}
)";

const std::string kThird = "current-context: shared\n";

}  // namespace

TEST_CASE("split_kubeconfig_list drops empty entries and repeats, keeping order") {
  CHECK(rr::split_kubeconfig_list("a:b::a:c:") == std::vector<std::string>{"a", "b", "c"});
  CHECK(rr::split_kubeconfig_list("").empty());
  CHECK(rr::split_kubeconfig_list("/only") == std::vector<std::string>{"/only"});
}

TEST_CASE("merging: the first file to define a name wins the whole entry") {
  const TempDir dir;
  const auto first = dir.write("a/config", kFirst);
  dir.write("b/ca.crt", kPem);
  const auto second = dir.write("b/config", kSecond);
  const auto loaded = rr::load_kubeconfig_files({first, second}, "shared");
  CHECK(loaded.config.host == "https://first:6443");
  CHECK_FALSE(loaded.config.insecure_skip_tls_verify);  // not merged field by field
  CHECK(loaded.config.bearer_token == "first-token");
  CHECK(loaded.namespace_name == "first-ns");
  CHECK(loaded.source == "kubeconfig " + first + ":" + second);
}

TEST_CASE("merging: current-context comes from the first file that sets it") {
  const TempDir dir;
  const auto first = dir.write("a/config", kFirst);  // sets none
  dir.write("b/ca.crt", kPem);
  const auto second = dir.write("b/config", kSecond);
  const auto third = dir.write("c/config", kThird);
  const auto loaded = rr::load_kubeconfig_files({first, second, third});
  CHECK(loaded.context == "second-only");
  // and relative paths of the second file resolve against the second file's directory
  CHECK(loaded.config.ca_data == kPem);
  CHECK(loaded.config.bearer_token == "first-token");  // shared-user from the first file

  CHECK(rr::load_kubeconfig_files({third, second, first}).context == "shared");
}

TEST_CASE("merging: files that do not exist are skipped") {
  const TempDir dir;
  const auto first = dir.write("a/config", kFirst);
  const auto loaded = rr::load_kubeconfig_files({dir.str() + "/missing", first}, "shared");
  CHECK(loaded.config.host == "https://first:6443");
  CHECK(loaded.source == "kubeconfig " + first);
}
