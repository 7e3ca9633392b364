#include "job_pods.hpp"

#include <algorithm>
#include <charconv>

namespace rr::apiserver_detail {

bool indexed_job(const Json& job) { return string_at(job, "/spec/completionMode"_json_pointer) == "Indexed"; }

std::int64_t job_parallelism(const Json& job) {
  return std::max<std::int64_t>(0, int_at(job, "/spec/parallelism"_json_pointer, 1));
}

bool has_completions(const Json& job) {
  return job.contains("/spec/completions"_json_pointer) && job.at("/spec/completions"_json_pointer).is_number_integer();
}

std::int64_t job_completions(const Json& job) {
  return std::max<std::int64_t>(
      0, int_at(job, "/spec/completions"_json_pointer, std::max<std::int64_t>(job_parallelism(job), 1)));
}

std::int64_t job_backoff_limit(const Json& job) {
  return std::max<std::int64_t>(0, int_at(job, "/spec/backoffLimit"_json_pointer, 6));
}

std::string job_pod_name(const Json& job, std::int64_t index, std::int64_t attempt) {
  const std::string name = string_at(job, "/metadata/name"_json_pointer);
  const std::string uid = string_at(job, "/metadata/uid"_json_pointer);
  std::string seed = uid + "/" + std::to_string(index);
  if (attempt > 0) seed += "/" + std::to_string(attempt);
  const std::string suffix = safe_suffix(stable_hash(seed), 5);
  return indexed_job(job) ? name + "-" + std::to_string(index) + "-" + suffix : name + "-" + suffix;
}

namespace {

// addCompletionIndexEnvVariables: the index from the pod's annotation, unless the container sets it.
void add_index_env(Json& containers) {
  if (!containers.is_array()) return;
  for (Json& container : containers) {
    if (!container.is_object()) continue;
    Json& env = container["env"];
    if (!env.is_array()) env = Json::array();
    const bool set = std::any_of(env.begin(), env.end(), [](const Json& e) {
      return e.is_object() && e.value("name", "") == "JOB_COMPLETION_INDEX";
    });
    if (set) continue;
    env.push_back(
        {{"name", "JOB_COMPLETION_INDEX"},
         {"valueFrom",
          {{"fieldRef",
            {{"apiVersion", "v1"}, {"fieldPath", std::string("metadata.annotations['") + job_index_key + "']"}}}}}});
  }
}

}  // namespace

Json new_job_pod(const Json& job, std::int64_t index, std::int64_t attempt) {
  const Json tmpl = job.contains("/spec/template"_json_pointer) ? job.at("/spec/template"_json_pointer)
                                                                : Json::object();
  const Json tmpl_meta = tmpl.value("metadata", Json::object());
  const std::string name = string_at(job, "/metadata/name"_json_pointer);
  const std::string uid = string_at(job, "/metadata/uid"_json_pointer);
  Json labels = tmpl_meta.value("labels", Json::object());
  labels[job_uid_label] = uid;
  labels["batch.kubernetes.io/job-name"] = name;
  labels["controller-uid"] = uid;
  labels["job-name"] = name;
  Json annotations = tmpl_meta.value("annotations", Json::object());
  Json spec = tmpl.value("spec", Json::object());
  if (indexed_job(job)) {
    labels[job_index_key] = std::to_string(index);
    annotations[job_index_key] = std::to_string(index);
    if (spec.is_object()) {
      if (spec.value("hostname", "").empty()) spec["hostname"] = name + "-" + std::to_string(index);
      if (spec.contains("containers")) add_index_env(spec["containers"]);
      if (spec.contains("initContainers")) add_index_env(spec["initContainers"]);
    }
  }
  Json metadata = {{"name", job_pod_name(job, index, attempt)},
                   {"namespace", string_at(job, "/metadata/namespace"_json_pointer)},
                   {"generateName", indexed_job(job) ? name + "-" + std::to_string(index) + "-" : name + "-"},
                   {"labels", std::move(labels)},
                   {"ownerReferences", Json::array({controller_ref(job)})}};
  if (!annotations.empty()) metadata["annotations"] = std::move(annotations);
  return Json{{"apiVersion", "v1"}, {"kind", "Pod"}, {"metadata", std::move(metadata)}, {"spec", std::move(spec)}};
}

std::int64_t job_pod_index(const Json& pod) {
  const Json annotations = pod.value("/metadata/annotations"_json_pointer, Json::object());
  if (!annotations.is_object() || !annotations.contains(job_index_key) || !annotations[job_index_key].is_string()) {
    return -1;
  }
  const std::string text = annotations[job_index_key].get<std::string>();
  std::int64_t index = -1;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), index);
  return error == std::errc() && end == text.data() + text.size() && index >= 0 ? index : -1;
}

std::string index_ranges(const std::set<std::int64_t>& indexes) {
  std::string out;
  for (auto it = indexes.begin(); it != indexes.end();) {
    const std::int64_t first = *it;
    std::int64_t last = first;
    for (++it; it != indexes.end() && *it == last + 1; ++it) last = *it;
    if (!out.empty()) out += ",";
    out += std::to_string(first);
    if (last == first + 1) out += "," + std::to_string(last);
    else if (last > first + 1) out += "-" + std::to_string(last);
  }
  return out;
}

}  // namespace rr::apiserver_detail
