// A Pod's columns as the kube-apiserver's printPod computes them: READY counts the ready app
// containers and started sidecars, STATUS walks init containers, then app containers, for the
// most telling reason, RESTARTS tells when the last restart was.
#include <set>

#include "printer_columns_internal.hpp"

namespace rr::apiserver_detail {

namespace {

struct PodSummary {
  std::int64_t ready = 0;
  std::int64_t total = 0;
  std::int64_t restarts = 0;
  std::optional<PrintClock::time_point> last_restart;
  std::string reason;
};

struct Restarts {
  std::int64_t count = 0;
  std::optional<PrintClock::time_point> last;

  void add(const Json& status) {
    count += int_at(status, "/restartCount");
    const auto finished = time_at(status, "/lastState/terminated/finishedAt");
    if (finished && (!last || *finished > *last)) last = finished;
  }
};

// A terminated container's reason, else its signal or exit code.
std::string terminated_reason(const Json& terminated, const std::string& prefix) {
  if (const std::string reason = string_at(terminated, "/reason"); !reason.empty()) return prefix + reason;
  if (const std::int64_t signal = int_at(terminated, "/signal"); signal != 0) {
    return prefix + "Signal:" + std::to_string(signal);
  }
  return prefix + "ExitCode:" + std::to_string(int_at(terminated, "/exitCode"));
}

// Init containers in order: the first one not done decides the reason. True while initializing.
bool summarize_init(const Json& pod, PodSummary& s, Restarts& all, Restarts& sidecars) {
  std::set<std::string> sidecar_names;  // restartPolicy Always: sidecars, counted in READY
  const Json& specs = at(pod, "/spec/initContainers");
  if (specs.is_array()) {
    for (const Json& c : specs) {
      if (string_at(c, "/restartPolicy") == "Always") sidecar_names.insert(string_at(c, "/name"));
    }
  }
  s.total += static_cast<std::int64_t>(sidecar_names.size());
  const Json& statuses = at(pod, "/status/initContainerStatuses");
  if (!statuses.is_array()) return false;
  for (std::size_t i = 0; i < statuses.size(); ++i) {
    const Json& c = statuses[i];
    const bool sidecar = sidecar_names.count(string_at(c, "/name")) > 0;
    all.add(c);
    if (sidecar) sidecars.add(c);
    const Json& terminated = at(c, "/state/terminated");
    const std::string waiting = string_at(c, "/state/waiting/reason");
    if (terminated.is_object() && int_at(terminated, "/exitCode") == 0) continue;
    if (sidecar && at(c, "/started") == true) {
      if (at(c, "/ready") == true) ++s.ready;
      continue;
    }
    if (terminated.is_object()) s.reason = terminated_reason(terminated, "Init:");
    else if (!waiting.empty() && waiting != "PodInitializing") s.reason = "Init:" + waiting;
    else s.reason = "Init:" + std::to_string(i) + "/" + std::to_string(specs.is_array() ? specs.size() : 0);
    return true;
  }
  return false;
}

// App containers, last to first: the first listed with a reason wins.
void summarize_containers(const Json& pod, PodSummary& s, Restarts& restarts) {
  bool running = false;
  const Json& statuses = at(pod, "/status/containerStatuses");
  for (std::size_t n = statuses.is_array() ? statuses.size() : 0; n-- > 0;) {
    const Json& c = statuses[n];
    restarts.add(c);
    const Json& terminated = at(c, "/state/terminated");
    if (const std::string waiting = string_at(c, "/state/waiting/reason"); !waiting.empty()) s.reason = waiting;
    else if (terminated.is_object()) s.reason = terminated_reason(terminated, "");
    else if (at(c, "/ready") == true && at(c, "/state/running").is_object()) {
      running = true;
      ++s.ready;
    }
  }
  // A container still running: the pod is not done yet.
  if (s.reason == "Completed" && running) {
    s.reason = condition_status(pod, "/status/conditions", "Ready") == "True" ? "Running" : "NotReady";
  }
}

PodSummary summarize(const Json& pod) {
  PodSummary s;
  s.total = static_cast<std::int64_t>(size_at(pod, "/spec/containers"));
  const std::string phase = string_at(pod, "/status/phase");
  s.reason = string_or(pod, "/status/reason", phase);
  if (const Json& conditions = at(pod, "/status/conditions"); conditions.is_array()) {
    for (const Json& c : conditions) {
      if (string_at(c, "/type") == "PodScheduled" && string_at(c, "/reason") == "SchedulingGated") {
        s.reason = "SchedulingGated";
      }
    }
  }
  Restarts all;
  Restarts sidecars;
  const bool initializing = summarize_init(pod, s, all, sidecars);
  if (!initializing || condition_status(pod, "/status/conditions", "Initialized") == "True") {
    // Past initialization only sidecar restarts count among the init containers'.
    all = sidecars;
    summarize_containers(pod, s, all);
  }
  s.restarts = all.count;
  s.last_restart = all.last;
  if (is_set(pod, "/metadata/deletionTimestamp")) {
    if (string_at(pod, "/status/reason") == "NodeLost") s.reason = "Unknown";
    else if (phase != "Succeeded" && phase != "Failed") s.reason = "Terminating";
  }
  return s;
}

std::string or_none(std::string text) { return text.empty() ? "<none>" : text; }

// "1/2": the readiness gates whose condition is True, of all gates.
std::string readiness_gates(const Json& pod) {
  const Json& gates = at(pod, "/spec/readinessGates");
  if (!gates.is_array() || gates.empty()) return "<none>";
  std::size_t met = 0;
  for (const Json& gate : gates) {
    if (condition_status(pod, "/status/conditions", string_at(gate, "/conditionType")) == "True") ++met;
  }
  return std::to_string(met) + "/" + std::to_string(gates.size());
}

}  // namespace

std::vector<PrinterColumn> pod_columns() {
  std::vector<PrinterColumn> columns{name_column()};
  columns.push_back(
      text_column("Ready", "Ready containers of all containers (sidecars included).", 0, [](const Json& p) -> Json {
        const PodSummary s = summarize(p);
        return std::to_string(s.ready) + "/" + std::to_string(s.total);
      }));
  columns.push_back(text_column("Status", "The phase, or the reason a container gives.", 0,
                                [](const Json& p) -> Json { return summarize(p).reason; }));
  columns.push_back(column("Restarts", "string", "Container restarts, and how long ago the last one was.", 0,
                           [](const Json& p, PrintClock::time_point now) -> Json {
                             const PodSummary s = summarize(p);
                             std::string text = std::to_string(s.restarts);
                             if (s.restarts != 0 && s.last_restart) {
                               text += " (" + human_duration(now - *s.last_restart) + " ago)";
                             }
                             return text;
                           }));
  columns.push_back(age_column());
  columns.push_back(text_column("IP", "The pod's first IP.", 1, [](const Json& p) -> Json {
    const std::string first = string_at(p, "/status/podIPs/0/ip");
    return or_none(first.empty() ? string_at(p, "/status/podIP") : first);
  }));
  columns.push_back(text_column("Node", "The node the pod is bound to.", 1,
                                [](const Json& p) -> Json { return or_none(string_at(p, "/spec/nodeName")); }));
  columns.push_back(
      text_column("Nominated Node", "The node preemption nominated for the pod.", 1,
                  [](const Json& p) -> Json { return or_none(string_at(p, "/status/nominatedNodeName")); }));
  columns.push_back(text_column("Readiness Gates", "Readiness gates met of all gates.", 1,
                                [](const Json& p) -> Json { return readiness_gates(p); }));
  return columns;
}

}  // namespace rr::apiserver_detail
