// Authentication over TLS: the server's development CA and a client certificate, bearer tokens,
// and the kubeconfig the server writes, loaded by the kubeconfig loader and used as is.
#include <doctest/doctest.h>

#include "live_cluster.hpp"
#include "rr/apiserver/dev_certificates.hpp"
#include "rr/rest_config/kubeconfig.hpp"

using namespace rr;
using namespace rr::integration;

namespace {

ApiServerOptions tls_server(const DevCertificates& certs) {
  ApiServerOptions options;
  options.tls = tls_options(certs);
  return options;
}

RestConfig with_client_certificate(RestConfig config, const DevCertificates& certs) {
  config.ca_data = certs.ca_pem;
  config.client_cert_data = certs.client_cert_pem;
  config.client_key_data = certs.client_key_pem;
  return config;
}

}  // namespace

TEST_CASE("TLS with the development CA: a client certificate authenticates, others are refused") {
  const DevCertificates certs = make_dev_certificates();
  LiveCluster live(tls_server(certs));
  CHECK(live.server().url().rfind("https://127.0.0.1:", 0) == 0);
  auto client = live.client(with_client_certificate(live.config(), certs));
  const KindInfo cm = client->kind_info(config_map_gvk());
  client->create(cm, config_map("default", "over-tls", {{"k", "v"}}));
  CHECK(client->get(cm, {"default", "over-tls"})["data"]["k"] == "v");
  CHECK(client->get_path("/version")["major"] == "1");

  SUBCASE("no client certificate: 401 Unauthorized, except for /version") {
    RestConfig anonymous = live.config();
    anonymous.ca_data = certs.ca_pem;
    auto stranger = live.client(anonymous);
    const Status refused = status_of([&] { stranger->get(cm, {"default", "over-tls"}); });
    CHECK(refused.code == 401);
    CHECK(refused.reason == "Unauthorized");
    CHECK(stranger->get_path("/version")["major"] == "1");
  }
  SUBCASE("a server certificate from another CA is refused by the client (no HTTP answer)") {
    const DevCertificates other = make_dev_certificates();
    auto wary = live.client(with_client_certificate(live.config(), other));
    const Status refused = status_of([&] { wary->get(cm, {"default", "over-tls"}); });
    CHECK(refused.code == 0);
    CHECK(refused.reason == "ServiceUnavailable");
  }
  SUBCASE("no CA: the system store does not know the development CA") {
    RestConfig system_store = live.config();
    auto wary = live.client(system_store);
    CHECK(status_of([&] { wary->get_path("/version"); }).code == 0);
  }
}

// Every HttpClient shares TLS sessions between its connections (CURLSH), so its second connection
// (here: a watch beside the pooled request connection) asks the server to resume the first's session.
TEST_CASE("TLS with a client certificate: a watch beside requests (a second, resumed TLS connection)") {
  const DevCertificates certs = make_dev_certificates();
  LiveCluster live(tls_server(certs));
  auto client = live.client(with_client_certificate(live.config(), certs));
  const KindInfo cm = client->kind_info(config_map_gvk());  // first connection
  auto watch = client->watch(cm, {.namespace_ = "default"});  // second connection
  client->create(cm, config_map("default", "seen"));
  auto event = watch->next(std::chrono::seconds(5));
  REQUIRE(event.has_value());
  CHECK(event->object["metadata"]["name"] == "seen");
}

TEST_CASE("bearer tokens: accepted token passes, missing or wrong token gets 401") {
  const DevCertificates certs = make_dev_certificates();
  ApiServerOptions options = tls_server(certs);
  options.tls->client_ca_pem.clear();  // tokens only
  options.bearer_tokens = {"s3cret-token"};
  LiveCluster live(options);
  RestConfig config = live.config();
  config.ca_data = certs.ca_pem;

  RestConfig with_token = config;
  with_token.bearer_token = "s3cret-token";
  auto client = live.client(with_token);
  const KindInfo cm = client->kind_info(config_map_gvk());
  client->create(cm, config_map("default", "tokened"));
  CHECK(client->list(cm, {.namespace_ = "default"})["items"].size() == 1);

  const Status missing = status_of([&] { live.client(config)->get(cm, {"default", "tokened"}); });
  CHECK(missing.code == 401);
  CHECK(missing.reason == "Unauthorized");
  RestConfig wrong = config;
  wrong.bearer_token = "guess";
  CHECK(status_of([&] { live.client(wrong)->list(cm, {}); }).code == 401);
  // Discovery is authenticated too: an unauthenticated client cannot even map kinds.
  CHECK(status_of([&] { live.client(config)->kind_info(deployment_gvk()); }).code == 401);
}

TEST_CASE("the server's kubeconfig, loaded by the kubeconfig loader, gives a working client") {
  const DevCertificates certs = make_dev_certificates();
  LiveCluster live(tls_server(certs));
  const std::string yaml = live.server().kubeconfig_yaml(kubeconfig_user(certs));
  const LoadedConfig loaded = load_kubeconfig_text(yaml);
  CHECK(loaded.config.host == live.server().url());
  CHECK_FALSE(loaded.config.ca_data.empty());
  CHECK_FALSE(loaded.config.insecure_skip_tls_verify);
  HttpClient client(loaded.config, quick_retries());
  const KindInfo cm = client.kind_info(config_map_gvk());
  client.create(cm, config_map("default", "from-kubeconfig"));
  CHECK(live.cluster().get(cm, {"default", "from-kubeconfig"})["metadata"]["name"] == "from-kubeconfig");
}
