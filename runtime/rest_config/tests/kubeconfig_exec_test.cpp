// users[].user.exec: the fields read, the command resolved, the cluster extension carried, and
// every check clientcmd makes, each naming the file and user.
#include <doctest/doctest.h>

#include "rr/core/json.hpp"
#include "rr/rest_config/kubeconfig.hpp"
#include "test_support.hpp"

using rr::config_test::TempDir;

namespace {

std::string with_exec(const std::string& exec, const std::string& cluster_extra = {}) {
  return "current-context: c\nclusters:\n- name: k\n  cluster:\n    server: \"https://k:1\"\n" + cluster_extra +
         "users:\n- name: u\n  user:\n    exec: " + exec +
         "\n"
         "contexts:\n- name: c\n  context: {cluster: k, user: u}\n";
}

std::string exec_error(const std::string& exec) {
  try {
    rr::load_kubeconfig_text(with_exec(exec), {}, {}, "test.yaml");
  } catch (const rr::ConfigError& e) {
    return e.what();
  }
  return "(no error)";
}

rr::ExecConfig exec_of(const std::string& yaml, const std::string& base_dir = {}) {
  const auto loaded = rr::load_kubeconfig_text(yaml, {}, base_dir, "test.yaml");
  REQUIRE(loaded.config.exec.has_value());
  return *loaded.config.exec;
}

}  // namespace

TEST_CASE("exec: every field is read") {
  const auto exec = exec_of(with_exec(R"(
      apiVersion: client.authentication.k8s.io/v1
      command: aws
      args: [eks, get-token, --cluster-name, "prod"]
      env:
      - {name: AWS_PROFILE, value: admin}
      - {name: EMPTY}
      installHint: "brew install awscli"
      provideClusterInfo: true
      interactiveMode: Never)"));
  CHECK(exec.command == "aws");  // no path separator: looked up in PATH when run
  CHECK(exec.args == std::vector<std::string>{"eks", "get-token", "--cluster-name", "prod"});
  REQUIRE(exec.env.size() == 2);
  CHECK(exec.env[0].name == "AWS_PROFILE");
  CHECK(exec.env[0].value == "admin");
  CHECK(exec.env[1].name == "EMPTY");
  CHECK(exec.env[1].value.empty());
  CHECK(exec.api_version == "client.authentication.k8s.io/v1");
  CHECK(exec.install_hint == "brew install awscli");
  CHECK(exec.provide_cluster_info);
  CHECK(exec.interactive_mode == rr::ExecInteractiveMode::Never);
  CHECK(exec.cluster_config_json.empty());
}

TEST_CASE("exec: interactiveMode defaults to IfAvailable for v1beta1 only; Always and IfAvailable are kept") {
  CHECK(exec_of(with_exec("{command: x, apiVersion: client.authentication.k8s.io/v1beta1}")).interactive_mode ==
        rr::ExecInteractiveMode::IfAvailable);
  CHECK(exec_of(with_exec("{command: x, apiVersion: client.authentication.k8s.io/v1, interactiveMode: Always}"))
            .interactive_mode == rr::ExecInteractiveMode::Always);
  CHECK(exec_of(with_exec("{command: x, apiVersion: client.authentication.k8s.io/v1, interactiveMode: IfAvailable}"))
            .interactive_mode == rr::ExecInteractiveMode::IfAvailable);
}

TEST_CASE("exec: a command with a path separator resolves against the kubeconfig's directory") {
  const TempDir dir;
  const auto path = dir.write("sub/config",
                              with_exec("{command: ./bin/plugin, apiVersion: client.authentication.k8s.io/v1beta1}"));
  CHECK(rr::load_kubeconfig_file(path).config.exec->command == dir.str() + "/sub/bin/plugin");
  const auto absolute = dir.write(
      "abs", with_exec("{command: /opt/plugin, apiVersion: client.authentication.k8s.io/v1beta1}"));
  CHECK(rr::load_kubeconfig_file(absolute).config.exec->command == "/opt/plugin");
  const auto bare = dir.write("bare", with_exec("{command: plugin, apiVersion: client.authentication.k8s.io/v1beta1}"));
  CHECK(rr::load_kubeconfig_file(bare).config.exec->command == "plugin");
}

TEST_CASE("exec: the cluster's client.authentication.k8s.io/exec extension becomes spec.cluster.config") {
  const auto exec = exec_of(with_exec("{command: x, apiVersion: client.authentication.k8s.io/v1beta1}",
                                      "    extensions:\n"
                                      "    - name: other\n      extension: {ignored: true}\n"
                                      "    - name: client.authentication.k8s.io/exec\n"
                                      "      extension:\n"
                                      "        audience: \"123\"\n        port: 443\n        ratio: 0.5\n"
                                      "        on: true\n        nothing: null\n        list: [a, 'true']\n"));
  REQUIRE_FALSE(exec.cluster_config_json.empty());
  const auto config = rr::Json::parse(exec.cluster_config_json);
  // go-yaml v2's scalars, keys too: the key on is YAML 1.1's true, written back as "true".
  CHECK(config ==
        rr::Json::parse(R"({"audience":"123","port":443,"ratio":0.5,"true":true,"nothing":null,"list":["a","true"]})"));
}

TEST_CASE("exec: clientcmd's checks, naming the file and user") {
  const std::string where = "kubeconfig test.yaml: user \"u\": exec: ";
  CHECK(exec_error("{apiVersion: client.authentication.k8s.io/v1, interactiveMode: Never}") ==
        where + "command must be specified to use exec authentication plugin");
  CHECK(exec_error("{command: x}") == where + "apiVersion must be specified to use exec authentication plugin");
  CHECK(exec_error("{command: x, apiVersion: client.authentication.k8s.io/v1alpha1}") ==
        where + "exec plugin: invalid apiVersion \"client.authentication.k8s.io/v1alpha1\" (supported: "
                "client.authentication.k8s.io/v1, client.authentication.k8s.io/v1beta1)");
  CHECK(exec_error("{command: x, apiVersion: client.authentication.k8s.io/v1}") ==
        where + "interactiveMode must be specified to use exec authentication plugin");
  CHECK(exec_error("{command: x, apiVersion: client.authentication.k8s.io/v1, interactiveMode: Sometimes}") ==
        where + "invalid interactiveMode \"Sometimes\" (Never, IfAvailable or Always)");
  CHECK(exec_error("{command: x, apiVersion: client.authentication.k8s.io/v1beta1, env: [{value: v}]}") ==
        where + "env variable name must be specified to use exec authentication plugin");
  CHECK(exec_error("{command: x, args: a}") ==
        "kubeconfig test.yaml: user \"u\": exec: args must be a list of strings");
  CHECK(exec_error("{command: x, env: {a: b}}") ==
        "kubeconfig test.yaml: user \"u\": exec: env must be a list of {name, value}");
  CHECK(exec_error("{command: [x]}") == "kubeconfig test.yaml: user \"u\": exec: command must be a string");
  CHECK(exec_error("{command: x, provideClusterInfo: maybe}") ==
        "kubeconfig test.yaml: user \"u\": exec: provideClusterInfo must be true or false");
  CHECK(exec_error("[x]") == "kubeconfig test.yaml: user \"u\": exec: exec must be a mapping");
}

TEST_CASE("exec beside a token: both are kept (the transport prefers the token, as client-go)") {
  const auto loaded = rr::load_kubeconfig_text(
      "current-context: c\nclusters:\n- name: k\n  cluster: {server: \"https://k:1\"}\n"
      "users:\n- name: u\n  user: {token: t, exec: {command: x, apiVersion: client.authentication.k8s.io/v1beta1}}\n"
      "contexts:\n- name: c\n  context: {cluster: k, user: u}\n");
  CHECK(loaded.config.bearer_token == "t");
  CHECK(loaded.config.exec.has_value());
}

TEST_CASE("exec: an extension too deep or too large (an alias bomb) is an error, not a hang") {
  std::string bomb =
      "    - name: client.authentication.k8s.io/exec\n      extension:\n        a: &a [x, x, x, x, x, x, x, x, x, x]\n";
  for (char level = 'b'; level <= 'f'; ++level) {
    const char previous = static_cast<char>(level - 1);
    bomb += std::string("        ") + level + ": &" + level + " [*" + previous + ", *" + previous + ", *" + previous +
            ", *" + previous + ", *" + previous + ", *" + previous + ", *" + previous + ", *" + previous + ", *" +
            previous + ", *" + previous + "]\n";
  }
  const std::string yaml = with_exec("{command: x, apiVersion: client.authentication.k8s.io/v1beta1}",
                                     "    extensions:\n" + bomb);
  // The reader stops the bomb itself (a million values at most); a plugin is handed 10,000 at most.
  CHECK_THROWS_WITH_AS(rr::load_kubeconfig_text(yaml, {}, {}, "test.yaml"),
                       "kubeconfig test.yaml: invalid YAML: yaml: line 14: document too large (aliases expand too far)",
                       rr::ConfigError);
  std::string wide = "[";
  for (int i = 0; i < 10001; ++i) wide += "1,";
  wide += "1]";
  CHECK_THROWS_WITH_AS(
      rr::load_kubeconfig_text(with_exec("{command: x, apiVersion: client.authentication.k8s.io/v1beta1}",
                                         "    extensions:\n    - name: client.authentication.k8s.io/exec\n"
                                         "      extension: " +
                                             wide + "\n"),
                               {}, {}, "test.yaml"),
      "kubeconfig test.yaml: cluster \"k\": extensions[client.authentication.k8s.io/exec]: more than 10000 values",
      rr::ConfigError);
  std::string deep = "[";
  for (int i = 0; i < 70; ++i) deep += "[";
  deep += std::string(71, ']');
  CHECK_THROWS_WITH_AS(
      rr::load_kubeconfig_text(with_exec("{command: x, apiVersion: client.authentication.k8s.io/v1beta1}",
                                         "    extensions:\n    - name: client.authentication.k8s.io/exec\n"
                                         "      extension: " +
                                             deep + "\n"),
                               {}, {}, "test.yaml"),
      "kubeconfig test.yaml: cluster \"k\": extensions[client.authentication.k8s.io/exec]: nested deeper than 64 "
      "levels",
      rr::ConfigError);
}
