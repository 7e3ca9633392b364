// One probe attempt as the kubelet's prober makes it: httpGet (HTTP only; success is a status
// from 200 to 399, as kube-probe/<version> with the probe's headers) and tcpSocket (a connection
// within timeoutSeconds). exec and grpc probes are not run: they count as success.
#pragma once
#include <chrono>
#include <string>

#include "rr/core/json.hpp"

namespace rr::node_detail {

// The probe's timing and thresholds with the API's defaults.
struct ProbeTiming {
  std::chrono::seconds initial_delay{0}, period{10}, timeout{1};
  int success_threshold = 1, failure_threshold = 3;
};
ProbeTiming probe_timing(const Json& probe);

// Whether the probe kinds this agent runs are there (httpGet, tcpSocket).
bool probe_supported(const Json& probe);

// One attempt against `host` (the pod's IP); `container` resolves named ports. Never throws.
bool run_probe(const Json& probe, const Json& container, const std::string& host);

}  // namespace rr::node_detail
