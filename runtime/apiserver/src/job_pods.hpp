// What the job controller makes of one Job: its pods' names, labels and index, and how many of
// them it wants. Shared by the simulated Jobs and those whose pods the node agent runs.
#pragma once
#include <cstdint>
#include <set>
#include <string>

#include "simulation.hpp"

namespace rr::apiserver_detail {

inline constexpr const char* job_uid_label = "batch.kubernetes.io/controller-uid";
inline constexpr const char* job_index_key = "batch.kubernetes.io/job-completion-index";

bool indexed_job(const Json& job);
// spec.completions; without it (a work queue) max(parallelism, 1).
std::int64_t job_completions(const Json& job);
bool has_completions(const Json& job);
std::int64_t job_parallelism(const Json& job);    // spec.parallelism, default 1
std::int64_t job_backoff_limit(const Json& job);  // spec.backoffLimit, default 6

// <job>-<5 characters> (<job>-<index>-<5> when Indexed), fixed by the job's uid, the index and
// the attempt, so a second pass finds the pod the first made instead of making another.
std::string job_pod_name(const Json& job, std::int64_t index, std::int64_t attempt = 0);

// The pod of `index` (a slot when not Indexed): the template with the controller's labels, owner
// and, when Indexed, the index label and annotation, JOB_COMPLETION_INDEX in every container's
// environment and hostname <job>-<index>.
Json new_job_pod(const Json& job, std::int64_t index, std::int64_t attempt = 0);

// The completion index of a job's pod (its annotation), or -1.
std::int64_t job_pod_index(const Json& pod);

// "0-2,4", "0,1": completed indexes as the controller compresses them.
std::string index_ranges(const std::set<std::int64_t>& indexes);

}  // namespace rr::apiserver_detail
