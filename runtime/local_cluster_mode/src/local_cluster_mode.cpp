// rr::local_cluster_mode(): the embedded local cluster behind --local-cluster-kubeconfig.
#include "rr/local_cluster_mode/local_cluster_mode.hpp"

#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>

#include <unistd.h>

#include "rr/apiserver/api_server.hpp"
#include "rr/apiserver/dev_certificates.hpp"
#include "rr/apiserver/kubectl_skew.hpp"
#include "rr/apiserver/workload_simulator.hpp"
#include "rr/cert_manager/cert_manager.hpp"
#include "rr/kube_controllers/namespace_defaults.hpp"
#include "rr/node/node_agent.hpp"

namespace rr {
namespace {

// The in-memory API server over HTTPS (plain HTTP when asked) and the workload simulator (Deployments, StatefulSets and
// Jobs that settle as their controllers would make them, with no nodes). Members go in reverse: the simulator stops
// before the server, the server before the cluster.
class EmbeddedCluster : public LocalCluster {
 public:
  EmbeddedCluster(const std::function<void(Cluster&)>& register_kinds, const LocalClusterModeOptions& mode,
                  const LocalClusterRequest& request) {
    const std::string& kubeconfig_path = request.kubeconfig_path;
    ClusterOptions options;
    options.require_namespaces = true;  // kubectl realism: a namespace must exist first
    cluster_ = std::make_shared<Cluster>(options);
    if (register_kinds) register_kinds(*cluster_);
    ApiServerOptions server_options;
    if (!request.insecure_http) {
      // A throw-away CA, as kind and envtest make: the kubeconfig trusts it and carries a client
      // certificate of the CA for the development admin (in system:masters).
      const DevCertificates certs = make_dev_certificates();
      server_options.tls = tls_options(certs);
      server_options.kubeconfig_user = kubeconfig_user(certs);
    }
    server_ = std::make_unique<ApiServer>(cluster_, server_options);  // registers the built-in kinds
    server_->start();
    namespace_defaults_ = std::make_unique<kube_controllers::NamespaceDefaults>(
        cluster_, kube_controllers::NamespaceDefaultsOptions{.root_ca_pem = server_->serving_ca_pem(), .log = {}});
    if (!mode.images.empty()) {
      node::NodeAgentOptions node;
      node.image_dirs = mode.images;
      node.service_port = server_->port();
      node.mint_token = server_->token_minter();
      node.ca_pem = server_->serving_ca_pem();
      agent_ = std::make_shared<node::NodeAgent>(cluster_, std::move(node));
      server_->set_pod_log_source(agent_);
    }
    if (mode.cert_manager) {
      cert_manager_ = std::make_unique<cert_manager::CertManager>(cluster_);
      if (!cert_manager_->wait_until_served(std::chrono::seconds(5))) {
        throw std::runtime_error("cert-manager.io/v1 kinds not served after 5s");
      }
    }
    workloads_ = std::make_unique<WorkloadSimulator>(cluster_,
                                                     agent_ ? agent_->predicate() : std::function<bool(const Json&)>());
    // Written last, atomically: whoever waits for the file finds a server that answers.
    const std::string partial = kubeconfig_path + ".partial";
    server_->write_kubeconfig(partial);
    if (std::rename(partial.c_str(), kubeconfig_path.c_str()) != 0) {
      throw std::runtime_error("cannot write " + kubeconfig_path);
    }
    // For a person at a terminal (the project's `run` target): which kubectl will warn about the
    // version skew. Tests and scripts, reading a pipe, do not pay for running kubectl.
    if (isatty(STDERR_FILENO) != 0) {
      if (auto note = kubectl_skew_note()) std::cerr << *note << "\n" << std::flush;
    }
  }

  std::string url() const override { return server_->url(); }

 private:
  std::shared_ptr<Cluster> cluster_;
  std::unique_ptr<ApiServer> server_;
  std::unique_ptr<kube_controllers::NamespaceDefaults> namespace_defaults_;
  std::shared_ptr<node::NodeAgent> agent_;  // stops (its containers killed) after the simulator
  std::unique_ptr<cert_manager::CertManager> cert_manager_;
  std::unique_ptr<WorkloadSimulator> workloads_;
};

}  // namespace

LocalClusterMode local_cluster_mode(std::function<void(Cluster&)> register_kinds) {
  return local_cluster_mode(std::move(register_kinds), {});
}

LocalClusterMode local_cluster_mode(std::function<void(Cluster&)> register_kinds, LocalClusterModeOptions options) {
  return
      [register_kinds = std::move(register_kinds), options = std::move(options)](const LocalClusterRequest& request) {
        return std::unique_ptr<LocalCluster>(std::make_unique<EmbeddedCluster>(register_kinds, options, request));
      };
}

}  // namespace rr
