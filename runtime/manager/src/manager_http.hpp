// The manager's two HTTP servers, /metrics and the probes, on its own small server (http_server.hpp).
#pragma once
#include <functional>
#include <memory>

#include "rr/manager/health_checks.hpp"
#include "rr/manager/manager_options.hpp"

namespace rr {
namespace metrics {
class Registry;
}

class HttpServer {
 public:
  HttpServer();
  ~HttpServer();  // stops
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Routes; set before start(). Referenced objects must outlive the server.
  // GET /metrics: collect(), then the registry in the text format.
  void serve_metrics(const metrics::Registry& registry, std::function<void()> collect);
  // GET /healthz[/<name>] and /readyz[/<name>] (?verbose, ?exclude=<name>).
  void serve_probes(const HealthChecks& healthz, const HealthChecks& readyz);

  // Binds and serves on a thread of its own; returns the bound port. Throws std::runtime_error
  // when the address cannot be bound.
  int start(const BindAddress& address);
  // Stops accepting and joins the serving thread. Idempotent.
  void stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace rr
