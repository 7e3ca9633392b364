// The opt-in for an operator's `--local-cluster-kubeconfig FILE`: a development cluster started
// inside the operator's process (the in-memory rr::ApiServer on 127.0.0.1, the built-in kinds, the
// operator's own kinds, and a workload simulator that reports Deployments' replicas available).
// An operator that does not pass it links neither the cluster nor its HTTP server.
//
//   return rr::run_operator(argc, argv, {
//       .name = "widget-operator",
//       .leader_election_id = "widget.example.dev",
//       .local_cluster = rr::local_cluster_mode([](rr::Cluster& c) { c.register_kind<Widget>(); }),
//       .setup = [](rr::OperatorContext& op) { op.add_controller("widget", &WidgetReconciler); },
//   });
//
// Link rr::local_cluster_mode. See docs/runtime/25-operator-main.md.
#pragma once
#include <filesystem>
#include <functional>
#include <vector>

#include "rr/cluster/cluster.hpp"
#include "rr/manager/operator_main.hpp"

namespace rr {

// `register_kinds` registers the operator's own kinds (typed, with defaulting and validation), as
// a real API server defaults and validates them from the CRDs' structural schemas. The cluster
// requires namespaces to exist, as kubectl users expect.
LocalClusterMode local_cluster_mode(std::function<void(Cluster&)> register_kinds = {});

// What else the embedded cluster runs.
struct LocalClusterModeOptions {
  // OCI image layouts (or directories of them): a node agent (rr::node::NodeAgent) runs the bare
  // Pods of their images as real processes, as rrgen-cluster --images does. None: no agent.
  std::vector<std::filesystem::path> images;
  // The cert-manager subset (rr::cert_manager::CertManager), as rrgen-cluster --cert-manager runs it:
  // the cert-manager.io/v1 CRDs, selfSigned and ca issuers, Certificates and CA injection, for the
  // generated config/default's config/certmanager.
  bool cert_manager = false;
};
LocalClusterMode local_cluster_mode(std::function<void(Cluster&)> register_kinds, LocalClusterModeOptions options);

}  // namespace rr
