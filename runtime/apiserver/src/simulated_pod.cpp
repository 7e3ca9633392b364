#include "simulated_pod.hpp"

namespace rr::apiserver_detail {

namespace {

Json condition(const char* type, bool status, const std::string& now, const char* reason = nullptr) {
  Json c = {
      {"type", type}, {"status", status ? "True" : "False"}, {"lastProbeTime", nullptr}, {"lastTransitionTime", now}};
  if (reason) c["reason"] = reason;
  return c;
}

// A pod address that stays put for a given pod, in the range kind and KWOK clusters hand out.
std::string pod_ip(const Json& pod) {
  const std::uint64_t h = stable_hash(key_of(pod).str());
  return "10.244." + std::to_string((h >> 8) % 256) + "." + std::to_string(1 + h % 254);
}

std::string qos_class(const Json& spec) {
  for (const Json& container : spec.value("containers", Json::array())) {
    if (container.contains("resources") && !container["resources"].empty()) return "Burstable";
  }
  return "BestEffort";
}

Json container_statuses(const Json& containers, PodOutcome outcome, const std::string& now) {
  Json statuses = Json::array();
  if (!containers.is_array()) return statuses;
  for (const Json& container : containers) {
    const bool running = outcome == PodOutcome::Running;
    Json state = running ? Json{{"running", {{"startedAt", now}}}}
                         : Json{{"terminated",
                                 {{"exitCode", 0}, {"reason", "Completed"}, {"startedAt", now}, {"finishedAt", now}}}};
    statuses.push_back({{"name", container.value("name", "")},
                        {"image", container.value("image", "")},
                        {"imageID", ""},
                        {"ready", running},
                        {"started", running},
                        {"restartCount", 0},
                        {"state", std::move(state)}});
  }
  return statuses;
}

Json pod_status(const Json& pod, PodOutcome outcome, const std::string& now) {
  const bool running = outcome == PodOutcome::Running;
  const char* reason = running ? nullptr : "PodCompleted";
  const std::string ip = pod_ip(pod);
  const Json spec = pod.value("spec", Json::object());
  Json status = {
      {"phase", running ? "Running" : "Succeeded"},
      {"conditions",
       Json::array({condition("PodReadyToStartContainers", running, now), condition("Initialized", true, now, reason),
                    condition("Ready", running, now, reason), condition("ContainersReady", running, now, reason),
                    condition("PodScheduled", true, now)})},
      {"hostIP", "10.0.0.1"},
      {"hostIPs", Json::array({{{"ip", "10.0.0.1"}}})},
      {"podIP", ip},
      {"podIPs", Json::array({{{"ip", ip}}})},
      {"startTime", now},
      {"qosClass", qos_class(spec)},
      {"containerStatuses", container_statuses(spec.value("containers", Json()), outcome, now)}};
  if (spec.contains("initContainers")) {
    status["initContainerStatuses"] = container_statuses(spec["initContainers"], PodOutcome::Succeeded, now);
  }
  return status;
}

bool reports(const Json& pod, PodOutcome outcome) {
  return outcome == PodOutcome::Running ? pod_ready(pod) : pod_succeeded(pod);
}

}  // namespace

Json settle_pod(Simulation& sim, const Json& pod, PodOutcome outcome) {
  if (reports(pod, outcome) || is_terminating(pod)) return pod;
  Json updated = pod;
  updated["status"] = pod_status(pod, outcome, sim.now());
  return sim.update_status(*sim.kinds().pod, updated);
}

Json create_simulated_pod(Simulation& sim, const Json& pod, PodOutcome outcome) {
  return settle_pod(sim, sim.create(*sim.kinds().pod, pod), outcome);
}

bool pod_ready(const Json& pod) {
  if (string_at(pod, "/status/phase"_json_pointer) != "Running") return false;
  for (const Json& c :
       pod.contains("/status/conditions"_json_pointer) ? pod.at("/status/conditions"_json_pointer) : Json::array()) {
    if (c.is_object() && c.value("type", "") == "Ready") return c.value("status", "") == "True";
  }
  return false;
}

bool pod_succeeded(const Json& pod) { return string_at(pod, "/status/phase"_json_pointer) == "Succeeded"; }

}  // namespace rr::apiserver_detail
