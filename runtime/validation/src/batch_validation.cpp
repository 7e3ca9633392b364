// batch/v1 Job and CronJob (pkg/apis/batch/validation, 1.35), without ObjectMeta except the two
// name rules these kinds add (an Indexed Job's pod hostnames, a CronJob's 52 characters).
#include <string>

#include "cron_schedule.hpp"
#include "rr/validation/label_selector.hpp"
#include "rr/validation/names.hpp"
#include "workload_common.hpp"
#include "workload_validators.hpp"

namespace rr::validation::detail {
namespace {

constexpr std::int64_t kMaxParallelismForIndexedJob = 100000;

// validateJobSpec: what a Job and a CronJob's job template share.
void job_spec(ErrorList& errs, const Json& spec, const std::string& path) {
  for (const char* key :
       {"parallelism", "completions", "activeDeadlineSeconds", "backoffLimit", "ttlSecondsAfterFinished"}) {
    nonnegative(errs, spec, key, child(path, key));
  }
  const std::string_view mode = string_member(spec, "completionMode");
  if (has(spec, "backoffLimitPerIndex")) {
    nonnegative(errs, spec, "backoffLimitPerIndex", child(path, "backoffLimitPerIndex"));
    if (mode != "Indexed") {
      errs.push_back(forbidden(child(path, "backoffLimitPerIndex"), "requires indexed completion mode"));
    }
  }
  if (has(spec, "maxFailedIndexes")) {
    if (!has(spec, "backoffLimitPerIndex")) {
      errs.push_back(required(child(path, "backoffLimitPerIndex"), "when maxFailedIndexes is specified"));
    }
    nonnegative(errs, spec, "maxFailedIndexes", child(path, "maxFailedIndexes"));
  }
  if (has(spec, "completionMode")) {
    if (mode != "NonIndexed" && mode != "Indexed") {
      errs.push_back(not_supported(child(path, "completionMode"), mode, {"NonIndexed", "Indexed"}));
    }
    if (mode == "Indexed") {
      if (!has(spec, "completions"))
        errs.push_back(required(child(path, "completions"), "when completion mode is Indexed"));
      if (const auto p = int_member(spec, "parallelism"); p && *p > kMaxParallelismForIndexedJob) {
        errs.push_back(invalid_int(child(path, "parallelism"), *p,
                                   "must be less than or equal to 100000 when completion mode is Indexed"));
      }
    }
  }
  if (const Json& replacement = at(spec, "podReplacementPolicy"); replacement.is_string()) {
    const std::string& r = replacement.get_ref<const std::string&>();
    if (r != "TerminatingOrFailed" && r != "Failed") {
      errs.push_back(not_supported(child(path, "podReplacementPolicy"), r, {"Failed", "TerminatingOrFailed"}));
    }
  }
  const Json& template_spec = at(spec, "template");
  append(errs, validate_pod_template_spec(template_spec, child(path, "template")));
  // An unset restartPolicy is defaulted to Always, which a Job refuses.
  const std::string_view restart = restart_policy_of(at(template_spec, "spec"));
  const std::string restart_path = child(path, "template.spec.restartPolicy");
  if (restart == "Always") {
    errs.push_back(required(restart_path, "valid values: \"OnFailure\", \"Never\""));
  } else if (restart != "OnFailure" && restart != "Never") {
    errs.push_back(not_supported(restart_path, restart, {"OnFailure", "Never"}));
  } else if (has(spec, "podFailurePolicy") && restart != "Never") {
    errs.push_back(invalid(restart_path, restart, "only \"Never\" is supported when podFailurePolicy is specified"));
  }
}

// ValidateJobSpec: the selector is required and must select the template. Without manualSelector
// the API server generates both before validating (from the Job's uid), so they match by
// construction and are not checked here.
void job_selector(ErrorList& errs, const Json& spec) {
  const Json& selector = at(spec, "selector");
  const bool manual = bool_member(spec, "manualSelector");
  if (!manual) {
    append(errs, validate_label_selector(selector, "spec.selector"));
    return;
  }
  if (!selector.is_object()) {
    errs.push_back(required("spec.selector"));
  } else {
    append(errs, validate_label_selector(selector, "spec.selector"));
  }
  const auto matches = label_selector_matches(selector, at(at(at(spec, "template"), "metadata"), "labels"));
  if (matches && !*matches) {
    errs.push_back(invalid_json("spec.template.metadata.labels", labels_json(at(spec, "template")),
                                "`selector` does not match template `labels`"));
  }
}

ErrorList job(const Json& j) {
  ErrorList errs;
  const Json& spec = at(j, "spec");
  job_spec(errs, spec, "spec");
  job_selector(errs, spec);
  return errs;
}

bool equal_fold(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

// validateScheduleFormat and validateTimeZone.
void cron_job_spec(ErrorList& errs, const Json& spec, const Json* old_spec) {
  const std::string_view schedule = string_member(spec, "schedule");
  if (schedule.empty()) {
    errs.push_back(required("spec.schedule"));
  } else {
    const bool allow_tz = old_spec && string_member(*old_spec, "schedule").find("TZ") != std::string_view::npos;
    if (auto err = cron_parse_error(schedule)) errs.push_back(invalid("spec.schedule", schedule, *err));
    const bool tz = schedule.find("TZ") != std::string_view::npos;
    if (allow_tz && tz && has(spec, "timeZone")) {
      errs.push_back(
          invalid("spec.schedule", schedule, "cannot use both timeZone field and TZ or CRON_TZ in schedule"));
    } else if (!allow_tz && tz) {
      errs.push_back(
          invalid("spec.schedule", schedule, "cannot use TZ or CRON_TZ in schedule, use timeZone field instead"));
    }
  }
  nonnegative(errs, spec, "startingDeadlineSeconds", "spec.startingDeadlineSeconds");
  const Json& zone = at(spec, "timeZone");
  if (zone.is_string() && (!old_spec || at(*old_spec, "timeZone") != zone)) {
    const std::string& z = zone.get_ref<const std::string&>();
    if (z.empty()) {
      errs.push_back(invalid("spec.timeZone", z, "timeZone must be nil or non-empty string"));
    } else {
      bool bad_part = false;
      std::string_view rest = z;
      for (;;) {
        const std::size_t slash = rest.find('/');
        const std::string_view part = rest.substr(0, slash);
        // ^[A-Za-z\.\-_0-9+]{1,14}$, not "." or "..", not starting with '-'
        bool ok = !part.empty() && part.size() <= 14 && part != "." && part != ".." && part.front() != '-';
        for (const char c : part) {
          ok = ok && ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' ||
                      c == '-' || c == '_' || c == '+');
        }
        bad_part = bad_part || !ok;
        if (slash == std::string_view::npos) break;
        rest.remove_prefix(slash + 1);
      }
      if (bad_part) {
        errs.push_back(invalid("spec.timeZone", z, "unknown time zone " + z));
      } else {
        if (equal_fold(z, "Local")) {
          errs.push_back(
              invalid("spec.timeZone", z,
                      "timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones"));
        }
        if (auto err = time_zone_error(z)) errs.push_back(invalid("spec.timeZone", z, *err));
      }
    }
  }
  const std::string_view concurrency = string_member(spec, "concurrencyPolicy");
  if (!concurrency.empty() && concurrency != "Allow" && concurrency != "Forbid" && concurrency != "Replace") {
    errs.push_back(not_supported("spec.concurrencyPolicy", concurrency, {"Allow", "Forbid", "Replace"}));
  }
  // ValidateJobTemplateSpec: the job template's selector is always generated.
  const Json& job_template = at(spec, "jobTemplate");
  const Json& job_template_spec = at(job_template, "spec");
  job_spec(errs, job_template_spec, "spec.jobTemplate.spec");
  if (const Json& selector = at(job_template_spec, "selector"); selector.is_object()) {
    errs.push_back(invalid_json("spec.jobTemplate.spec.selector", label_selector_json(selector),
                                "`selector` will be auto-generated"));
  }
  if (bool_member(job_template_spec, "manualSelector")) {
    errs.push_back(not_supported("spec.jobTemplate.spec.manualSelector", "true", {"nil", "false"}));
  }
  nonnegative(errs, spec, "successfulJobsHistoryLimit", "spec.successfulJobsHistoryLimit");
  nonnegative(errs, spec, "failedJobsHistoryLimit", "spec.failedJobsHistoryLimit");
}

}  // namespace

ErrorList validate_job_create(const Json& j) {
  ErrorList errs = job(j);
  // An Indexed Job's pods are named <job>-<index>: the last must still be a DNS label.
  const Json& spec = at(j, "spec");
  const auto completions = int_member(spec, "completions");
  if (string_member(spec, "completionMode") == "Indexed" && completions && *completions > 0) {
    const std::string_view name = string_member(at(j, "metadata"), "name");
    const std::string hostname = std::string(name) + "-" + std::to_string(*completions - 1);
    if (!is_dns1123_label(hostname).empty()) {
      errs.push_back(invalid("metadata.name", name, "will not able to create pod with invalid DNS label: " + hostname));
    }
  }
  return errs;
}

ErrorList validate_job_update(const Json& j, const Json& old) {
  ErrorList errs = job(j);
  const Json& spec = at(j, "spec");
  const Json& old_spec = at(old, "spec");
  // validateCompletions: immutable, except an Indexed Job's, changed together with parallelism.
  const Json& completions = at(spec, "completions");
  if (string_member(spec, "completionMode") != "Indexed") {
    immutable(errs, completions, at(old_spec, "completions"), "spec.completions");
  } else if (completions != at(old_spec, "completions") && completions.is_number_integer() &&
             completions != at(spec, "parallelism")) {
    errs.push_back(
        invalid_json("spec.completions", go_json(completions), "can only be modified in tandem with spec.parallelism"));
  }
  const Json& selector = at(spec, "selector");
  if (selector != at(old_spec, "selector")) {
    errs.push_back(invalid_json("spec.selector", label_selector_json(selector), "field is immutable"));
  }
  // The template is immutable, except the scheduling directives of a Job suspended before it ever
  // started (labels, annotations, nodeSelector, tolerations, affinity, schedulingGates).
  Json now_template = at(spec, "template");
  Json old_template = at(old_spec, "template");
  const bool never_started = !has(at(old, "status"), "startTime");
  if (bool_member(spec, "suspend") && bool_member(old_spec, "suspend") && never_started) {
    for (Json* t : {&now_template, &old_template}) {
      if (!t->is_object()) continue;
      if (auto meta = t->find("metadata"); meta != t->end() && meta->is_object()) {
        meta->erase("labels");
        meta->erase("annotations");
      }
      if (auto s = t->find("spec"); s != t->end() && s->is_object()) {
        for (const char* key : {"nodeSelector", "tolerations", "affinity", "schedulingGates"}) s->erase(key);
      }
    }
  }
  if (now_template != old_template) {
    errs.push_back(invalid_json("spec.template", go_json(at(spec, "template")), "field is immutable"));
  }
  for (const char* key : {"completionMode", "podFailurePolicy", "backoffLimitPerIndex", "managedBy", "successPolicy"}) {
    immutable(errs, at(spec, key), at(old_spec, key), std::string("spec.") + key);
  }
  return errs;
}

ErrorList validate_cron_job_create(const Json& cj) {
  ErrorList errs;
  cron_job_spec(errs, at(cj, "spec"), nullptr);
  // The controller appends an 11-character suffix to the Job's name, which is a DNS-1035 label.
  const std::string_view name = string_member(at(cj, "metadata"), "name");
  if (name.size() > 52) errs.push_back(invalid("metadata.name", name, "must be no more than 52 characters"));
  return errs;
}

ErrorList validate_cron_job_update(const Json& cj, const Json& old) {
  ErrorList errs;
  const Json& old_spec = at(old, "spec");
  cron_job_spec(errs, at(cj, "spec"), &old_spec);
  return errs;
}

}  // namespace rr::validation::detail
