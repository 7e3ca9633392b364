// Pods as a node's kubelet would report them once their containers ran: there are no nodes, so
// the simulator writes the status itself right after creating the pod.
#pragma once
#include <string>

#include "simulation.hpp"

namespace rr::apiserver_detail {

enum class PodOutcome { Running, Succeeded };

// Creates `pod` and reports it Running and Ready (or Succeeded). Returns the stored pod.
Json create_simulated_pod(Simulation& sim, const Json& pod, PodOutcome outcome);
// Writes the status of `outcome` on a stored pod unless it already reports it.
Json settle_pod(Simulation& sim, const Json& pod, PodOutcome outcome);

bool pod_ready(const Json& pod);
bool pod_succeeded(const Json& pod);

}  // namespace rr::apiserver_detail
