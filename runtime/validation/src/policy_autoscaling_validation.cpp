// policy/v1 PodDisruptionBudget (pkg/apis/policy/validation) and autoscaling/v2
// HorizontalPodAutoscaler (pkg/apis/autoscaling/validation).
#include <algorithm>
#include <string>

#include "core_kinds.hpp"
#include "kind_util.hpp"
#include "rr/core/quantity.hpp"
#include "rr/validation/label_selector.hpp"
#include "rr/validation/names.hpp"

namespace rr::validation::detail {
namespace {

const std::string kPdbPercentMessage =
    "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for "
    "validation is '[0-9]+%')";

bool pdb_is_percent(std::string_view s) {
  if (s.size() < 2 || s.back() != '%') return false;
  for (char c : s.substr(0, s.size() - 1)) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

bool pdb_percent_over_100(std::string_view s) {
  std::int64_t n = 0;
  for (char c : s.substr(0, s.size() - 1)) {
    n = n * 10 + (c - '0');
    if (n > 100) return true;
  }
  return false;
}

// apps validation's ValidatePositiveIntOrPercent and IsNotMoreThan100Percent of an IntOrString.
void pdb_int_or_percent(ErrorList& errs, const Json& v, const std::string& path) {
  if (v.is_string()) {
    const std::string& s = v.get_ref<const std::string&>();
    if (!pdb_is_percent(s)) {
      errs.push_back(invalid_json(path, go_json(v), kPdbPercentMessage));
    } else if (pdb_percent_over_100(s)) {
      errs.push_back(invalid_json(path, go_json(v), "must not be greater than 100%"));
    }
  } else if (v.is_number_integer() && v.get<std::int64_t>() < 0) {
    errs.push_back(invalid_int(path, v.get<std::int64_t>(), "must be greater than or equal to 0"));
  }
}

// json.Marshal of the internal policy.PodDisruptionBudgetSpec (Go field names, no omitempty).
std::string pdb_spec_json(const Json& spec) {
  const auto or_null = [&](const char* k) { return go_json(value_at(spec, k)); };
  const Json& selector = value_at(spec, "selector");
  return "{\"MinAvailable\":" + or_null("minAvailable") +
         ",\"Selector\":" + (selector.is_object() ? label_selector_json(selector) : std::string("null")) +
         ",\"MaxUnavailable\":" + or_null("maxUnavailable") +
         ",\"UnhealthyPodEvictionPolicy\":" + or_null("unhealthyPodEvictionPolicy") + "}";
}

bool positive_quantity(const Json& q) {
  std::optional<std::int64_t> m;
  if (q.is_string()) m = Quantity(q.get<std::string>()).milli_value();
  if (q.is_number()) m = Quantity::from_number(q.dump()).milli_value();
  return !m || *m > 0;  // an unparsable quantity is the decoder's to refuse
}

void metric_target(ErrorList& errs, const Json& target, const std::string& path) {
  const std::string_view type = string_member(target, "type");
  if (type.empty()) errs.push_back(required(child(path, "type"), "must specify a metric target type"));
  if (type != "Utilization" && type != "Value" && type != "AverageValue") {
    errs.push_back(
        typed(invalid(child(path, "type"), type, "must be either Utilization, Value, or AverageValue"), type));
  }
  for (const char* f : {"value", "averageValue"}) {
    const Json* q = member(target, f);
    if (q && !q->is_null() && !positive_quantity(*q)) {
      errs.push_back(invalid_json(child(path, f), go_json_string(q->is_string() ? q->get<std::string>() : q->dump()),
                                  "must be positive"));
    }
  }
  if (auto u = int_at(target, "averageUtilization"); u && *u < 1) {
    errs.push_back(invalid_int(child(path, "averageUtilization"), *u, "must be greater than 0"));
  }
}

void metric_identifier(ErrorList& errs, const Json& id, const std::string& path) {
  const std::string_view name = string_member(id, "name");
  if (name.empty()) {
    errs.push_back(required(child(path, "name"), "must specify a metric name"));
  } else {
    invalid_each(errs, child(path, "name"), name, is_valid_path_segment_name(name));
  }
}

void metric_source(ErrorList& errs, std::string_view kind, const Json& src, const std::string& path) {
  const Json& target = value_at(src, "target");
  const std::string target_path = child(path, "target");
  if (kind == "resource" || kind == "containerResource") {
    if (string_member(src, "name").empty())
      errs.push_back(required(child(path, "name"), "must specify a resource name"));
    if (kind == "containerResource") {
      const std::string_view container = string_member(src, "container");
      if (container.empty()) {
        errs.push_back(required(child(path, "container"), "must specify a container"));
      } else {
        invalid_each(errs, child(path, "container"), container, is_dns1123_label(container));
      }
    }
    metric_target(errs, target, target_path);
    const bool utilization = is_set(target, "averageUtilization");
    const bool average = is_set(target, "averageValue");
    if (!utilization && !average) {
      errs.push_back(required(child(target_path, "averageUtilization"),
                              "must set either a target raw value or a target utilization"));
    }
    if (utilization && average) {
      errs.push_back(forbidden(child(target_path, "averageValue"),
                               "may not set both a target raw value and a target utilization"));
    }
    return;
  }
  if (kind == "object") kind_and_name(errs, value_at(src, "describedObject"), child(path, "describedObject"));
  metric_identifier(errs, value_at(src, "metric"), child(path, "metric"));
  metric_target(errs, target, target_path);
  const bool value = is_set(target, "value");
  const bool average = is_set(target, "averageValue");
  if (kind == "object" && !value && !average) {
    errs.push_back(required(child(target_path, "averageValue"), "must set either a target value or averageValue"));
  } else if (kind == "external") {
    if (!value && !average) {
      errs.push_back(required(child(target_path, "averageValue"),
                              "must set either a target value for metric or a per-pod target"));
    }
    if (value && average) {
      errs.push_back(
          forbidden(child(target_path, "value"), "may not set both a target value for metric and a per-pod target"));
    }
  } else if (kind == "pods" && !average) {
    errs.push_back(required(child(target_path, "averageValue"), "must specify a positive target averageValue"));
  }
}

void metric_spec(ErrorList& errs, const Json& m, const std::string& path) {
  static const std::vector<std::string> kTypes{"ContainerResource", "External", "Object", "Pods", "Resource"};
  const std::string_view type = string_member(m, "type");
  if (type.empty()) errs.push_back(required(child(path, "type"), "must specify a metric source type"));
  const bool known = std::find(kTypes.begin(), kTypes.end(), type) != kTypes.end();
  if (!known) errs.push_back(typed(not_supported(child(path, "type"), type, kTypes), type));
  // Only the first source present is validated; the others are reported as extra.
  std::vector<std::string> present;
  for (const char* source : {"object", "external", "pods", "resource", "containerResource"}) {
    if (const Json* s = object_at(m, source)) {
      present.emplace_back(source);
      if (present.size() == 1) metric_source(errs, source, *s, child(path, source));
    }
  }
  std::string expected;
  if (known) {
    expected = std::string(type);
    expected[0] = static_cast<char>(expected[0] - 'A' +
                                    'a');  // Object -> object, ContainerResource -> containerResource
    if (std::find(present.begin(), present.end(), expected) == present.end()) {
      errs.push_back(required(child(path, expected), "must populate information for the given metric source"));
    }
  } else {
    errs.push_back(typed(not_supported(child(path, "type"), type, kTypes), type));
  }
  if (present.size() != 1) {
    // sets.String ranges in map order; listed here in sorted order.
    std::sort(present.begin(), present.end());
    for (const std::string& p : present) {
      if (p != expected) errs.push_back(forbidden(child(path, p), "must populate the given metric source only"));
    }
  }
}

void scaling_rules(ErrorList& errs, const Json& rules, const std::string& path) {
  constexpr std::int64_t kMaxStabilizationWindowSeconds = 3600;
  constexpr std::int64_t kMaxPeriodSeconds = 1800;
  if (auto w = int_at(rules, "stabilizationWindowSeconds")) {
    if (*w < 0)
      errs.push_back(
          invalid_int(child(path, "stabilizationWindowSeconds"), *w, "must be greater than or equal to zero"));
    if (*w > kMaxStabilizationWindowSeconds) {
      errs.push_back(invalid_int(child(path, "stabilizationWindowSeconds"), *w,
                                 "must be less than or equal to " + std::to_string(kMaxStabilizationWindowSeconds)));
    }
  }
  if (const Json* select = member(rules, "selectPolicy"); select && select->is_string()) {
    const std::string& s = select->get_ref<const std::string&>();
    if (s != "Max" && s != "Min" && s != "Disabled") {
      errs.push_back(typed(not_supported(child(path, "selectPolicy"), s, {"Disabled", "Max", "Min"}), s));
    }
  }
  const std::string policies_path = child(path, "policies");
  if (size_at(rules, "policies") == 0) errs.push_back(required(policies_path, "must specify at least one Policy"));
  if (const Json* policies = array_at(rules, "policies")) {
    for (std::size_t i = 0; i < policies->size(); ++i) {
      const Json& p = (*policies)[i];
      const std::string at = index(policies_path, i);
      const std::string_view type = string_member(p, "type");
      if (type != "Pods" && type != "Percent")
        errs.push_back(typed(not_supported(child(at, "type"), type, {"Percent", "Pods"}), type));
      const std::int64_t value = int_at(p, "value").value_or(0);
      if (value <= 0) errs.push_back(invalid_int(child(at, "value"), value, "must be greater than zero"));
      const std::int64_t period = int_at(p, "periodSeconds").value_or(0);
      if (period <= 0) errs.push_back(invalid_int(child(at, "periodSeconds"), period, "must be greater than zero"));
      if (period > kMaxPeriodSeconds) {
        errs.push_back(invalid_int(child(at, "periodSeconds"), period,
                                   "must be less than or equal to " + std::to_string(kMaxPeriodSeconds)));
      }
    }
  }
}

ErrorList hpa_spec(const Json& spec, std::int64_t min_lower_bound) {
  ErrorList errs;
  const auto min = int_at(spec, "minReplicas");
  const std::int64_t max = int_at(spec, "maxReplicas").value_or(0);
  if (min && *min < min_lower_bound) {
    errs.push_back(
        invalid_int("spec.minReplicas", *min, "must be greater than or equal to " + std::to_string(min_lower_bound)));
  }
  if (max < 1) errs.push_back(invalid_int("spec.maxReplicas", max, "must be greater than 0"));
  if (min && max < *min)
    errs.push_back(invalid_int("spec.maxReplicas", max, "must be greater than or equal to `minReplicas`"));
  kind_and_name(errs, value_at(spec, "scaleTargetRef"), "spec.scaleTargetRef");
  bool object_or_external = false;
  if (const Json* metrics = array_at(spec, "metrics")) {
    for (std::size_t i = 0; i < metrics->size(); ++i) {
      metric_spec(errs, (*metrics)[i], index("spec.metrics", i));
      const std::string_view type = string_member((*metrics)[i], "type");
      object_or_external = object_or_external || type == "Object" || type == "External";
    }
  }
  if (min && *min == 0 && !object_or_external) {
    errs.push_back(forbidden(
        "spec.metrics", "must specify at least one Object or External metric to support scaling to zero replicas"));
  }
  if (const Json* behavior = object_at(spec, "behavior")) {
    for (const char* direction : {"scaleUp", "scaleDown"}) {
      if (const Json* rules = object_at(*behavior, direction))
        scaling_rules(errs, *rules, child("spec.behavior", direction));
    }
  }
  return errs;
}

}  // namespace

ErrorList validate_pdb(const Json& pdb) {
  ErrorList errs;
  const Json& spec = value_at(pdb, "spec");
  const bool min_set = is_set(spec, "minAvailable");
  const bool max_set = is_set(spec, "maxUnavailable");
  if (min_set && max_set)
    errs.push_back(invalid_json("spec", pdb_spec_json(spec), "minAvailable and maxUnavailable cannot be both set"));
  if (min_set) pdb_int_or_percent(errs, value_at(spec, "minAvailable"), "spec.minAvailable");
  if (max_set) pdb_int_or_percent(errs, value_at(spec, "maxUnavailable"), "spec.maxUnavailable");
  append(errs, validate_label_selector(value_at(spec, "selector"), "spec.selector"));
  if (const Json* policy = member(spec, "unhealthyPodEvictionPolicy"); policy && policy->is_string()) {
    const std::string& p = policy->get_ref<const std::string&>();
    if (p != "IfHealthyBudget" && p != "AlwaysAllow") {
      errs.push_back(typed(not_supported("spec.unhealthyPodEvictionPolicy", p, {"AlwaysAllow", "IfHealthyBudget"}), p));
    }
  }
  return errs;
}
ErrorList validate_pdb_update(const Json& pdb, const Json&) { return validate_pdb(pdb); }

// minReplicas 0 needs HPAScaleToZero (alpha, off) unless the stored object already has it.
ErrorList validate_hpa(const Json& hpa) { return hpa_spec(value_at(hpa, "spec"), 1); }
ErrorList validate_hpa_update(const Json& hpa, const Json& old) {
  const bool old_zero = int_at(value_at(old, "spec"), "minReplicas") == std::optional<std::int64_t>(0);
  return hpa_spec(value_at(hpa, "spec"), old_zero ? 0 : 1);
}

}  // namespace rr::validation::detail
