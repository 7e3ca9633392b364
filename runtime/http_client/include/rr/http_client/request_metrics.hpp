// What rr::HttpClient reports about its requests, for client-go's rest_client_* metrics. The
// client only calls this interface; rr::manager's rest_client_metrics() writes it to a Prometheus
// registry, so rr::http_client does not depend on rr::controller's metrics.
#pragma once
#include <string_view>

namespace rr {

class HttpClientMetrics {
 public:
  virtual ~HttpClientMetrics() = default;
  // Once per attempt (each retry counts), when the response headers have arrived; as client-go's
  // RequestResult: `code` "200", "404", …, or "<error>" when no HTTP answer came; `method` "GET",
  // "POST", …; `host` the API server's host[:port] as configured. A watch counts once, when its
  // headers arrive.
  virtual void request_result(std::string_view code, std::string_view method, std::string_view host) = 0;
  // Once per call, rate limiting and retries included, also when it fails; as client-go's
  // RequestLatency (labels verb and host). A watch's ends when its headers have arrived.
  virtual void request_latency(std::string_view verb, std::string_view host, double seconds) = 0;
  // Once per attempt, the time it waited for the client-side rate limiter (0 when a token was
  // there, and with the limit off); as client-go's RateLimiterLatency (labels verb and host).
  virtual void rate_limiter_latency(std::string_view verb, std::string_view host, double seconds) = 0;
};

}  // namespace rr
