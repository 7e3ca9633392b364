// client-go's rest_client_* families on a Prometheus registry, fed by rr::HttpClient:
//
//   api->set_metrics(rr::metrics::rest_client_metrics(manager.metrics()));
//
// rest_client_requests_total{code,method,host} is what controller-runtime registers (its
// pkg/metrics/client_go_adapter.go); rest_client_request_duration_seconds{verb,host} is
// Kubernetes' (component-base's restclient metrics), which controller-runtime no longer registers,
// as is rest_client_rate_limiter_duration_seconds{verb,host}: the wait for the client-side limit
// (--kube-api-qps, --kube-api-burst).
// See docs/runtime/18-metrics.md.
#pragma once
#include <memory>
#include <vector>

#include "rr/controller/metrics.hpp"
#include "rr/http_client/request_metrics.hpp"

namespace rr::metrics {

// The families are registered at once; the sink refers to `registry`, which must outlive it and
// every client it is given to (or the client's set_metrics(nullptr) must come first).
std::shared_ptr<HttpClientMetrics> rest_client_metrics(Registry& registry);

// component-base's buckets for rest_client_request_duration_seconds: 0.005 … 60.
const std::vector<double>& rest_client_duration_buckets();

}  // namespace rr::metrics
