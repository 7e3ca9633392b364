// The part of kube-controller-manager a local cluster without nodes needs for operators to see
// their workloads come up (as KWOK's fake nodes make it look):
//  - apps/v1 Deployments report every replica ready and available once written (no ReplicaSets
//    or Pods are made), unless `runs_on_node` says the node agent runs their template's pods:
//    those get the deployment controller's ReplicaSets (pod-template-hash, revisions, rolling
//    updates) and the replicaset controller's Pods, which the agent runs; their statuses follow
//    the pods' real Ready condition. A ReplicaSet of such images made by hand is run too;
//  - apps/v1 StatefulSets get their pods <set>-0, <set>-1, ... made in order and reported Running
//    and Ready, a Bound PersistentVolumeClaim per volume claim template and pod, scale-down from
//    the highest ordinal (claims kept unless the retention policy says Delete), rolling updates
//    from the highest ordinal down, and the controller's status (revisions included);
//  - batch/v1 Jobs get their pods made and reported Succeeded, then the SuccessCriteriaMet and
//    Complete conditions; a suspended job only its Suspended condition;
//  - bare Pods (no controller) are reported Running and Ready, unless `runs_on_node` says a node
//    agent runs them (rr::node::NodeAgent::predicate()): those the agent reports itself.
// Each kind is simulated when it is registered on the cluster as the simulator starts; StatefulSets
// and Jobs without a registered Pod kind are reported as if their pods ran, and claims are made
// only when PersistentVolumeClaim is registered. Off unless asked for; runs on its own threads
// over the in-process rr::Cluster.
#pragma once
#include <functional>
#include <memory>

#include "rr/core/json.hpp"

namespace rr {

class Cluster;

class WorkloadSimulator {
 public:
  // Starts watching the registered kinds of `cluster` it simulates (none registered: it idles).
  // `runs_on_node(pod)`: true for a pod something else runs and reports (a bare pod, or one of a
  // ReplicaSet); asked of a workload's template as a pod without owner to choose its simulation.
  explicit WorkloadSimulator(std::shared_ptr<Cluster> cluster, std::function<bool(const Json&)> runs_on_node = {});
  ~WorkloadSimulator();  // stops the threads
  WorkloadSimulator(const WorkloadSimulator&) = delete;
  WorkloadSimulator& operator=(const WorkloadSimulator&) = delete;

  // Writes made so far: status updates and the pods and claims made, changed or deleted (for
  // tests and logs).
  long long updates() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace rr
