// Events the node writes about a pod, as the kubelet's recorder does (source kubelet, the node's host).
#pragma once
#include <string>

#include "rr/core/json.hpp"

namespace rr::node_detail {

struct AgentShared;

// A core/v1 Event on `pod` (type "Normal" or "Warning"); nothing when the cluster serves no
// Events. A failed write is ignored: events are best effort, as the kubelet's are.
void record_event(const AgentShared& shared, const Json& pod, const std::string& type, const std::string& reason,
                  const std::string& message);

}  // namespace rr::node_detail
