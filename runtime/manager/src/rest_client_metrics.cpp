// Names, labels, help texts and buckets as controller-runtime's (requests_total) and Kubernetes
// component-base's (request_duration_seconds, rate_limiter_duration_seconds), so that dashboards
// work unchanged.
#include "rr/manager/rest_client_metrics.hpp"

#include <string>

namespace rr::metrics {
namespace {

class PrometheusRestClientMetrics final : public HttpClientMetrics {
 public:
  explicit PrometheusRestClientMetrics(Registry& registry)
      : requests_(registry.counter("rest_client_requests_total",
                                   "Number of HTTP requests, partitioned by status code, method, and host.",
                                   {"code", "method", "host"})),
        duration_(registry.histogram("rest_client_request_duration_seconds",
                                     "Request latency in seconds. Broken down by verb, and host.", {"verb", "host"},
                                     rest_client_duration_buckets())),
        rate_limiter_(registry.histogram("rest_client_rate_limiter_duration_seconds",
                                         "Client side rate limiter latency in seconds. Broken down by verb, and host.",
                                         {"verb", "host"}, rest_client_duration_buckets())) {}

  void request_result(std::string_view code, std::string_view method, std::string_view host) override {
    requests_.with({code, method, host}).inc();
  }
  void request_latency(std::string_view verb, std::string_view host, double seconds) override {
    duration_.with({verb, host}).observe(seconds);
  }
  void rate_limiter_latency(std::string_view verb, std::string_view host, double seconds) override {
    rate_limiter_.with({verb, host}).observe(seconds);
  }

 private:
  CounterFamily& requests_;
  HistogramFamily& duration_;
  HistogramFamily& rate_limiter_;
};

}  // namespace

const std::vector<double>& rest_client_duration_buckets() {
  static const std::vector<double> buckets{0.005, 0.025, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 15.0, 30.0, 60.0};
  return buckets;
}

std::shared_ptr<HttpClientMetrics> rest_client_metrics(Registry& registry) {
  return std::make_shared<PrometheusRestClientMetrics>(registry);
}

}  // namespace rr::metrics
