// Jobs, as the job controller of Kubernetes 1.35 runs them.
// - Pods the node agent runs: at most `parallelism` active pods until `completions` succeeded
//   (each index once when Indexed), a failed pod replaced until more than `backoffLimit` failed,
//   and the counts and conditions from the pods' real phases.
// - Any other job: the pods of every completion made and reported Succeeded at once.
// A suspended job gets no pods (a running one's are deleted), only its Suspended condition.
#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include "job_pods.hpp"
#include "simulated_pod.hpp"

namespace rr::apiserver_detail {

namespace {

// The job's pods by what became of them.
struct JobPods {
  std::map<std::string, Json> all;  // by name
  std::vector<Json> active;
  std::int64_t succeeded = 0, failed = 0, terminating = 0, ready = 0;
  std::set<std::int64_t> completed_indexes, busy_indexes;  // Indexed: succeeded; active or terminating
};

JobPods job_pods(Simulation& sim, const Json& job) {
  ListOptions options{.namespace_ = string_at(job, "/metadata/namespace"_json_pointer)};
  options.label_selector = std::string(job_uid_label) + "=" + string_at(job, "/metadata/uid"_json_pointer);
  JobPods pods;
  const std::int64_t completions = job_completions(job);
  for (const Json& pod : sim.cluster().list(*sim.kinds().pod, options).value("items", Json::array())) {
    if (!controlled_by(pod, job)) continue;
    pods.all[key_of(pod).name] = pod;
    const std::string phase = string_at(pod, "/status/phase"_json_pointer);
    const std::int64_t index = job_pod_index(pod);
    if (phase == "Succeeded") {
      ++pods.succeeded;
      if (index >= 0 && index < completions) pods.completed_indexes.insert(index);
    } else if (phase == "Failed" && !is_terminating(pod)) {  // one this controller deleted is no failure
      ++pods.failed;
    } else if (is_terminating(pod)) {
      ++pods.terminating;
      pods.busy_indexes.insert(index);
    } else {
      pods.active.push_back(pod);
      if (pod_ready(pod)) ++pods.ready;
      pods.busy_indexes.insert(index);
    }
  }
  return pods;
}

// A pod for `index` under the first name not taken (a replaced pod's name stays taken).
void make_pod(Simulation& sim, const Json& job, JobPods& pods, std::int64_t index) {
  std::int64_t attempt = 0;
  while (pods.all.contains(job_pod_name(job, index, attempt))) ++attempt;
  Json pod = sim.create(*sim.kinds().pod, new_job_pod(job, index, attempt));
  pods.busy_indexes.insert(index);
  pods.all[key_of(pod).name] = pod;
  pods.active.push_back(std::move(pod));
}

bool done(const Json& job, const JobPods& pods) {
  if (indexed_job(job)) return static_cast<std::int64_t>(pods.completed_indexes.size()) >= job_completions(job);
  // A work queue (no completions) is done once one pod succeeded and none runs.
  if (!has_completions(job)) return pods.succeeded > 0 && pods.active.empty();
  return pods.succeeded >= job_completions(job);
}

// manageJob: tops the active pods up to what is left to do, within parallelism.
void make_missing_pods(Simulation& sim, const Json& job, JobPods& pods) {
  const std::int64_t parallelism = job_parallelism(job);
  auto slots = [&] { return parallelism - static_cast<std::int64_t>(pods.active.size()); };
  if (indexed_job(job)) {
    for (std::int64_t index = 0; index < job_completions(job) && slots() > 0; ++index) {
      if (!pods.completed_indexes.contains(index) && !pods.busy_indexes.contains(index))
        make_pod(sim, job, pods, index);
    }
    return;
  }
  if (!has_completions(job) && pods.succeeded > 0) return;  // a work queue drains, no new pods
  const std::int64_t left = has_completions(job) ? job_completions(job) - pods.succeeded
                                                 : std::max<std::int64_t>(parallelism, 1);
  std::int64_t slot = 0;
  while (slots() > 0 && static_cast<std::int64_t>(pods.active.size()) < left) {
    while (pods.all.contains(job_pod_name(job, slot))) ++slot;
    make_pod(sim, job, pods, slot);
  }
}

void delete_active(Simulation& sim, JobPods& pods) {
  for (const Json& pod : pods.active) {
    sim.remove(*sim.kinds().pod, key_of(pod));
    ++pods.terminating;
  }
  pods.active.clear();
  pods.ready = 0;
}

// Sets condition `type`, keeping its times when its status stays.
void set_condition(Json& conditions, const char* type, bool status, const char* reason, const char* message,
                   const std::string& now) {
  const std::string text = status ? "True" : "False";
  auto it = std::find_if(conditions.begin(), conditions.end(),
                         [&](const Json& c) { return c.is_object() && c.value("type", "") == type; });
  if (it != conditions.end() && it->value("status", "") == text) return;
  Json condition = {{"type", type},       {"status", text},       {"reason", reason},
                    {"message", message}, {"lastProbeTime", now}, {"lastTransitionTime", now}};
  if (it != conditions.end()) *it = std::move(condition);
  else conditions.push_back(std::move(condition));
}

bool condition_true(const Json& conditions, const char* type) {
  return std::any_of(conditions.begin(), conditions.end(), [&](const Json& c) {
    return c.is_object() && c.value("type", "") == type && c.value("status", "") == "True";
  });
}

// What the pass found, for the status.
struct Outcome {
  bool suspended = false;
  bool succeeded = false;  // the success criteria are met
  bool failed = false;     // more than backoffLimit pods failed
  bool pods_gone = true;   // no pod runs or terminates any more
  std::int64_t active = 0, ready = 0, terminating = 0, succeeded_pods = 0, failed_pods = 0;
  std::set<std::int64_t> completed_indexes;
};

Json job_status(const Json& job, const Outcome& outcome, const std::string& now) {
  const Json previous = job.value("status", Json::object());
  Json status = previous;
  Json conditions = previous.value("conditions", Json::array());
  status["ready"] = outcome.ready;
  status["terminating"] = outcome.terminating;
  status["uncountedTerminatedPods"] = Json::object();
  for (const auto& [key, value] : {std::pair{"active", outcome.active}, std::pair{"succeeded", outcome.succeeded_pods},
                                   std::pair{"failed", outcome.failed_pods}}) {
    if (value > 0) status[key] = value;  // omitempty
    else status.erase(key);
  }
  if (indexed_job(job) && !outcome.completed_indexes.empty()) {
    status["completedIndexes"] = index_ranges(outcome.completed_indexes);
  }
  if (outcome.suspended) {
    set_condition(conditions, "Suspended", true, "JobSuspended", "Job suspended", now);
    status.erase("startTime");
  } else {
    if (condition_true(conditions, "Suspended")) {
      set_condition(conditions, "Suspended", false, "JobResumed", "Job resumed", now);
    }
    if (!status.contains("startTime")) status["startTime"] = now;
    if (outcome.failed) {
      // FailureTarget at once; Failed once the pods are gone (the 1.35 controller's order).
      const char* message = "Job has reached the specified backoff limit";
      set_condition(conditions, "FailureTarget", true, "BackoffLimitExceeded", message, now);
      if (outcome.pods_gone) set_condition(conditions, "Failed", true, "BackoffLimitExceeded", message, now);
    } else if (outcome.succeeded) {
      const char* message = "Reached expected number of succeeded pods";
      set_condition(conditions, "SuccessCriteriaMet", true, "CompletionsReached", message, now);
      if (outcome.pods_gone) {
        set_condition(conditions, "Complete", true, "CompletionsReached", message, now);
        if (!status.contains("completionTime")) status["completionTime"] = now;
      }
    }
  }
  status["conditions"] = std::move(conditions);
  if (status["conditions"].empty()) status.erase("conditions");
  return status;
}

bool finished(const Json& job) {
  const Json conditions = job.value("/status/conditions"_json_pointer, Json::array());
  return conditions.is_array() && (condition_true(conditions, "Complete") || condition_true(conditions, "Failed"));
}

bool suspended(const Json& job) {
  return job.contains("/spec/suspend"_json_pointer) && job.at("/spec/suspend"_json_pointer) == true;
}

// The node agent runs the pods: they are made, waited for and counted as they really end.
Outcome run_on_node(Simulation& sim, const Json& job) {
  JobPods pods = job_pods(sim, job);
  Outcome outcome;
  outcome.suspended = suspended(job);
  if (outcome.suspended) {
    delete_active(sim, pods);
  } else if (pods.failed > job_backoff_limit(job)) {
    outcome.failed = true;
    delete_active(sim, pods);
  } else if (done(job, pods)) {
    outcome.succeeded = true;
    delete_active(sim, pods);  // an Indexed job's extra pods of completed indexes
  } else {
    make_missing_pods(sim, job, pods);
  }
  outcome.active = static_cast<std::int64_t>(pods.active.size());
  outcome.ready = pods.ready;
  outcome.terminating = pods.terminating;
  outcome.pods_gone = pods.active.empty() && pods.terminating == 0;
  outcome.succeeded_pods = pods.succeeded;
  outcome.failed_pods = pods.failed;
  outcome.completed_indexes = pods.completed_indexes;
  return outcome;
}

// No node runs the pods: every completion's pod is made and reported Succeeded at once.
Outcome simulate_pods(Simulation& sim, const Json& job) {
  Outcome outcome;
  outcome.suspended = suspended(job);
  if (outcome.suspended) return outcome;
  const std::int64_t completions = job_completions(job);
  std::int64_t succeeded = completions;
  if (sim.kinds().pod) {
    JobPods pods = job_pods(sim, job);
    for (std::int64_t index = 0; index < completions; ++index) {
      const std::string name = job_pod_name(job, index);
      auto found = pods.all.find(name);
      pods.all[name] = found == pods.all.end()
                           ? create_simulated_pod(sim, new_job_pod(job, index), PodOutcome::Succeeded)
                           : settle_pod(sim, found->second, PodOutcome::Succeeded);
    }
    succeeded = std::count_if(pods.all.begin(), pods.all.end(),
                              [](const auto& named) { return pod_succeeded(named.second); });
  }
  outcome.succeeded_pods = succeeded;
  outcome.succeeded = succeeded >= completions;
  if (indexed_job(job)) {
    for (std::int64_t index = 0; index < succeeded; ++index) outcome.completed_indexes.insert(index);
  }
  return outcome;
}

}  // namespace

void simulate_job(Simulation& sim, const ObjectKey& key) {
  const KindInfo& kind = *sim.kinds().job;
  const Json job = sim.cluster().get(kind, key);
  if (is_terminating(job) || finished(job)) return;
  sim.made_for(kind, job);
  const bool on_node = sim.kinds().pod && sim.runs_on_node(new_job_pod(job, 0));
  const Outcome outcome = on_node ? run_on_node(sim, job) : simulate_pods(sim, job);
  Json updated = job;
  updated["status"] = job_status(job, outcome, sim.now());
  if (updated["status"] != job.value("status", Json())) sim.update_status(kind, updated);
}

}  // namespace rr::apiserver_detail
