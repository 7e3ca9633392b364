#include "pod_events.hpp"

#include <chrono>
#include <cstdio>
#include <exception>

#include "pod_worker.hpp"
#include "rr/core/time.hpp"

namespace rr::node_detail {

void record_event(const AgentShared& shared, const Json& pod, const std::string& type, const std::string& reason,
                  const std::string& message) {
  if (!shared.event_kind) return;
  const auto now = std::chrono::system_clock::now();
  const std::string when = Time::from(now).str();
  const Json meta = pod.value("metadata", Json::object());
  const std::string name = meta.value("name", std::string());
  // The recorder's name: the object's name and the time in hex nanoseconds.
  char suffix[32];
  std::snprintf(suffix, sizeof suffix, "%llx",
                static_cast<unsigned long long>(
                    std::chrono::duration_cast<std::chrono::nanoseconds>(now.time_since_epoch()).count()));
  const Json event = {
      {"apiVersion", "v1"},
      {"kind", "Event"},
      {"metadata", {{"name", name + "." + suffix}, {"namespace", meta.value("namespace", std::string())}}},
      {"involvedObject",
       {{"apiVersion", "v1"},
        {"kind", "Pod"},
        {"name", name},
        {"namespace", meta.value("namespace", std::string())},
        {"uid", meta.value("uid", std::string())}}},
      {"reason", reason},
      {"message", message},
      {"type", type},
      {"source", {{"component", "kubelet"}, {"host", shared.options.node_name}}},
      {"reportingComponent", "kubelet"},
      {"reportingInstance", shared.options.node_name},
      {"firstTimestamp", when},
      {"lastTimestamp", when},
      {"count", 1}};
  try {
    shared.cluster->create(*shared.event_kind, event);
  } catch (const std::exception&) {
  }
}

}  // namespace rr::node_detail
