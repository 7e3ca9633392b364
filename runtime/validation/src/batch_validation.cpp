// batch/v1 Job and CronJob (pkg/apis/batch/validation, 1.35), without ObjectMeta except the two
// name rules these kinds add (an Indexed Job's pod hostnames, a CronJob's 52 characters).
#include <set>
#include <string>

#include "cron_schedule.hpp"
#include "rr/core/go_quote.hpp"
#include "rr/validation/label_selector.hpp"
#include "rr/validation/names.hpp"
#include "workload_common.hpp"
#include "workload_validators.hpp"

namespace rr::validation::detail {
namespace {

constexpr std::int64_t kMaxParallelismForIndexedJob = 100000;

// %q of a Go []string: ["a" "b"].
std::string go_quoted_list(std::initializer_list<const char*> values) {
  std::string s = "[";
  for (const char* v : values) s += (s.size() > 1 ? " " : "") + go_quote(v);
  return s + "]";
}

void on_exit_codes(ErrorList& errs, const Json& rule, const std::set<std::string, std::less<>>& containers,
                   const std::string& path) {
  const Json& codes = value_at(rule, "onExitCodes");
  const std::string_view op = string_member(codes, "operator");
  if (op.empty()) {
    errs.push_back(required(child(path, "operator"), "valid values: " + go_quoted_list({"In", "NotIn"})));
  } else if (op != "In" && op != "NotIn") {
    errs.push_back(not_supported(child(path, "operator"), op, {"In", "NotIn"}));
  }
  if (const Json& name = value_at(codes, "containerName");
      name.is_string() && !containers.contains(name.get<std::string>())) {
    errs.push_back(invalid(child(path, "containerName"), name.get<std::string>(),
                           "must be one of the container or initContainer names in the pod template"));
  }
  const Json& values = value_at(codes, "values");
  const std::string values_path = child(path, "values");
  const std::size_t n = values.is_array() ? values.size() : 0;
  if (n == 0) {
    errs.push_back(invalid_json(values_path, go_json(values), "at least one value is required"));
  } else if (n > 255) {
    errs.push_back(too_many(values_path, static_cast<std::int64_t>(n), 255));
  }
  bool ordered = true;
  std::set<std::int64_t> seen;
  for (std::size_t j = 0; j < n; ++j) {
    if (!values[j].is_number_integer()) continue;
    const std::int64_t v = values[j].get<std::int64_t>();
    if (op == "In" && v == 0)
      errs.push_back(invalid_int(index(values_path, j), v, "must not be 0 for the In operator"));
    if (seen.contains(v)) {
      errs.push_back({FieldErrorType::Duplicate, index(values_path, j), std::to_string(v), {}});
    } else {
      seen.insert(v);
    }
    if (j > 0 && values[j - 1].is_number_integer() && values[j - 1].get<std::int64_t>() > v) ordered = false;
  }
  if (!ordered) errs.push_back(invalid_json(values_path, go_json(values), "must be ordered"));
}

// validatePodFailurePolicy: at most 20 rules, each with a known action and one kind of requirement.
void pod_failure_policy(ErrorList& errs, const Json& spec, const std::string& path) {
  const Json& rules = value_at(value_at(spec, "podFailurePolicy"), "rules");
  const std::string rules_path = child(path, "rules");
  if (!rules.is_array()) return;
  if (rules.size() > 20) errs.push_back(too_many(rules_path, static_cast<std::int64_t>(rules.size()), 20));
  std::set<std::string, std::less<>> containers;
  const Json& pod_spec = value_at(value_at(spec, "template"), "spec");
  for (const char* list : {"containers", "initContainers"}) {
    if (const Json& l = value_at(pod_spec, list); l.is_array()) {
      for (const Json& c : l) containers.insert(std::string(string_member(c, "name")));
    }
  }
  for (std::size_t i = 0; i < rules.size(); ++i) {
    const Json& rule = rules[i];
    const std::string rule_path = index(rules_path, i);
    const std::string_view action = string_member(rule, "action");
    if (action.empty()) {
      errs.push_back(required(child(rule_path, "action"),
                              "valid values: " + go_quoted_list({"Count", "FailIndex", "FailJob", "Ignore"})));
    } else if (action == "FailIndex") {
      if (!is_set(spec, "backoffLimitPerIndex")) {
        errs.push_back(invalid(child(rule_path, "action"), action, "requires the backoffLimitPerIndex to be set"));
      }
    } else if (action != "Count" && action != "FailJob" && action != "Ignore") {
      errs.push_back(not_supported(child(rule_path, "action"), action, {"Count", "FailIndex", "FailJob", "Ignore"}));
    }
    const bool exit_codes = value_at(rule, "onExitCodes").is_object();
    const Json& conditions = value_at(rule, "onPodConditions");
    const std::size_t condition_count = conditions.is_array() ? conditions.size() : 0;
    if (exit_codes) on_exit_codes(errs, rule, containers, child(rule_path, "onExitCodes"));
    if (condition_count > 0) {
      const std::string conditions_path = child(rule_path, "onPodConditions");
      if (condition_count > 20)
        errs.push_back(too_many(conditions_path, static_cast<std::int64_t>(condition_count), 20));
      for (std::size_t j = 0; j < condition_count; ++j) {
        const std::string at_j = index(conditions_path, j);
        const std::string_view type = string_member(conditions[j], "type");
        for (std::string& m : is_qualified_name(type)) errs.push_back(invalid(child(at_j, "type"), type, std::move(m)));
        const std::string_view status = string_member(conditions[j], "status");
        if (status.empty()) {
          errs.push_back(
              required(child(at_j, "status"), "valid values: " + go_quoted_list({"False", "True", "Unknown"})));
        } else if (status != "True" && status != "False" && status != "Unknown") {
          errs.push_back(not_supported(child(at_j, "status"), status, {"False", "True", "Unknown"}));
        }
      }
    }
    // field.OmitValueType: the finding shows no value.
    if (exit_codes && condition_count > 0) {
      errs.push_back({FieldErrorType::Invalid, rule_path, std::nullopt,
                      "specifying both OnExitCodes and OnPodConditions is not supported"});
    }
    if (!exit_codes && condition_count == 0) {
      errs.push_back({FieldErrorType::Invalid, rule_path, std::nullopt,
                      "specifying one of OnExitCodes and OnPodConditions is required"});
    }
  }
}

// validateJobSpec: what a Job and a CronJob's job template share.
void job_spec(ErrorList& errs, const Json& spec, const std::string& path) {
  for (const char* key : {"parallelism", "completions", "activeDeadlineSeconds", "backoffLimit",
                          "ttlSecondsAfterFinished", "backoffLimitPerIndex"}) {
    nonnegative(errs, spec, key, child(path, key));
  }
  const auto completions = int_member(spec, "completions");
  const auto max_failed = int_member(spec, "maxFailedIndexes");
  if (is_set(spec, "maxFailedIndexes")) {
    nonnegative(errs, spec, "maxFailedIndexes", child(path, "maxFailedIndexes"));
    if (!is_set(spec, "backoffLimitPerIndex")) {
      errs.push_back(required(child(path, "backoffLimitPerIndex"), "when maxFailedIndexes is specified"));
    }
  }
  const std::string_view mode = string_member(spec, "completionMode");
  if (is_set(spec, "completionMode")) {
    if (mode != "NonIndexed" && mode != "Indexed") {
      errs.push_back(not_supported(child(path, "completionMode"), mode, {"NonIndexed", "Indexed"}));
    }
    if (mode == "Indexed") {
      if (!completions) errs.push_back(required(child(path, "completions"), "when completion mode is Indexed"));
      if (const auto p = int_member(spec, "parallelism"); p && *p > kMaxParallelismForIndexedJob) {
        errs.push_back(invalid_int(child(path, "parallelism"), *p,
                                   "must be less than or equal to 100000 when completion mode is Indexed"));
      }
      if (completions && max_failed && *max_failed > *completions) {
        errs.push_back(
            invalid_int(child(path, "maxFailedIndexes"), *max_failed, "must be less than or equal to completions"));
      }
      if (max_failed && *max_failed > 100000) {
        errs.push_back(
            invalid_int(child(path, "maxFailedIndexes"), *max_failed, "must be less than or equal to 100000"));
      }
    }
  }
  if (mode.empty() || mode == "NonIndexed") {
    if (const auto per_index = int_member(spec, "backoffLimitPerIndex")) {
      errs.push_back(invalid_int(child(path, "backoffLimitPerIndex"), *per_index, "requires indexed completion mode"));
    }
    if (max_failed)
      errs.push_back(invalid_int(child(path, "maxFailedIndexes"), *max_failed, "requires indexed completion mode"));
  }
  const bool failure_policy = is_set(spec, "podFailurePolicy");
  if (failure_policy) pod_failure_policy(errs, spec, child(path, "podFailurePolicy"));
  if (const Json& success = value_at(spec, "successPolicy"); success.is_object()) {
    if (mode != "Indexed") {
      // The internal SuccessPolicy struct, as encoding/json writes it (Go field names).
      std::string shown = "{\"Rules\":";
      const Json& rules = value_at(success, "rules");
      if (!rules.is_array()) {
        shown += "null";
      } else {
        shown += "[";
        for (std::size_t i = 0; i < rules.size(); ++i) {
          const Json& indexes = value_at(rules[i], "succeededIndexes");
          const Json& count = value_at(rules[i], "succeededCount");
          shown += std::string(i ? "," : "") +
                   "{\"SucceededIndexes\":" + (indexes.is_string() ? go_json(indexes) : "null") +
                   ",\"SucceededCount\":" + (count.is_number_integer() ? go_json(count) : "null") + "}";
        }
        shown += "]";
      }
      errs.push_back(invalid_json(child(path, "successPolicy"), shown + "}", "requires indexed completion mode"));
    } else if (list_size(success, "rules") == 0) {
      errs.push_back(required(child(path, "successPolicy.rules"),
                              "at least one rules must be specified when the successPolicy is specified"));
    }
  }
  if (const Json& replacement = value_at(spec, "podReplacementPolicy"); replacement.is_string()) {
    const std::string& r = replacement.get_ref<const std::string&>();
    if (failure_policy) {
      if (r != "Failed") errs.push_back(not_supported(child(path, "podReplacementPolicy"), r, {"Failed"}));
    } else if (r != "TerminatingOrFailed" && r != "Failed") {
      errs.push_back(not_supported(child(path, "podReplacementPolicy"), r, {"Failed", "TerminatingOrFailed"}));
    }
  }
  const Json& template_spec = value_at(spec, "template");
  append(errs, validate_pod_template_spec(template_spec, child(path, "template")));
  // An unset restartPolicy is defaulted to Always, which a Job refuses.
  const std::string_view restart = restart_policy_of(value_at(template_spec, "spec"));
  const std::string restart_path = child(path, "template.spec.restartPolicy");
  if (restart == "Always") {
    errs.push_back(required(restart_path, "valid values: \"OnFailure\", \"Never\""));
  } else if (restart != "OnFailure" && restart != "Never") {
    errs.push_back(not_supported(restart_path, restart, {"OnFailure", "Never"}));
  } else if (failure_policy && restart != "Never") {
    errs.push_back(invalid(restart_path, restart, "only \"Never\" is supported when podFailurePolicy is specified"));
  }
}

// ValidateJobSpec: the selector is required and must select the template. Without manualSelector
// the API server generates both before validating (from the Job's uid), so they match by
// construction and are not checked here.
void job_selector(ErrorList& errs, const Json& spec) {
  const Json& selector = value_at(spec, "selector");
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
  const auto matches = label_selector_matches(selector,
                                              value_at(value_at(value_at(spec, "template"), "metadata"), "labels"));
  if (matches && !*matches) {
    errs.push_back(invalid_json("spec.template.metadata.labels", labels_json(value_at(spec, "template")),
                                "`selector` does not match template `labels`"));
  }
}

ErrorList job(const Json& j) {
  ErrorList errs;
  const Json& spec = value_at(j, "spec");
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
    if (allow_tz && tz && is_set(spec, "timeZone")) {
      errs.push_back(
          invalid("spec.schedule", schedule, "cannot use both timeZone field and TZ or CRON_TZ in schedule"));
    } else if (!allow_tz && tz) {
      errs.push_back(
          invalid("spec.schedule", schedule, "cannot use TZ or CRON_TZ in schedule, use timeZone field instead"));
    }
  }
  nonnegative(errs, spec, "startingDeadlineSeconds", "spec.startingDeadlineSeconds");
  const Json& zone = value_at(spec, "timeZone");
  if (zone.is_string() && (!old_spec || value_at(*old_spec, "timeZone") != zone)) {
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
  const Json& job_template = value_at(spec, "jobTemplate");
  const Json& job_template_spec = value_at(job_template, "spec");
  job_spec(errs, job_template_spec, "spec.jobTemplate.spec");
  if (const Json& selector = value_at(job_template_spec, "selector"); selector.is_object()) {
    errs.push_back(invalid_json("spec.jobTemplate.spec.selector", label_selector_json(selector),
                                "`selector` will be auto-generated"));
  }
  if (bool_member(job_template_spec, "manualSelector")) {
    errs.push_back(not_supported_json("spec.jobTemplate.spec.manualSelector", "true", {"nil", "false"}));  // a *bool
  }
  nonnegative(errs, spec, "successfulJobsHistoryLimit", "spec.successfulJobsHistoryLimit");
  nonnegative(errs, spec, "failedJobsHistoryLimit", "spec.failedJobsHistoryLimit");
}

}  // namespace

ErrorList validate_job_create(const Json& j) {
  ErrorList errs = job(j);
  // An Indexed Job's pods are named <job>-<index>: the last must still be a DNS label.
  const Json& spec = value_at(j, "spec");
  const auto completions = int_member(spec, "completions");
  if (string_member(spec, "completionMode") == "Indexed" && completions && *completions > 0) {
    const std::string_view name = string_member(value_at(j, "metadata"), "name");
    const std::string hostname = std::string(name) + "-" + std::to_string(*completions - 1);
    if (!is_dns1123_label(hostname).empty()) {
      errs.push_back(invalid("metadata.name", name, "will not able to create pod with invalid DNS label: " + hostname));
    }
  }
  return errs;
}

ErrorList validate_job_update(const Json& j, const Json& old) {
  ErrorList errs = job(j);
  const Json& spec = value_at(j, "spec");
  const Json& old_spec = value_at(old, "spec");
  // validateCompletions: immutable, except an Indexed Job's, changed together with parallelism.
  const Json& completions = value_at(spec, "completions");
  if (string_member(spec, "completionMode") != "Indexed") {
    immutable(errs, completions, value_at(old_spec, "completions"), "spec.completions");
  } else if (completions != value_at(old_spec, "completions") && completions.is_number_integer() &&
             completions != value_at(spec, "parallelism")) {
    errs.push_back(
        invalid_json("spec.completions", go_json(completions), "can only be modified in tandem with spec.parallelism"));
  }
  const Json& selector = value_at(spec, "selector");
  if (selector != value_at(old_spec, "selector")) {
    errs.push_back(invalid_json("spec.selector", label_selector_json(selector), "field is immutable"));
  }
  // The template is immutable, except the scheduling directives of a Job suspended before it ever
  // started (labels, annotations, nodeSelector, tolerations, affinity, schedulingGates).
  Json now_template = value_at(spec, "template");
  Json old_template = value_at(old_spec, "template");
  const bool never_started = !is_set(value_at(old, "status"), "startTime");
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
    errs.push_back(invalid_json("spec.template", go_json(value_at(spec, "template")), "field is immutable"));
  }
  for (const char* key : {"completionMode", "podFailurePolicy", "backoffLimitPerIndex", "managedBy", "successPolicy"}) {
    immutable(errs, value_at(spec, key), value_at(old_spec, key), std::string("spec.") + key);
  }
  return errs;
}

ErrorList validate_cron_job_create(const Json& cj) {
  ErrorList errs;
  cron_job_spec(errs, value_at(cj, "spec"), nullptr);
  // The controller appends an 11-character suffix to the Job's name, which is a DNS-1035 label.
  const std::string_view name = string_member(value_at(cj, "metadata"), "name");
  if (name.size() > 52) errs.push_back(invalid("metadata.name", name, "must be no more than 52 characters"));
  return errs;
}

ErrorList validate_cron_job_update(const Json& cj, const Json& old) {
  ErrorList errs;
  const Json& old_spec = value_at(old, "spec");
  cron_job_spec(errs, value_at(cj, "spec"), &old_spec);
  return errs;
}

}  // namespace rr::validation::detail
