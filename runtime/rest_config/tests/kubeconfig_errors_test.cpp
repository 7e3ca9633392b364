// Every kubeconfig error names its file and what is wrong; bad input never crashes.
#include <doctest/doctest.h>

#include "rr/rest_config/kubeconfig.hpp"
#include "test_support.hpp"

using rr::config_test::kPemBase64;
using rr::config_test::TempDir;

namespace {

std::string error_of(const std::string& yaml, std::string_view context = {}) {
  try {
    rr::load_kubeconfig_text(yaml, context, {}, "test.yaml");
  } catch (const rr::ConfigError& e) {
    return e.what();
  }
  return "(no error)";
}

// A valid kubeconfig with one cluster "k", one user "u" and context "c", with `user` as u's body.
std::string with_user(const std::string& user) {
  return "current-context: c\nclusters:\n- name: k\n  cluster: {server: \"https://k:1\"}\n"
         "users:\n- name: u\n  user: " + user + "\n"
         "contexts:\n- name: c\n  context: {cluster: k, user: u}\n";
}

std::string with_cluster(const std::string& cluster) {
  return "current-context: c\nclusters:\n- name: k\n  cluster: " + cluster + "\n"
         "contexts:\n- name: c\n  context: {cluster: k}\n";
}

}  // namespace

TEST_CASE("malformed YAML and wrong shapes") {
  CHECK(error_of("clusters: [").rfind("kubeconfig test.yaml: invalid YAML: ", 0) == 0);
  // yaml-cpp's parser allocated without end on this; rr::yaml refuses it at once.
  CHECK(error_of("{\"apiVersion\": \"v1\", \"kiname\": \"Bad.Name\"},\n \".INF\": {\"ports\": [{\"port\": 81}]}}\n") ==
        "kubeconfig test.yaml: invalid YAML: yaml: did not find expected <document start>");
  // As clientcmd decodes: a bool field takes a YAML bool (yes is one), not a quoted string.
  CHECK(error_of(with_cluster("{server: \"https://k:1\", insecure-skip-tls-verify: \"true\"}")) ==
        "kubeconfig test.yaml: cluster \"k\": insecure-skip-tls-verify must be true or false");
  CHECK(error_of("- a\n- b\n") == "kubeconfig test.yaml: the top level must be a mapping");
  CHECK(error_of("clusters: {a: b}\n") == "kubeconfig test.yaml: clusters must be a list");
  CHECK(error_of("users: [plain]\n") == "kubeconfig test.yaml: users[0]: must be a mapping with name and user");
  CHECK(error_of("contexts:\n- context: {}\n") == "kubeconfig test.yaml: contexts[0]: has no name");
  CHECK(error_of("contexts:\n- name: [x]\n") == "kubeconfig test.yaml: contexts[0]: name must be a string");
  CHECK(error_of("current-context: {a: 1}\n") == "kubeconfig test.yaml: current-context must be a string");
  CHECK(error_of("clusters:\n- name: k\n  cluster: [1]\n") ==
        "kubeconfig test.yaml: cluster \"k\": cluster must be a mapping");
  CHECK(error_of(with_cluster("{server: [a]}")) == "kubeconfig test.yaml: cluster \"k\": server must be a string");
  CHECK(error_of(with_cluster("{server: \"https://k:1\", insecure-skip-tls-verify: maybe}")) ==
        "kubeconfig test.yaml: cluster \"k\": insecure-skip-tls-verify must be true or false");
  CHECK(error_of(with_cluster("{server: \"https://k:1\", certificate-authority-data: \"not base64!\"}")) ==
        "kubeconfig test.yaml: cluster \"k\": certificate-authority-data is not valid base64");
  CHECK(error_of(with_user("{client-key-data: abc}")) ==
        "kubeconfig test.yaml: user \"u\": client-key-data is not valid base64");
}

TEST_CASE("a name defined twice in one file is rejected, as clientcmd's conversion does") {
  CHECK(error_of("users:\n- name: u\n  user: {}\n- name: u\n  user: {}\n") ==
        "kubeconfig test.yaml: duplicate user name \"u\"");
}

TEST_CASE("missing context, cluster, user and server") {
  CHECK(error_of("clusters: []\n") == "kubeconfig test.yaml: no current-context is set and no context was given");
  CHECK(error_of("") == "kubeconfig test.yaml: no current-context is set and no context was given");
  CHECK(error_of(with_user("{}"), "x") == "kubeconfig test.yaml: context \"x\" not found");
  CHECK(error_of("current-context: c\ncontexts:\n- name: c\n  context: {user: u}\n") ==
        "kubeconfig test.yaml: context \"c\": no cluster is set");
  CHECK(error_of("current-context: c\ncontexts:\n- name: c\n  context: {cluster: k}\n") ==
        "kubeconfig test.yaml: cluster \"k\" of context \"c\" not found");
  CHECK(error_of("current-context: c\nclusters:\n- name: k\n  cluster: {server: \"https://k:1\"}\n"
                 "contexts:\n- name: c\n  context: {cluster: k, user: nobody}\n") ==
        "kubeconfig test.yaml: user \"nobody\" of context \"c\" not found");
  // A plain y is YAML 1.1's true, and a string field takes its text, as clientcmd reads it.
  CHECK(error_of("current-context: c\nclusters:\n- name: k\n  cluster: {server: \"https://k:1\"}\n"
                 "contexts:\n- name: c\n  context: {cluster: k, user: y}\n") ==
        "kubeconfig test.yaml: user \"true\" of context \"c\" not found");
  CHECK(error_of(with_cluster("{insecure-skip-tls-verify: true}")) ==
        "kubeconfig test.yaml: cluster \"k\": no server is set");
}

TEST_CASE("unsupported authentication names the user") {
  CHECK(error_of(with_user("{auth-provider: {name: gcp}}")) ==
        "kubeconfig test.yaml: user \"u\": auth-provider is not supported; "
        "use exec, a token, tokenFile or client certificate");
  CHECK(error_of(with_user("{username: admin, password: secret}")) ==
        "kubeconfig test.yaml: user \"u\": username/password (basic auth) is not supported; "
        "use exec, a token, tokenFile or client certificate");
  CHECK(error_of(with_user("{token: t, exec: null}")) == "(no error)");  // a null exec is no exec
}

TEST_CASE("a client certificate needs its key and the reverse") {
  CHECK(error_of(with_user("{client-certificate-data: " + kPemBase64 + "}")) ==
        "kubeconfig test.yaml: user \"u\": client-certificate is set but client-key / client-key-data is missing");
  CHECK(error_of(with_user("{client-key-data: " + kPemBase64 + "}")) ==
        "kubeconfig test.yaml: user \"u\": client-key is set but client-certificate / client-certificate-data is missing");
}

TEST_CASE("insecure-skip-tls-verify with a certificate authority is refused, as client-go's transport") {
  CHECK(error_of(with_cluster("{server: \"https://k:1\", insecure-skip-tls-verify: true, "
                              "certificate-authority-data: " + kPemBase64 + "}")) ==
        "kubeconfig test.yaml: cluster \"k\": insecure-skip-tls-verify cannot be combined with a certificate authority");
}

TEST_CASE("files that cannot be read are named") {
  const TempDir dir;
  const auto path = dir.write("config", with_cluster("{server: \"https://k:1\", certificate-authority: ca.crt}"));
  try {
    rr::load_kubeconfig_file(path);
    FAIL("expected an error");
  } catch (const rr::ConfigError& e) {
    CHECK(std::string(e.what()) == "kubeconfig " + path + ": cluster \"k\": cannot read certificate-authority " +
                                       dir.str() + "/ca.crt");
  }
  const auto token_config = dir.write("token-config", with_user("{tokenFile: /nonexistent/token}"));
  CHECK_THROWS_WITH_AS(rr::load_kubeconfig_file(token_config),
                       ("kubeconfig " + token_config + ": user \"u\": cannot read tokenFile /nonexistent/token").c_str(),
                       rr::ConfigError);
  const auto cert_config = dir.write("cert-config", with_user("{client-certificate: c.crt, client-key: c.key}"));
  CHECK_THROWS_WITH_AS(rr::load_kubeconfig_file(cert_config),
                       ("kubeconfig " + cert_config + ": user \"u\": cannot read client-certificate " + dir.str() +
                        "/c.crt").c_str(),
                       rr::ConfigError);
  CHECK_THROWS_WITH_AS(rr::load_kubeconfig_file(dir.str() + "/none"),
                       ("kubeconfig " + dir.str() + "/none: cannot read the file").c_str(), rr::ConfigError);
  CHECK_THROWS_WITH_AS(rr::load_kubeconfig_file(dir.str()),  // a directory
                       ("kubeconfig " + dir.str() + ": cannot read the file").c_str(), rr::ConfigError);
  CHECK_THROWS_WITH_AS(rr::load_kubeconfig_files({dir.str() + "/x", dir.str() + "/y"}),
                       ("kubeconfig " + dir.str() + "/x:" + dir.str() + "/y: none of these files exists").c_str(),
                       rr::ConfigError);
}

TEST_CASE("errors in a merged list name the file the entry came from") {
  const TempDir dir;
  const auto first = dir.write("a", "current-context: c\n");
  const auto second = dir.write("b", with_cluster("{}"));
  CHECK_THROWS_WITH_AS(rr::load_kubeconfig_files({first, second}),
                       ("kubeconfig " + second + ": cluster \"k\": no server is set").c_str(), rr::ConfigError);
  const auto broken = dir.write("broken", "clusters: 5\n");
  CHECK_THROWS_WITH_AS(rr::load_kubeconfig_files({first, broken}),
                       ("kubeconfig " + broken + ": clusters must be a list").c_str(), rr::ConfigError);
}

TEST_CASE("an invalid user only fails when its context is selected") {
  const std::string yaml = with_user("{token: t}") +
                           "- name: plugin-context\n  context: {cluster: k, user: plugin}\n"
                           "- name: dummy\n  context: {cluster: k}\n";
  const std::string with_plugin_user =
      yaml.substr(0, yaml.find("contexts:")) + "- name: plugin\n  user: {exec: {command: x}}\n" +
      yaml.substr(yaml.find("contexts:"));
  CHECK(error_of(with_plugin_user) == "(no error)");
  CHECK(error_of(with_plugin_user, "plugin-context") ==
        "kubeconfig test.yaml: user \"plugin\": exec: apiVersion must be specified to use exec authentication plugin");
}

TEST_CASE("an entry of a merged list that exists but cannot be read is an error, not skipped") {
  const TempDir dir;
  const auto good = dir.write("good", with_user("{token: t}"));
  CHECK_THROWS_WITH_AS(rr::load_kubeconfig_files({dir.str(), good}),
                       ("kubeconfig " + dir.str() + ": cannot read the file").c_str(), rr::ConfigError);
}
