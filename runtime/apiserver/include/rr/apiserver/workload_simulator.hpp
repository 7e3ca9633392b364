// The part of kube-controller-manager a local cluster without nodes needs for operators to see
// their workloads come up: Deployments report every replica ready and available once they are
// written (as KWOK's fake nodes make it look). Off unless asked for; runs on its own thread over
// the in-process rr::Cluster.
#pragma once
#include <memory>

namespace rr {

class Cluster;

class WorkloadSimulator {
 public:
  // Starts watching apps/v1 Deployments of `cluster` (the kind must be registered).
  explicit WorkloadSimulator(std::shared_ptr<Cluster> cluster);
  ~WorkloadSimulator();  // stops the thread
  WorkloadSimulator(const WorkloadSimulator&) = delete;
  WorkloadSimulator& operator=(const WorkloadSimulator&) = delete;

  // Deployment status updates written so far (for tests and logs).
  long long updates() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace rr
