// rr::cert_manager::CertManager: the subset of cert-manager the local cluster runs (cert-manager
// itself cannot: a Go image, no network). It installs the cert-manager.io/v1 CRDs (Certificate,
// Issuer, ClusterIssuer), makes the selfSigned and ca issuers Ready, issues each Certificate's
// Secret and renews it, and injects CA bundles (cert-manager.io/inject-ca-from annotations) into
// webhook configurations and CRDs. Own threads; the destructor stops them.
// See docs/runtime/34-cert-manager.md.
#pragma once
#include <chrono>
#include <functional>
#include <memory>
#include <string>

namespace rr {
class Cluster;
}

namespace rr::cert_manager {

struct CertManagerOptions {
  // Where a ClusterIssuer's ca Secret is (cert-manager's --cluster-resource-namespace).
  std::string cluster_resource_namespace = "cert-manager";
  // Log lines (issuances, failures); stderr when empty.
  std::function<void(const std::string&)> log;
};

class CertManager {
 public:
  // Creates the CRDs when the cluster serves CustomResourceDefinitions and they are absent (the API
  // server then serves their kinds); on a bare rr::Cluster without that kind, registers the three
  // kinds directly. Creates the cluster resource namespace when Namespaces are served and it is
  // absent (cert-manager's install does). Then starts watching.
  CertManager(std::shared_ptr<Cluster> cluster, CertManagerOptions options = {});
  ~CertManager();
  CertManager(const CertManager&) = delete;
  CertManager& operator=(const CertManager&) = delete;

  // Whether the three kinds are served, waiting up to `timeout` (the API server registers a
  // CRD's kinds a moment after the CRD is created).
  bool wait_until_served(std::chrono::milliseconds timeout) const;

  // Stops every thread. Idempotent.
  void stop();
  // Looks at every object now (what a watch event does; for a cluster whose clock a test moved).
  void resync();

 private:
  struct State;
  std::shared_ptr<State> state_;
};

}  // namespace rr::cert_manager
