// rr::kube_controllers::NamespaceDefaults: what kube-controller-manager puts in every namespace
// and tools wait for: the `default` ServiceAccount (the serviceaccounts controller) and the
// `kube-root-ca.crt` ConfigMap with the cluster's CA (the root-ca-cert-publisher). Each is made
// again when deleted, and the ConfigMap's content put back when edited. Own threads; the
// destructor stops them. See docs/runtime/36-kube-controllers.md.
#pragma once
#include <chrono>
#include <functional>
#include <memory>
#include <string>

namespace rr {
class Cluster;
}

namespace rr::kube_controllers {

struct NamespaceDefaultsOptions {
  // The CA that verifies the API server (PEM): ca.crt of every kube-root-ca.crt ConfigMap. Empty
  // (a plain-HTTP cluster has none): no ConfigMap is published, only the ServiceAccounts.
  std::string root_ca_pem;
  // Failures it will retry; stderr when empty.
  std::function<void(const std::string&)> log;
};

class NamespaceDefaults {
 public:
  // Needs v1 Namespace, ServiceAccount and ConfigMap registered (throws std::invalid_argument
  // otherwise). Starts at once: every existing namespace is settled by the first pass.
  NamespaceDefaults(std::shared_ptr<Cluster> cluster, NamespaceDefaultsOptions options = {});
  ~NamespaceDefaults();
  NamespaceDefaults(const NamespaceDefaults&) = delete;
  NamespaceDefaults& operator=(const NamespaceDefaults&) = delete;

  // Waits until every active namespace has what it should (false on timeout): for tools and
  // tests that create a namespace and then need its ServiceAccount.
  bool wait_settled(std::chrono::milliseconds timeout) const;
  // Stops every thread. Idempotent.
  void stop();

 private:
  struct State;
  std::shared_ptr<State> state_;
};

}  // namespace rr::kube_controllers
