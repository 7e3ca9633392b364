// The manager's two HTTP servers, /metrics and the probes, on its own small server (http_server.hpp):
// the probes over plain HTTP, /metrics over HTTPS behind MetricsAuth unless --metrics-secure=false.
#pragma once
#include <functional>
#include <memory>

#include "rr/manager/health_checks.hpp"
#include "rr/manager/manager_options.hpp"

namespace rr {
namespace metrics {
class Registry;
}
namespace http_server {
class CertificateFiles;
}
class MetricsAuth;

class HttpServer {
 public:
  HttpServer();
  ~HttpServer();  // stops
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Routes; set before start(). Referenced objects must outlive the server.
  // GET /metrics: collect(), then the registry in the text format; with `auth`, every request on
  // the server (any path) passes its check first, as controller-runtime filters the whole server.
  void serve_metrics(const metrics::Registry& registry, std::function<void()> collect,
                     std::shared_ptr<MetricsAuth> auth = nullptr);
  // GET /healthz[/<name>] and /readyz[/<name>] (?verbose, ?exclude=<name>).
  void serve_probes(const HealthChecks& healthz, const HealthChecks& readyz);

  // Binds and serves on a thread of its own; returns the bound port. Throws std::runtime_error
  // when the address cannot be bound.
  // With `tls`, HTTPS.
  int start(const BindAddress& address, std::shared_ptr<http_server::CertificateFiles> tls = nullptr);
  // Stops accepting and joins the serving thread. Idempotent.
  void stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace rr
