// /metrics and the probes on the manager's own HTTP server (http_server.hpp).
#include "manager_http.hpp"

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "metrics_auth.hpp"
#include "rr/controller/metrics.hpp"
#include "rr/http_server/server.hpp"

namespace rr {
namespace {

using http_server::Response;

Response answer(const HealthResponse& health) {
  Response response;
  response.status = health.status;
  response.content_type = health.content_type;
  response.body = health.body;
  response.fields.emplace_back("X-Content-Type-Options", "nosniff");
  return response;
}

// "/healthz" → "", "/healthz/ping" → "/ping"; nullopt for another path ("/healthzfoo" too).
std::optional<std::string_view> sub_path(std::string_view path, std::string_view endpoint) {
  if (!path.starts_with(endpoint)) return std::nullopt;
  path.remove_prefix(endpoint.size());
  if (!path.empty() && path.front() != '/') return std::nullopt;
  return path;
}

}  // namespace

struct HttpServer::Impl {
  const metrics::Registry* registry = nullptr;
  std::function<void()> collect;
  std::shared_ptr<MetricsAuth> auth;
  const HealthChecks* healthz = nullptr;
  const HealthChecks* readyz = nullptr;
  std::optional<http_server::Server> server;

  Response route(const http_server::Request& request, const http_server::Target& target) const {
    if (auth) {
      if (auto refused = auth->check(request, target.path)) return *refused;
    }
    if (registry != nullptr && target.path == "/metrics") {
      if (collect) collect();
      Response response;
      response.content_type = std::string(metrics::Registry::content_type);
      response.body = registry->expose();
      return response;
    }
    for (const auto& [endpoint, checks] : {std::pair{"/healthz", healthz}, std::pair{"/readyz", readyz}}) {
      if (checks == nullptr) continue;
      if (const auto sub = sub_path(target.path, endpoint)) {
        return answer(checks->serve(*sub, target.has_param("verbose"), target.param_values("exclude")));
      }
    }
    // As Go's http.NotFound.
    return answer(HealthResponse{404, "404 page not found\n"});
  }
};

HttpServer::HttpServer() : impl_(std::make_unique<Impl>()) {}

HttpServer::~HttpServer() { stop(); }

void HttpServer::serve_metrics(const metrics::Registry& registry, std::function<void()> collect,
                               std::shared_ptr<MetricsAuth> auth) {
  impl_->registry = &registry;
  impl_->collect = std::move(collect);
  impl_->auth = std::move(auth);
}

void HttpServer::serve_probes(const HealthChecks& healthz, const HealthChecks& readyz) {
  impl_->healthz = &healthz;
  impl_->readyz = &readyz;
}

int HttpServer::start(const BindAddress& address, std::shared_ptr<http_server::CertificateFiles> tls) {
  Impl* impl = impl_.get();
  http_server::ServerOptions options;
  options.tls = std::move(tls);
  impl_->server.emplace([impl](const http_server::Request& request,
                               const http_server::Target& target) { return impl->route(request, target); },
                        std::move(options));
  return impl_->server->start(address.host, address.port);
}

void HttpServer::stop() {
  if (impl_->server) impl_->server->stop();
}

}  // namespace rr
