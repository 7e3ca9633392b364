#include "webhook_client.hpp"

#include <httplib.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include <algorithm>
#include <memory>

#include "rr/client/call_deadline.hpp"
#include "rr/core/time.hpp"
#include "service_endpoints.hpp"

namespace rr::apiserver_detail {

namespace {

const GroupVersionKind service_gvk{"", "v1", "Service"};

std::string with_query(std::string target, const std::string& query) {
  if (query.empty()) return target;
  return target + (target.find('?') == std::string::npos ? "?" : "&") + query;
}

// https://host[:port][/path]
WebhookEndpoint parse_url(const std::string& url) {
  constexpr std::string_view scheme = "https://";
  if (url.compare(0, scheme.size(), scheme) != 0) throw WebhookCallError("unsupported protocol scheme in " + url);
  const std::string rest = url.substr(scheme.size());
  const std::size_t slash = rest.find('/');
  std::string authority = rest.substr(0, slash);
  WebhookEndpoint endpoint;
  endpoint.path = slash == std::string::npos ? "/" : rest.substr(slash);
  if (const std::size_t colon = authority.rfind(':'); colon != std::string::npos && authority.back() != ']') {
    try {
      endpoint.port = std::stoi(authority.substr(colon + 1));
    } catch (const std::exception&) {
      throw WebhookCallError("invalid port in " + url);
    }
    authority.resize(colon);
  }
  endpoint.host = endpoint.address = authority;
  return endpoint;
}

// A service reference: the Service's endpoints (service_endpoints.hpp), the certificate verified
// for <name>.<namespace>.svc as the API server verifies it.
WebhookEndpoint resolve_service(const ServiceReference& ref, const StoreReader& store, const std::string& query) {
  WebhookEndpoint endpoint;
  endpoint.host = ref.name + "." + ref.namespace_ + ".svc";
  endpoint.path = with_query(ref.path.empty() ? "/" : ref.path, query);
  endpoint.shown = "https://" + endpoint.host + ":" + std::to_string(ref.port) + endpoint.path;
  const Json* service = store.find(service_gvk, ObjectKey{ref.namespace_, ref.name});
  if (!service) throw WebhookCallError("Post \"" + endpoint.shown + "\": service \"" + ref.name + "\" not found");
  try {
    const ServiceTarget target = resolve_service_target(*service, ref.port, store);
    endpoint.address = target.address;
    endpoint.port = target.port;
  } catch (const ServiceUnavailable& e) {
    throw WebhookCallError("Post \"" + endpoint.shown + "\": " + e.what());
  }
  return endpoint;
}

X509_STORE* trust_store(const std::string& pem) {
  std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())), BIO_free);
  X509_STORE* store = X509_STORE_new();
  int added = 0;
  while (X509* cert = PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr)) {
    added += X509_STORE_add_cert(store, cert);
    X509_free(cert);
  }
  if (added == 0) {
    X509_STORE_free(store);
    return nullptr;
  }
  return store;
}

}  // namespace

WebhookEndpoint resolve_webhook(const WebhookClientConfig& config, const StoreReader& store, const std::string& query) {
  if (config.service) {
    WebhookEndpoint endpoint = resolve_service(*config.service, store, query);
    endpoint.ca_bundle_pem = config.ca_bundle_pem;
    return endpoint;
  }
  WebhookEndpoint endpoint = parse_url(config.url);
  endpoint.path = with_query(endpoint.path, query);
  endpoint.shown = with_query(config.url, query);
  endpoint.ca_bundle_pem = config.ca_bundle_pem;
  return endpoint;
}

std::string call_webhook(const WebhookClientConfig& config, const StoreReader& store, const std::string& body,
                         std::chrono::seconds timeout) {
  return post_webhook(resolve_webhook(config, store, ""), body, timeout);
}

std::string post_webhook(const WebhookEndpoint& endpoint, const std::string& body, std::chrono::seconds timeout) {
  const std::string post = "Post \"" + endpoint.shown + "\": ";

  httplib::SSLClient client(endpoint.host, endpoint.port);
  if (endpoint.address != endpoint.host) client.set_hostname_addr_map({{endpoint.host, endpoint.address}});
  if (!endpoint.ca_bundle_pem.empty()) {
    X509_STORE* ca = trust_store(endpoint.ca_bundle_pem);
    if (!ca) throw WebhookCallError(post + "x509: no certificate in caBundle");
    client.set_ca_cert_store(ca);  // the client's SSL context owns it from here
  }
  client.enable_server_certificate_verification(true);
  // The webhook's timeoutSeconds, shortened to what is left of the caller's deadline when the call
  // runs on a reconcile's thread (an operator's embedded cluster; rr/client/call_deadline.hpp).
  std::chrono::microseconds limit = timeout;
  if (const auto deadline = CallDeadline::current()) {
    const auto left = std::chrono::duration_cast<std::chrono::microseconds>(*deadline -
                                                                            std::chrono::steady_clock::now());
    if (left <= std::chrono::microseconds::zero()) throw WebhookCallError(post + "context deadline exceeded");
    limit = std::min(limit, left);
  }
  const auto seconds = static_cast<time_t>(limit.count() / 1000000);
  const auto micros = static_cast<time_t>(limit.count() % 1000000);
  client.set_connection_timeout(seconds, micros);
  client.set_read_timeout(seconds, micros);
  client.set_write_timeout(seconds, micros);
  const auto started = std::chrono::steady_clock::now();
  auto result = client.Post(endpoint.path.c_str(), body, "application/json");
  if (!result) {
    const auto error = result.error();
    const bool timed_out = error == httplib::Error::ConnectionTimeout ||
                           (error == httplib::Error::Read && std::chrono::steady_clock::now() - started >= limit);
    if (timed_out) throw WebhookCallError(post + "context deadline exceeded");
    switch (error) {
      case httplib::Error::Connection:
        throw WebhookCallError(post + "dial tcp " + endpoint.address + ":" + std::to_string(endpoint.port) +
                               ": connect: connection refused");
      case httplib::Error::SSLServerVerification:
        throw WebhookCallError(post +
                               "tls: failed to verify certificate: x509: certificate signed by unknown authority");
      default: throw WebhookCallError(post + httplib::to_string(error));
    }
  }
  if (result->status != 200) {
    throw WebhookCallError("an error on the server (\"" + result->body +
                           "\") has prevented the request from succeeding");
  }
  return result->body;
}

}  // namespace rr::apiserver_detail
