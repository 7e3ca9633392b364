// A webhook's clientConfig as written (kept apart from the HTTPS client: the configuration
// checks and their fuzz target need no network code).
#include "rr/core/time.hpp"
#include "webhook_client.hpp"

namespace rr::apiserver_detail {

WebhookClientConfig webhook_client_config(const Json& client_config) {
  WebhookClientConfig config;
  if (!client_config.is_object()) throw std::invalid_argument("clientConfig: Required value");
  if (auto url = client_config.find("url"); url != client_config.end() && url->is_string()) config.url = *url;
  if (auto service = client_config.find("service"); service != client_config.end() && service->is_object()) {
    ServiceReference ref;
    ref.namespace_ = service->value("namespace", "");
    ref.name = service->value("name", "");
    ref.path = service->value("path", "");
    ref.port = service->value("port", 443);
    config.service = std::move(ref);
  }
  if (config.url.empty() == !config.service) {
    throw std::invalid_argument("clientConfig: Required value: exactly one of url or service is required");
  }
  if (auto ca = client_config.find("caBundle"); ca != client_config.end() && ca->is_string()) {
    auto pem = Bytes(ca->get<std::string>()).decode();
    if (!pem) throw std::invalid_argument("clientConfig.caBundle: Invalid value: not base64");
    config.ca_bundle_pem = std::move(*pem);
  }
  return config;
}

}  // namespace rr::apiserver_detail
