// How the local cluster reaches an admission or conversion webhook: a clientConfig
// (admissionregistration.k8s.io/v1 WebhookClientConfig, apiextensions' the same shape) resolved to
// an HTTPS endpoint and called with a POST, as the API server's webhook client does.
//
// A `service` reference resolves to the Service's endpoints (service_endpoints.hpp): a ready pod
// the node agent runs that the Service selects, or, when the agent runs none of them, the local
// convention https://127.0.0.1:<numeric targetPort>. The certificate is verified for
// <name>.<namespace>.svc as the API server verifies it.
#pragma once
#include <chrono>
#include <optional>
#include <stdexcept>
#include <string>

#include "rr/cluster/cluster.hpp"
#include "rr/core/json.hpp"

namespace rr::apiserver_detail {

struct ServiceReference {
  std::string namespace_, name, path;
  int port = 443;
};

struct WebhookClientConfig {
  std::string url;  // set, or service
  std::optional<ServiceReference> service;
  std::string ca_bundle_pem;  // "": the system's trust store
};

// The clientConfig as written; std::invalid_argument with the API server's field message when it
// names neither or both, or caBundle is not base64.
WebhookClientConfig webhook_client_config(const Json& client_config);

// A call that did not produce a response body: the text the API server writes after
// "failed to call webhook: " (e.g. `Post "https://127.0.0.1:9443/validate?timeout=10s": context
// deadline exceeded`).
class WebhookCallError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Where a call goes, resolved from the store (a service reference) but not yet made.
struct WebhookEndpoint {
  std::string host;     // what the certificate is verified for
  std::string address;  // where to connect
  int port = 443;
  std::string path;   // with its query, if any
  std::string shown;  // the URL the API server's errors show
  std::string ca_bundle_pem;
};
// `query` is added to the path (the API server tells an admission webhook its deadline there,
// "timeout=10s", and shows it in its errors). Throws WebhookCallError when a service reference
// does not resolve.
WebhookEndpoint resolve_webhook(const WebhookClientConfig& config, const StoreReader& store, const std::string& query);
// POSTs `body` (JSON) and returns the response body; a status other than 200 is an error too.
std::string post_webhook(const WebhookEndpoint& endpoint, const std::string& body, std::chrono::seconds timeout);
// resolve_webhook without a query (a conversion webhook's call), then post_webhook.
std::string call_webhook(const WebhookClientConfig& config, const StoreReader& store, const std::string& body,
                         std::chrono::seconds timeout);

}  // namespace rr::apiserver_detail
