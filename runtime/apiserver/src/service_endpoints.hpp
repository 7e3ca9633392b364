// Where a Service sends traffic in the local cluster, for the API server's own calls (webhooks,
// conversion): the endpoints controller and kube-proxy in one small function.
//
// A Service backs onto the pods the node agent runs (rr::node: real processes with an address of
// their own) whose labels match its selector; only those that are Ready, have a podIP and are not
// terminating are endpoints, as an EndpointSlice lists them. A Service none of whose pods the
// agent runs (an operator started on the host, its Deployment's pods simulated) keeps the local
// convention: 127.0.0.1 and the numeric targetPort. See docs/runtime/19-local-cluster.md.
#pragma once
#include <optional>
#include <stdexcept>
#include <string>

#include "rr/cluster/cluster.hpp"
#include "rr/core/json.hpp"

namespace rr::apiserver_detail {

struct ServiceTarget {
  std::string address;  // a pod's IP, or 127.0.0.1 by the convention
  int port = 0;
};

// Thrown with the API server's text: `no endpoints available for service "x"` (pods of the agent
// match but none is ready), `no service port 443 found for service "x"`.
class ServiceUnavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// `service` is the stored Service, `port` the port asked for (a webhook's service.port).
ServiceTarget resolve_service_target(const Json& service, int port, const StoreReader& store);

}  // namespace rr::apiserver_detail
