// rr::node::NodeAgent: the kubelet of the local cluster, for Pods whose images the node holds as
// OCI image layouts (bare ones and those of any controller). It watches Pods; a pod whose every container's image
// repository one of the layouts holds is run (its containers are real processes from the images' rootfs); every other
// pod is left to the workload simulator (runs() is the predicate it asks). Statuses are written as the kubelet writes
// them. Own threads; the destructor stops every container and every thread. See docs/runtime/33-node-agent.md.
#pragma once
#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "rr/core/json.hpp"
#include "rr/node/pod_logs.hpp"

namespace rr {
class Cluster;
}

namespace rr::node {

// The local API server's TokenRequest (POST serviceaccounts/<name>/token): the namespace, the
// ServiceAccount and the request's body -> the answered TokenRequest (status.token). Throws
// (rr::ApiError) when it cannot. The API server hands it over; rr::node does not link it.
using TokenMinter =
    std::function<Json(const std::string& ns, const std::string& service_account, const Json& token_request)>;

struct NodeAgentOptions {
  // OCI layouts, or directories of them (ImageStore).
  std::vector<std::filesystem::path> image_dirs;
  // Unpacked images, container directories and logs; empty: a temporary directory the agent removes.
  std::filesystem::path state_dir;
  std::string node_name = "rrgen-node";
  // Without namespaces pods share the host's network: podIP and hostIP are this one. (As root
  // each pod has its own: 10.88.0.0/16, see docs/runtime/33-node-agent.md.)
  std::string host_ip = "127.0.0.1";
  // What containers get as KUBERNETES_SERVICE_HOST/PORT (the local API server).
  std::string service_host = "127.0.0.1";
  int service_port = 443;
  // Mints the tokens of serviceAccountToken volumes and of the kube-api-access volume every pod
  // gets unless automountServiceAccountToken is false; empty: no token volume is added (and a
  // pod's own serviceAccountToken source fails to mount).
  TokenMinter mint_token;
  // The API server's serving CA (PEM): ca.crt of the token volume when the namespace has no
  // kube-root-ca.crt ConfigMap.
  std::string ca_pem;
  // The kubelet's back-off for crashing containers and image pulls: base doubling up to max.
  std::chrono::milliseconds backoff_base{10000};
  std::chrono::milliseconds backoff_max{300000};
  // false: containers run as plain processes even when the agent is root (what a non-root agent
  // always does: no namespaces, no chroot; the image's loader runs its program).
  bool namespaces = true;
  // How often a pod's worker looks at its containers.
  std::chrono::milliseconds poll{50};
  // The agent's own log lines (stderr when empty).
  std::function<void(const std::string&)> log;
};

// The finalizer the agent puts on the pods it runs, so a deleted pod stays Terminating until its
// containers stopped (the API server's graceful deletion, which rr::Cluster does not do).
inline constexpr const char* node_agent_finalizer = "node.rrgen.dev/containers";

class NodeAgent : public PodLogSource {
 public:
  // Reads the layouts (throws LayoutError) and starts watching Pods (the kind must be registered).
  NodeAgent(std::shared_ptr<Cluster> cluster, NodeAgentOptions options);
  ~NodeAgent() override;
  NodeAgent(const NodeAgent&) = delete;
  NodeAgent& operator=(const NodeAgent&) = delete;

  const std::string& node_name() const;

  // Stops the watch and kills every container (SIGKILL); the pods' finalizers are removed. Idempotent.
  void stop();

  // Whether this agent runs `pod` (whatever its owner): every container's image names a repository
  // the layouts hold, there are no init containers, and spec.nodeName is empty or this node.
  bool runs(const Json& pod) const;
  // runs() as the workload simulator's predicate.
  std::function<bool(const Json&)> predicate() const;

  std::unique_ptr<PodLogStream> open(const Json& pod, const PodLogOptions& options) override;

 private:
  struct State;
  std::shared_ptr<State> state_;
};

}  // namespace rr::node
