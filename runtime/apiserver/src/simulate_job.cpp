// Jobs: the pods of every completion made and reported Succeeded at once, then the status the
// job controller of Kubernetes 1.35 writes for a job that met its success criteria. A suspended
// job gets no pods, only its Suspended condition.
#include <algorithm>
#include <map>

#include "simulated_pod.hpp"

namespace rr::apiserver_detail {

namespace {

constexpr const char* uid_label = "batch.kubernetes.io/controller-uid";
constexpr const char* index_key = "batch.kubernetes.io/job-completion-index";

std::int64_t completions_of(const Json& job) {
  // Without completions (a work queue) every one of `parallelism` pods succeeds.
  const std::int64_t parallelism = int_at(job, "/spec/parallelism"_json_pointer, 1);
  return std::max<std::int64_t>(0,
                                int_at(job, "/spec/completions"_json_pointer, std::max<std::int64_t>(parallelism, 1)));
}

bool indexed(const Json& job) { return string_at(job, "/spec/completionMode"_json_pointer) == "Indexed"; }

// <job>-<5 characters> (<job>-<index>-<5> when Indexed), fixed by the job's uid and the index so
// a second pass finds the pod the first made instead of making another.
std::string job_pod_name(const Json& job, std::int64_t index) {
  const std::string name = string_at(job, "/metadata/name"_json_pointer);
  const std::string uid = string_at(job, "/metadata/uid"_json_pointer);
  const std::string suffix = safe_suffix(stable_hash(uid + "/" + std::to_string(index)), 5);
  return indexed(job) ? name + "-" + std::to_string(index) + "-" + suffix : name + "-" + suffix;
}

Json new_job_pod(const Json& job, std::int64_t index) {
  const Json tmpl = job.contains("/spec/template"_json_pointer) ? job.at("/spec/template"_json_pointer)
                                                                : Json::object();
  const Json tmpl_meta = tmpl.value("metadata", Json::object());
  const std::string name = string_at(job, "/metadata/name"_json_pointer);
  const std::string uid = string_at(job, "/metadata/uid"_json_pointer);
  Json labels = tmpl_meta.value("labels", Json::object());
  labels[uid_label] = uid;
  labels["batch.kubernetes.io/job-name"] = name;
  labels["controller-uid"] = uid;
  labels["job-name"] = name;
  Json annotations = tmpl_meta.value("annotations", Json::object());
  if (indexed(job)) {
    labels[index_key] = std::to_string(index);
    annotations[index_key] = std::to_string(index);
  }
  Json metadata = {{"name", job_pod_name(job, index)},
                   {"namespace", string_at(job, "/metadata/namespace"_json_pointer)},
                   {"generateName", name + "-"},
                   {"labels", std::move(labels)},
                   {"ownerReferences", Json::array({controller_ref(job)})}};
  if (!annotations.empty()) metadata["annotations"] = std::move(annotations);
  return Json{{"apiVersion", "v1"},
              {"kind", "Pod"},
              {"metadata", std::move(metadata)},
              {"spec", tmpl.value("spec", Json::object())}};
}

// Makes the pods not made yet, reports each Succeeded; the number that succeeded.
std::int64_t run_pods(Simulation& sim, const Json& job, std::int64_t completions) {
  ListOptions options{.namespace_ = string_at(job, "/metadata/namespace"_json_pointer)};
  options.label_selector = std::string(uid_label) + "=" + string_at(job, "/metadata/uid"_json_pointer);
  std::map<std::string, Json> pods;
  for (const Json& pod : sim.cluster().list(*sim.kinds().pod, options).value("items", Json::array())) {
    if (controlled_by(pod, job)) pods[key_of(pod).name] = pod;
  }
  for (std::int64_t index = 0; index < completions; ++index) {
    const std::string name = job_pod_name(job, index);
    auto found = pods.find(name);
    pods[name] = found == pods.end() ? create_simulated_pod(sim, new_job_pod(job, index), PodOutcome::Succeeded)
                                     : settle_pod(sim, found->second, PodOutcome::Succeeded);
  }
  return std::count_if(pods.begin(), pods.end(), [](const auto& named) { return pod_succeeded(named.second); });
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

// "0-4", "0,1", "0": the completed indexes as the controller compresses them.
std::string index_ranges(std::int64_t count) {
  if (count == 1) return "0";
  return "0" + std::string(count == 2 ? "," : "-") + std::to_string(count - 1);
}

Json job_status(const Json& job, std::int64_t succeeded, std::int64_t completions, bool suspended,
                const std::string& now) {
  const Json previous = job.value("status", Json::object());
  Json status = previous;
  Json conditions = previous.value("conditions", Json::array());
  status["ready"] = 0;
  status["terminating"] = 0;
  status["uncountedTerminatedPods"] = Json::object();
  if (suspended) {
    set_condition(conditions, "Suspended", true, "JobSuspended", "Job suspended", now);
    status.erase("startTime");
  } else {
    const bool was_suspended = std::any_of(conditions.begin(), conditions.end(), [](const Json& c) {
      return c.value("type", "") == "Suspended" && c.value("status", "") == "True";
    });
    if (was_suspended) set_condition(conditions, "Suspended", false, "JobResumed", "Job resumed", now);
    if (!status.contains("startTime")) status["startTime"] = now;
    if (succeeded > 0) status["succeeded"] = succeeded;
    if (indexed(job) && succeeded > 0) status["completedIndexes"] = index_ranges(succeeded);
    if (succeeded >= completions) {
      const char* message = "Reached expected number of succeeded pods";
      set_condition(conditions, "SuccessCriteriaMet", true, "CompletionsReached", message, now);
      set_condition(conditions, "Complete", true, "CompletionsReached", message, now);
      if (!status.contains("completionTime")) status["completionTime"] = now;
    }
  }
  status["conditions"] = std::move(conditions);
  if (status["conditions"].empty()) status.erase("conditions");
  return status;
}

bool finished(const Json& job) {
  for (const Json& c :
       job.contains("/status/conditions"_json_pointer) ? job.at("/status/conditions"_json_pointer) : Json::array()) {
    const std::string type = c.value("type", "");
    if ((type == "Complete" || type == "Failed") && c.value("status", "") == "True") return true;
  }
  return false;
}

}  // namespace

void simulate_job(Simulation& sim, const ObjectKey& key) {
  const KindInfo& kind = *sim.kinds().job;
  const Json job = sim.cluster().get(kind, key);
  if (is_terminating(job) || finished(job)) return;
  sim.made_for(kind, job);
  const bool suspended = job.contains("/spec/suspend"_json_pointer) && job.at("/spec/suspend"_json_pointer) == true;
  const std::int64_t completions = completions_of(job);
  std::int64_t succeeded = 0;
  if (!suspended) succeeded = sim.kinds().pod ? run_pods(sim, job, completions) : completions;
  Json updated = job;
  updated["status"] = job_status(job, succeeded, completions, suspended, sim.now());
  if (updated["status"] != job.value("status", Json())) sim.update_status(kind, updated);
}

}  // namespace rr::apiserver_detail
