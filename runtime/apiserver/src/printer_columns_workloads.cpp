// The workload controllers' columns (apps and batch) as the kube-apiserver prints them.
#include "printer_columns_internal.hpp"

namespace rr::apiserver_detail {

namespace {

constexpr const char* template_spec = "/spec/template/spec";

// "ready/desired", desired defaulting to 1 as the server defaults spec.replicas.
PrinterColumn ready_of_desired_column() {
  return text_column("Ready", "Number of the pod with ready state", 0, [](const Json& o) -> Json {
    return std::to_string(int_at(o, "/status/readyReplicas")) + "/" + std::to_string(int_or(o, "/spec/replicas", 1));
  });
}

// printJob's status: the first of these conditions that is True, else Running.
std::string job_status(const Json& job) {
  const auto holds = [&](std::string_view type) { return condition_status(job, "/status/conditions", type) == "True"; };
  if (holds("Complete")) return "Complete";
  if (holds("Failed")) return "Failed";
  if (is_set(job, "/metadata/deletionTimestamp")) return "Terminating";
  if (holds("Suspended")) return "Suspended";
  if (holds("FailureTarget")) return "FailureTarget";
  return "Running";
}

// "succeeded/completions"; without completions "s/1", or "s/1 of p" for parallel work queues.
std::string job_completions(const Json& job) {
  const std::string succeeded = std::to_string(int_at(job, "/status/succeeded"));
  if (is_set(job, "/spec/completions")) return succeeded + "/" + std::to_string(int_at(job, "/spec/completions"));
  const std::int64_t parallelism = int_at(job, "/spec/parallelism");
  return succeeded + "/1" + (parallelism > 1 ? " of " + std::to_string(parallelism) : "");
}

// Start to completion, or start to now while running; "" before the job starts.
std::string job_duration(const Json& job, PrintClock::time_point now) {
  const auto start = time_at(job, "/status/startTime");
  if (!start) return "";
  const auto end = time_at(job, "/status/completionTime");
  return human_duration((end ? *end : now) - *start);
}

}  // namespace

std::vector<PrinterColumn> deployment_columns() {
  std::vector<PrinterColumn> columns{name_column(), ready_of_desired_column()};
  columns.push_back(
      int_column("Up-to-date", "string", "Replicas updated to the desired template.", "/status/updatedReplicas"));
  columns.push_back(int_column("Available", "string", "Replicas available to users.", "/status/availableReplicas"));
  columns.push_back(age_column());
  // printDeployment writes the selector as it parses, without "<none>".
  add_template_columns(columns, template_spec, "/spec/selector", true);
  return columns;
}

std::vector<PrinterColumn> stateful_set_columns() {
  std::vector<PrinterColumn> columns{name_column(), ready_of_desired_column(), age_column()};
  add_template_columns(columns, template_spec);
  return columns;
}

std::vector<PrinterColumn> daemon_set_columns() {
  std::vector<PrinterColumn> columns{name_column()};
  columns.push_back(
      int_column("Desired", "integer", "Nodes that should run the daemon pod.", "/status/desiredNumberScheduled"));
  columns.push_back(
      int_column("Current", "integer", "Nodes running the daemon pod.", "/status/currentNumberScheduled"));
  columns.push_back(int_column("Ready", "integer", "Nodes with the daemon pod ready.", "/status/numberReady"));
  columns.push_back(
      int_column("Up-to-date", "integer", "Nodes running the updated daemon pod.", "/status/updatedNumberScheduled"));
  columns.push_back(
      int_column("Available", "integer", "Nodes with the daemon pod available.", "/status/numberAvailable"));
  columns.push_back(text_column("Node Selector", "The pod template's node selector.", 0, [](const Json& d) -> Json {
    return format_labels(at(d, "/spec/template/spec/nodeSelector"));
  }));
  columns.push_back(age_column());
  add_template_columns(columns, template_spec, "/spec/selector");
  return columns;
}

std::vector<PrinterColumn> replica_set_columns() {
  std::vector<PrinterColumn> columns{name_column()};
  columns.push_back(typed_column("Desired", "integer", "Replicas wanted.", 0,
                                 [](const Json& r) -> Json { return int_or(r, "/spec/replicas", 1); }));
  columns.push_back(int_column("Current", "integer", "Replicas created.", "/status/replicas"));
  columns.push_back(int_column("Ready", "integer", "Replicas ready.", "/status/readyReplicas"));
  columns.push_back(age_column());
  add_template_columns(columns, template_spec, "/spec/selector");
  return columns;
}

std::vector<PrinterColumn> job_columns() {
  std::vector<PrinterColumn> columns{name_column()};
  columns.push_back(
      text_column("Status", "Status of the job.", 0, [](const Json& j) -> Json { return job_status(j); }));
  columns.push_back(text_column("Completions", "Succeeded pods of the completions wanted.", 0,
                                [](const Json& j) -> Json { return job_completions(j); }));
  columns.push_back(column("Duration", "string", "Time required to complete the job.", 0,
                           [](const Json& j, PrintClock::time_point now) -> Json { return job_duration(j, now); }));
  columns.push_back(age_column());
  add_template_columns(columns, template_spec, "/spec/selector");
  return columns;
}

std::vector<PrinterColumn> cron_job_columns() {
  std::vector<PrinterColumn> columns{name_column()};
  columns.push_back(text_column("Schedule", "The cron schedule.", 0,
                                [](const Json& c) -> Json { return string_at(c, "/spec/schedule"); }));
  columns.push_back(text_column("Timezone", "The schedule's time zone.", 0, [](const Json& c) -> Json {
    return is_set(c, "/spec/timeZone") ? string_at(c, "/spec/timeZone") : "<none>";
  }));
  // Type boolean, yet a text cell (printBoolPtr); the server defaults suspend to false.
  columns.push_back(
      typed_column("Suspend", "boolean", "Whether later runs are suspended.", 0, [](const Json& c) -> Json {
        const Json& suspend = at(c, "/spec/suspend");
        return suspend.is_boolean() && suspend.get<bool>() ? "True" : "False";
      }));
  columns.push_back(typed_column("Active", "integer", "Jobs running now.", 0,
                                 [](const Json& c) -> Json { return size_at(c, "/status/active"); }));
  columns.push_back(column("Last Schedule", "string", "When a job was last scheduled.", 0,
                           [](const Json& c, PrintClock::time_point now) -> Json {
                             return is_set(c, "/status/lastScheduleTime") ? age_at(c, "/status/lastScheduleTime", now)
                                                                          : "<none>";
                           }));
  columns.push_back(age_column());
  add_template_columns(columns, "/spec/jobTemplate/spec/template/spec", "/spec/jobTemplate/spec/selector");
  return columns;
}

}  // namespace rr::apiserver_detail
