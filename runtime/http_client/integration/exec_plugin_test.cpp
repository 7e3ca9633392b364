// A kubeconfig exec credential plugin against the real local cluster: the plugin (a bash script
// written by the test) prints a token the API server accepts, or a client certificate of its
// client CA; expired credentials and a 401 run it again.
#include <doctest/doctest.h>

#include "live_cluster.hpp"
#include "plugin_dir.hpp"
#include "rr/apiserver/dev_certificates.hpp"
#include "rr/rest_config/kubeconfig.hpp"

using namespace rr;
using namespace rr::integration;
using rr_test::PluginDir;

namespace {

// TLS with the development CA, bearer tokens only.
ApiServerOptions token_server(const DevCertificates& certs, const std::string& token) {
  ApiServerOptions options;
  options.tls = tls_options(certs);
  options.tls->client_ca_pem.clear();
  options.bearer_tokens = {token};
  return options;
}

// A kubeconfig naming the plugin by a path relative to the kubeconfig's directory.
std::string exec_kubeconfig(const std::string& server, const std::string& ca_pem) {
  return "apiVersion: v1\nkind: Config\ncurrent-context: live\n"
         "clusters:\n- name: live\n  cluster:\n    server: " +
         server +
         "\n"
         "    certificate-authority-data: " +
         Bytes::encode(ca_pem).str() +
         "\n"
         "users:\n- name: plugin\n  user:\n    exec:\n"
         "      apiVersion: client.authentication.k8s.io/v1\n"
         "      command: ./plugin.sh\n      args: [--cluster, live]\n"
         "      interactiveMode: IfAvailable\n      provideClusterInfo: true\n"
         "contexts:\n- name: live\n  context: {cluster: live, user: plugin}\n";
}

}  // namespace

TEST_CASE("exec plugin from a kubeconfig: its token lists objects; an expired token runs it again") {
  const DevCertificates certs = make_dev_certificates();
  LiveCluster live(token_server(certs, "plugin-token"));
  PluginDir plugin;
  plugin.token("plugin-token", "2001-01-01T00:00:00Z");
  const LoadedConfig loaded = load_kubeconfig_text(exec_kubeconfig(live.server().url(), certs.ca_pem), {},
                                                   plugin.path.string());
  REQUIRE(loaded.config.exec.has_value());
  HttpClient client(loaded.config, quick_retries());
  const KindInfo cm = client.kind_info(config_map_gvk());
  client.create(cm, config_map("default", "via-plugin"));
  CHECK(client.list(cm, {.namespace_ = "default"})["items"].size() == 1);
  const int runs = plugin.runs();
  CHECK(runs >= 3);  // discovery, create and list: each found the credential expired
  CHECK(plugin.read("args") == "--cluster\nlive\n");
  const Json info = Json::parse(plugin.read("exec_info"));
  CHECK(info["spec"]["cluster"]["server"] == live.server().url());
  CHECK(info["spec"]["cluster"]["certificate-authority-data"] == Bytes::encode(certs.ca_pem).str());

  // Valid for an hour: no more runs.
  plugin.token("plugin-token", Time::from(std::chrono::system_clock::now() + std::chrono::hours(1)).str());
  client.list(cm, {.namespace_ = "default"});
  client.list(cm, {.namespace_ = "default"});
  CHECK(plugin.runs() == runs + 1);
}

TEST_CASE("exec plugin: the API server's 401 runs it again once") {
  const DevCertificates certs = make_dev_certificates();
  LiveCluster live(token_server(certs, "good-token"));
  PluginDir plugin;
  plugin.token("revoked-token", {}, "out-1.json");
  plugin.token("good-token");
  RestConfig config = live.config();
  config.ca_data = certs.ca_pem;
  config.exec = plugin.exec();
  HttpClient client(config, quick_retries());
  CHECK(status_of([&] { client.kind_info(config_map_gvk()); }).code == 401);
  CHECK(plugin.runs() == 1);
  const KindInfo cm = client.kind_info(config_map_gvk());
  client.create(cm, config_map("default", "after-401"));
  CHECK(client.get(cm, {"default", "after-401"})["metadata"]["name"] == "after-401");
  CHECK(plugin.runs() == 2);
}

TEST_CASE("exec plugin: a client certificate of the cluster's client CA authenticates; when expired, a new run") {
  const DevCertificates certs = make_dev_certificates();
  ApiServerOptions options;
  options.tls = tls_options(certs);
  LiveCluster live(options);
  PluginDir plugin;
  plugin.certificate(certs.client_cert_pem, certs.client_key_pem, "2001-01-01T00:00:00Z");
  RestConfig config = live.config();
  config.ca_data = certs.ca_pem;
  config.exec = plugin.exec();
  HttpClient client(config, quick_retries());
  const KindInfo cm = client.kind_info(config_map_gvk());
  client.create(cm, config_map("default", "by-certificate"));
  CHECK(live.cluster().get(cm, {"default", "by-certificate"})["metadata"]["name"] == "by-certificate");
  CHECK(plugin.runs() >= 2);

  SUBCASE("without the plugin's certificate the same server refuses") {
    RestConfig anonymous = live.config();
    anonymous.ca_data = certs.ca_pem;
    CHECK(status_of([&] { HttpClient(anonymous, quick_retries()).kind_info(config_map_gvk()); }).code == 401);
  }
}
