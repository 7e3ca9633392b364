// apps/v1 Deployment, ReplicaSet, StatefulSet and DaemonSet (pkg/apis/apps/validation and the
// strategies' immutable selector, 1.35), without ObjectMeta. Defaulted members (strategy types,
// rolling-update values, podManagementPolicy) read as their defaults when unset.
#include <string>

#include "rr/validation/label_selector.hpp"
#include "rr/validation/names.hpp"
#include "rr/validation/object_meta.hpp"
#include "workload_common.hpp"
#include "workload_validators.hpp"

namespace rr::validation::detail {
namespace {

// IsValidPercent: [0-9]+%
bool percent(std::string_view s) {
  if (s.size() < 2 || s.back() != '%') return false;
  for (std::size_t i = 0; i + 1 < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
  }
  return true;
}

// getIntOrPercentValue: the number of a percent, the int, or 0 (an unparsable string).
std::int64_t int_or_percent_value(const Json& v) {
  if (v.is_number_integer()) return v.get<std::int64_t>();
  if (v.is_string()) {
    const std::string& s = v.get_ref<const std::string&>();
    if (percent(s)) {
      const std::string digits = s.substr(0, s.size() - 1);
      return digits.size() > 12 ? INT64_MAX : std::stoll(digits);
    }
  }
  return 0;
}

// ValidatePositiveIntOrPercent.
void positive_int_or_percent(ErrorList& errs, const Json& v, const std::string& path) {
  if (v.is_string()) {
    if (!percent(v.get_ref<const std::string&>())) {
      errs.push_back(invalid_json(path, go_json(v),
                                  "a valid percent string must be a numeric string followed by an ending '%' (e.g. "
                                  "'1%',  or '93%', regex used for validation is '[0-9]+%')"));
    }
  } else if (v.is_number_integer() && v.get<std::int64_t>() < 0) {
    errs.push_back(invalid_int(path, v.get<std::int64_t>(), "must be greater than or equal to 0"));
  }
}

// IsNotMoreThan100Percent.
void not_more_than_100_percent(ErrorList& errs, const Json& v, const std::string& path) {
  if (v.is_string() && percent(v.get_ref<const std::string&>()) && int_or_percent_value(v) > 100) {
    errs.push_back(invalid_json(path, go_json(v), "must not be greater than 100%"));
  }
}

// The selector checks Deployment, ReplicaSet and StatefulSet share; returns whether the template
// may be matched (LabelSelectorAsSelector succeeded) and whether the selector selects everything.
struct SelectorOutcome {
  bool convertible = true;
  bool matches = false;
  bool empty = false;
};
SelectorOutcome required_selector(ErrorList& errs, const Json& spec, std::string_view kind_word,
                                  const std::string& invalid_detail) {
  const Json& selector = value_at(spec, "selector");
  SelectorOutcome out;
  if (!selector.is_object()) {
    errs.push_back(required("spec.selector"));
  } else {
    append(errs, validate_label_selector(selector, "spec.selector"));
    if (label_selector_empty(selector)) {
      errs.push_back(invalid_json("spec.selector", label_selector_json(selector),
                                  "empty selector is invalid for " + std::string(kind_word)));
    }
  }
  const auto matches = label_selector_matches(selector,
                                              value_at(value_at(value_at(spec, "template"), "metadata"), "labels"));
  if (!matches) {
    errs.push_back(invalid_json("spec.selector", label_selector_json(selector), invalid_detail));
    out.convertible = false;
    return out;
  }
  out.matches = *matches;
  out.empty = selector.is_object() && label_selector_empty(selector);
  return out;
}

void template_labels_match(ErrorList& errs, const SelectorOutcome& s, const Json& spec) {
  if (!s.empty && !s.matches) {
    errs.push_back(invalid_json("spec.template.metadata.labels", labels_json(value_at(spec, "template")),
                                "`selector` does not match template `labels`"));
  }
}

// What a replicated pod template must be: restartPolicy Always, no activeDeadlineSeconds.
void replicated_template(ErrorList& errs, const Json& spec, std::string_view kind) {
  const Json& pod_spec = value_at(value_at(spec, "template"), "spec");
  const std::string_view restart = restart_policy_of(pod_spec);
  if (restart != "Always") errs.push_back(not_supported("spec.template.spec.restartPolicy", restart, {"Always"}));
  if (is_set(pod_spec, "activeDeadlineSeconds")) {
    errs.push_back(forbidden("spec.template.spec.activeDeadlineSeconds",
                             "activeDeadlineSeconds in " + std::string(kind) + " is not Supported"));
  }
}

// ValidatePodTemplateSpecForReplicaSet (Deployment and ReplicaSet).
void template_for_replica_set(ErrorList& errs, const SelectorOutcome& s, const Json& spec, std::string_view kind) {
  template_labels_match(errs, s, spec);
  append(errs, validate_pod_template_spec(value_at(spec, "template"), "spec.template"));
  replicated_template(errs, spec, kind);
}

// Internal Go structs (no json tags) as encoding/json writes them, for the few findings that show one.
std::string go_struct(std::initializer_list<std::pair<const char*, std::string>> fields) {
  std::string s = "{";
  for (const auto& [name, value] : fields) s += (s.size() > 1 ? "," : "") + go_json_string(name) + ":" + value;
  return s + "}";
}
std::string int_or_string_json(const Json& v) { return v.is_null() ? "0" : go_json(v); }

// An unknown Deployment or DaemonSet strategy type: upstream shows the internal strategy struct
// ({Type, RollingUpdate{MaxUnavailable, MaxSurge}}), which has no json tags.
void unsupported_strategy(ErrorList& errs, const std::string& path, std::string_view type, const Json& rolling,
                          const std::vector<std::string>& supported) {
  std::string rolling_json = "null";
  if (rolling.is_object()) {
    rolling_json = go_struct({{"MaxUnavailable", int_or_string_json(value_at(rolling, "maxUnavailable"))},
                              {"MaxSurge", int_or_string_json(value_at(rolling, "maxSurge"))}});
  }
  errs.push_back(not_supported_json(path, go_struct({{"Type", go_json_string(type)}, {"RollingUpdate", rolling_json}}),
                                    supported));
}

void deployment_strategy(ErrorList& errs, const Json& spec) {
  const Json& strategy = value_at(spec, "strategy");
  std::string_view type = string_member(strategy, "type");
  if (type.empty()) type = "RollingUpdate";
  const Json& rolling = value_at(strategy, "rollingUpdate");
  if (type == "Recreate") {
    if (!rolling.is_null()) {
      errs.push_back(
          forbidden("spec.strategy.rollingUpdate", "may not be specified when strategy `type` is 'Recreate'"));
    }
  } else if (type == "RollingUpdate") {
    // Unset values default to 25% each.
    const Json unavailable = rolling.is_object() && is_set(rolling, "maxUnavailable")
                                 ? value_at(rolling, "maxUnavailable")
                                 : Json("25%");
    const Json surge = rolling.is_object() && is_set(rolling, "maxSurge") ? value_at(rolling, "maxSurge") : Json("25%");
    positive_int_or_percent(errs, unavailable, "spec.strategy.rollingUpdate.maxUnavailable");
    positive_int_or_percent(errs, surge, "spec.strategy.rollingUpdate.maxSurge");
    if (int_or_percent_value(unavailable) == 0 && int_or_percent_value(surge) == 0) {
      errs.push_back(invalid_json("spec.strategy.rollingUpdate.maxUnavailable", go_json(unavailable),
                                  "may not be 0 when `maxSurge` is 0"));
    }
    not_more_than_100_percent(errs, unavailable, "spec.strategy.rollingUpdate.maxUnavailable");
  } else {
    unsupported_strategy(errs, "spec.strategy", type, rolling, {"Recreate", "RollingUpdate"});
  }
}

ErrorList deployment_spec(const Json& d) {
  ErrorList errs;
  const Json& spec = value_at(d, "spec");
  nonnegative(errs, spec, "replicas", "spec.replicas");
  const SelectorOutcome s = required_selector(errs, spec, "deployment", "invalid label selector");
  if (s.convertible) template_for_replica_set(errs, s, spec, "ReplicaSet");
  deployment_strategy(errs, spec);
  const std::int64_t min_ready = int_member(spec, "minReadySeconds").value_or(0);
  nonnegative(errs, spec, "minReadySeconds", "spec.minReadySeconds");
  nonnegative(errs, spec, "revisionHistoryLimit", "spec.revisionHistoryLimit");
  if (const Json& rollback = value_at(spec, "rollbackTo"); rollback.is_object()) {
    nonnegative(errs, rollback, "revision", "spec.rollback.version");
  }
  if (const auto deadline = int_member(spec, "progressDeadlineSeconds")) {
    nonnegative(errs, spec, "progressDeadlineSeconds", "spec.progressDeadlineSeconds");
    if (*deadline <= min_ready) {
      errs.push_back(invalid_int("spec.progressDeadlineSeconds", *deadline, "must be greater than minReadySeconds"));
    }
  }
  return errs;
}

ErrorList replica_set_spec(const Json& rs) {
  ErrorList errs;
  const Json& spec = value_at(rs, "spec");
  nonnegative(errs, spec, "replicas", "spec.replicas");
  nonnegative(errs, spec, "minReadySeconds", "spec.minReadySeconds");
  // Upstream's ReplicaSet validation says "deployment" here.
  const SelectorOutcome s = required_selector(errs, spec, "deployment", "invalid label selector");
  if (s.convertible) template_for_replica_set(errs, s, spec, "ReplicaSet");
  return errs;
}

void retention_type(ErrorList& errs, const Json& policy, const char* key, const std::string& path) {
  const Json& v = value_at(policy, key);
  if (v.is_null()) return;  // defaulted to Retain
  const std::string_view type = v.is_string() ? std::string_view(v.get_ref<const std::string&>()) : std::string_view();
  if (type != "Retain" && type != "Delete") errs.push_back(not_supported(path, type, {"Retain", "Delete"}));
}

// The internal RollingUpdateStatefulSetStrategy as encoding/json writes it.
std::string stateful_rolling_json(const Json& rolling) {
  const Json& max = value_at(rolling, "maxUnavailable");
  return go_struct({{"Partition", std::to_string(int_member(rolling, "partition").value_or(0))},
                    {"MaxUnavailable", max.is_null() ? "null" : go_json(max)}});
}

ErrorList stateful_set_spec(const Json& ss) {
  ErrorList errs;
  const Json& spec = value_at(ss, "spec");
  const std::string_view policy = string_member(spec, "podManagementPolicy");
  if (!policy.empty() && policy != "OrderedReady" && policy != "Parallel") {
    errs.push_back(invalid("spec.podManagementPolicy", policy, "must be 'OrderedReady' or 'Parallel'"));
  }
  const Json& strategy = value_at(spec, "updateStrategy");
  const std::string_view type = string_member(strategy, "type");
  const Json& rolling = value_at(strategy, "rollingUpdate");
  if (type == "OnDelete") {
    if (!rolling.is_null()) {
      errs.push_back(invalid_json("spec.updateStrategy.rollingUpdate", stateful_rolling_json(rolling),
                                  "only allowed for updateStrategy 'RollingUpdate'"));
    }
  } else if (type.empty() || type == "RollingUpdate") {
    if (rolling.is_object()) {
      nonnegative(errs, rolling, "partition", "spec.updateStrategy.rollingUpdate.partition");
      if (const Json& max = value_at(rolling, "maxUnavailable"); !max.is_null()) {
        const std::string path = "spec.updateStrategy.rollingUpdate.maxUnavailable";
        positive_int_or_percent(errs, max, path);
        if (int_or_percent_value(max) == 0) errs.push_back(invalid_json(path, go_json(max), "cannot be 0"));
        not_more_than_100_percent(errs, max, path);
      }
    }
  } else {
    const std::string rolling_json = rolling.is_object() ? stateful_rolling_json(rolling) : "null";
    errs.push_back(invalid_json("spec.updateStrategy",
                                go_struct({{"Type", go_json_string(type)}, {"RollingUpdate", rolling_json}}),
                                "must be 'RollingUpdate' or 'OnDelete'"));
  }
  if (const Json& retention = value_at(spec, "persistentVolumeClaimRetentionPolicy"); retention.is_object()) {
    retention_type(errs, retention, "whenDeleted", "spec.persistentVolumeClaimRetentionPolicy.whenDeleted");
    retention_type(errs, retention, "whenScaled", "spec.persistentVolumeClaimRetentionPolicy.whenScaled");
  }
  nonnegative(errs, spec, "replicas", "spec.replicas");
  nonnegative(errs, spec, "minReadySeconds", "spec.minReadySeconds");
  if (const Json& ordinals = value_at(spec, "ordinals"); ordinals.is_object()) {
    nonnegative(errs, ordinals, "start", "spec.ordinals.start");
  }
  const SelectorOutcome s = required_selector(errs, spec, "statefulset", "");
  if (s.convertible) {
    // ValidatePodTemplateSpecForStatefulSet checks the labels and annotations, not the pod spec.
    template_labels_match(errs, s, spec);
    const Json& meta = value_at(value_at(spec, "template"), "metadata");
    append(errs, validate_labels(value_at(meta, "labels"), "spec.template.labels"));
    append(errs, validate_annotations(value_at(meta, "annotations"), "spec.template.annotations"));
  }
  replicated_template(errs, spec, "StatefulSet");
  return errs;
}

void daemon_set_strategy(ErrorList& errs, const Json& spec) {
  const Json& strategy = value_at(spec, "updateStrategy");
  std::string_view type = string_member(strategy, "type");
  if (type.empty()) type = "RollingUpdate";
  if (type == "OnDelete") return;
  if (type != "RollingUpdate") {
    unsupported_strategy(errs, "spec.updateStrategy", type, value_at(strategy, "rollingUpdate"),
                         {"RollingUpdate", "OnDelete"});
    return;
  }
  // Defaults: maxUnavailable 1, maxSurge 0.
  const Json& rolling = value_at(strategy, "rollingUpdate");
  const Json unavailable = is_set(rolling, "maxUnavailable") ? value_at(rolling, "maxUnavailable") : Json(1);
  const Json surge = is_set(rolling, "maxSurge") ? value_at(rolling, "maxSurge") : Json(0);
  const std::string base = "spec.updateStrategy.rollingUpdate";
  positive_int_or_percent(errs, unavailable, base + ".maxUnavailable");
  positive_int_or_percent(errs, surge, base + ".maxSurge");
  not_more_than_100_percent(errs, unavailable, base + ".maxUnavailable");
  not_more_than_100_percent(errs, surge, base + ".maxSurge");
  const bool has_unavailable = int_or_percent_value(unavailable) != 0;
  const bool has_surge = int_or_percent_value(surge) != 0;
  if (has_unavailable && has_surge) {
    errs.push_back(invalid_json(base + ".maxSurge", go_json(surge), "may not be set when maxUnavailable is non-zero"));
  } else if (!has_unavailable && !has_surge) {
    errs.push_back(required(base + ".maxUnavailable", "cannot be 0 when maxSurge is 0"));
  }
}

ErrorList daemon_set_spec(const Json& ds) {
  ErrorList errs;
  const Json& spec = value_at(ds, "spec");
  const Json& selector = value_at(spec, "selector");
  append(errs, validate_label_selector(selector, "spec.selector"));
  const auto matches = label_selector_matches(selector,
                                              value_at(value_at(value_at(spec, "template"), "metadata"), "labels"));
  if (matches && !*matches) {
    errs.push_back(invalid_json("spec.template.metadata.labels", labels_json(value_at(spec, "template")),
                                "`selector` does not match template `labels`"));
  }
  if (selector.is_object() && label_selector_empty(selector)) {
    errs.push_back(
        invalid_json("spec.selector", label_selector_json(selector), "empty selector is invalid for daemonset"));
  }
  append(errs, validate_pod_template_spec(value_at(spec, "template"), "spec.template"));
  replicated_template(errs, spec, "DaemonSet");
  nonnegative(errs, spec, "minReadySeconds", "spec.minReadySeconds");
  daemon_set_strategy(errs, spec);
  nonnegative(errs, spec, "revisionHistoryLimit", "spec.revisionHistoryLimit");
  return errs;
}

// The frozen part of a StatefulSet spec as the stored one looks after defaulting, then compared
// with Go's semantic equality (null, empty lists and maps equal absent).
void comparable_stateful_set_spec(Json& spec) {
  if (!is_set(spec, "podManagementPolicy")) spec["podManagementPolicy"] = "OrderedReady";
  if (auto it = spec.find("volumeClaimTemplates"); it != spec.end() && it->is_array()) {
    for (Json& claim : *it) {
      if (!claim.is_object()) continue;
      claim.erase("apiVersion");
      claim.erase("kind");
      Json& claim_spec = claim["spec"];
      if (claim_spec.is_object() && !is_set(claim_spec, "volumeMode")) claim_spec["volumeMode"] = "Filesystem";
      Json& status = claim["status"];
      if (status.is_null()) status = Json::object();
      if (status.is_object() && !is_set(status, "phase")) status["phase"] = "Pending";
    }
  }
  drop_empty(spec);
}

void immutable_selector(ErrorList& errs, const Json& now, const Json& old) {
  const Json& a = value_at(value_at(now, "spec"), "selector");
  const Json& b = value_at(value_at(old, "spec"), "selector");
  Json na = a;
  Json nb = b;
  // Semantic equality: an empty matchLabels equals an absent one.
  for (Json* s : {&na, &nb}) {
    if (!s->is_object()) continue;
    for (const char* key : {"matchLabels", "matchExpressions"}) {
      if (auto it = s->find(key); it != s->end() && (it->is_null() || it->empty())) s->erase(it);
    }
  }
  if (na != nb) errs.push_back(invalid_json("spec.selector", label_selector_json(a), "field is immutable"));
}

}  // namespace

ErrorList validate_deployment_create(const Json& d) { return deployment_spec(d); }
ErrorList validate_deployment_update(const Json& d, const Json& old) {
  ErrorList errs = deployment_spec(d);
  immutable_selector(errs, d, old);
  return errs;
}

ErrorList validate_replica_set_create(const Json& rs) { return replica_set_spec(rs); }
ErrorList validate_replica_set_update(const Json& rs, const Json& old) {
  ErrorList errs = replica_set_spec(rs);
  immutable_selector(errs, rs, old);
  return errs;
}

ErrorList validate_stateful_set_create(const Json& ss) { return stateful_set_spec(ss); }
ErrorList validate_stateful_set_update(const Json& ss, const Json& old) {
  ErrorList errs = stateful_set_spec(ss);
  // Everything but the listed members is frozen (serviceName, selector, volumeClaimTemplates, ...).
  Json now = value_at(ss, "spec");
  Json before = value_at(old, "spec");
  for (Json* s : {&now, &before}) {
    if (!s->is_object()) *s = Json::object();
    for (const char* key : {"replicas", "ordinals", "template", "updateStrategy", "revisionHistoryLimit",
                            "persistentVolumeClaimRetentionPolicy", "minReadySeconds"}) {
      s->erase(key);
    }
    comparable_stateful_set_spec(*s);
  }
  if (now != before) {
    errs.push_back(forbidden("spec",
                             "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', "
                             "'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and "
                             "'minReadySeconds' are forbidden"));
  }
  return errs;
}

ErrorList validate_daemon_set_create(const Json& ds) { return daemon_set_spec(ds); }
ErrorList validate_daemon_set_update(const Json& ds, const Json& old) {
  // apps/v1 has no templateGeneration: the strategy maintains the internal one, so its update
  // rules cannot fail for a v1 client.
  ErrorList errs = daemon_set_spec(ds);
  immutable_selector(errs, ds, old);
  return errs;
}

}  // namespace rr::validation::detail
