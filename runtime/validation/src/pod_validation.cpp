// core/v1 Pod and PodTemplate: ValidatePodCreate, ValidatePodUpdate, ValidatePodTemplate(Update)
// (pkg/apis/core/validation, 1.35), without ObjectMeta (validated before, by the caller).
#include <algorithm>
#include <set>

#include "pod_parts.hpp"
#include "workload_validators.hpp"

namespace rr::validation::detail {
namespace {

bool outer_space(std::string_view s) {
  const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; };
  return !s.empty() && (space(s.front()) || space(s.back()));
}

// validateContainersOnlyForPod: a Pod's images (not a template's) may not carry outer whitespace.
void images_without_space(ErrorList& errs, const Json& list, const std::string& path) {
  if (!list.is_array()) return;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string_view image = string_member(list[i], "image");
    if (outer_space(image)) {
      errs.push_back(invalid(child(index(path, i), "image"), image, "must not have leading or trailing whitespace"));
    }
  }
}

// ValidatePodSpecificAnnotations: the mirror-pod annotation needs a node, the deletion cost an int32.
void pod_annotations(ErrorList& errs, const Json& pod) {
  const Json& annotations = value_at(value_at(pod, "metadata"), "annotations");
  if (!annotations.is_object()) return;
  const std::string path = "metadata.annotations";
  if (const Json* mirror = member(annotations, "kubernetes.io/config.mirror"); mirror && mirror->is_string()) {
    if (string_member(value_at(pod, "spec"), "nodeName").empty()) {
      errs.push_back(invalid(path + "[kubernetes.io/config.mirror]", mirror->get<std::string>(),
                             "must set spec.nodeName if mirror pod annotation is set"));
    }
  }
  if (const Json* cost = member(annotations, "controller.kubernetes.io/pod-deletion-cost"); cost && cost->is_string()) {
    const std::string& text = cost->get_ref<const std::string&>();
    // strconv.ParseInt(text, 10, 32): optional sign, decimal digits, within int32.
    bool ok = !text.empty();
    std::size_t start = (ok && (text[0] == '+' || text[0] == '-')) ? 1 : 0;
    ok = ok && start < text.size() && text.size() - start <= 10 &&
         std::all_of(text.begin() + static_cast<std::ptrdiff_t>(start), text.end(),
                     [](char c) { return c >= '0' && c <= '9'; });
    if (ok) {
      const long long v = std::stoll(text);
      ok = v >= -2147483648LL && v <= 2147483647LL;
    }
    if (!ok)
      errs.push_back(invalid(path + "[controller.kubernetes.io/pod-deletion-cost]", text, "must be a 32bit integer"));
  }
}

// validatePodMetadataAndSpec without ObjectMeta.
ErrorList pod_metadata_and_spec(const Json& pod) {
  ErrorList errs;
  pod_annotations(errs, pod);
  const Json& spec = value_at(pod, "spec");
  PodSpecContext context;
  context.pod_name = string_member(value_at(pod, "metadata"), "name");
  append(errs, validate_pod_spec(spec, "spec", context));
  images_without_space(errs, value_at(spec, "containers"), "spec.containers");
  images_without_space(errs, value_at(spec, "initContainers"), "spec.initContainers");
  return errs;
}

// ValidateContainerUpdates: same count; images required and without outer whitespace.
bool container_updates(ErrorList& errs, const Json& now, const Json& old, const std::string& path) {
  const std::size_t n = now.is_array() ? now.size() : 0;
  const std::size_t o = old.is_array() ? old.size() : 0;
  if (n != o) {
    errs.push_back(forbidden(path, "pod updates may not add or remove containers"));
    return true;
  }
  for (std::size_t i = 0; i < n; ++i) {
    const std::string_view image = string_member(now[i], "image");
    if (image.empty()) errs.push_back(required(child(index(path, i), "image")));
    if (outer_space(image)) {
      errs.push_back(invalid(child(index(path, i), "image"), image, "must not have leading or trailing whitespace"));
    }
  }
  return false;
}

// The defaults the API server gives a pod spec, so that a spec sent without them compares equal to
// the stored one (compared with Go's semantic equality, drop_empty).
void set_default(Json& object, const char* key, Json value) {
  auto it = object.find(key);
  if (it == object.end() || it->is_null() || (it->is_string() && it->get_ref<const std::string&>().empty())) {
    object[key] = std::move(value);
  }
}
// SetDefaults_Container's pull policy: Always for an untagged or :latest image, else IfNotPresent.
std::string pull_policy_of(std::string_view image) {
  if (image.find('@') != std::string_view::npos) return "IfNotPresent";
  const std::size_t slash = image.rfind('/');
  const std::size_t colon = image.rfind(':');
  const bool tagged = colon != std::string_view::npos && (slash == std::string_view::npos || colon > slash);
  return !tagged || image.substr(colon + 1) == "latest" ? "Always" : "IfNotPresent";
}

Json with_defaults(Json spec) {
  if (!spec.is_object()) return Json::object();
  set_default(spec, "restartPolicy", "Always");
  set_default(spec, "dnsPolicy", "ClusterFirst");
  set_default(spec, "schedulerName", "default-scheduler");
  set_default(spec, "terminationGracePeriodSeconds", 30);
  set_default(spec, "enableServiceLinks", true);
  for (const char* list : {"initContainers", "containers"}) {
    auto it = spec.find(list);
    if (it == spec.end() || !it->is_array()) continue;
    for (Json& c : *it) {
      if (!c.is_object()) continue;
      set_default(c, "terminationMessagePath", "/dev/termination-log");
      set_default(c, "terminationMessagePolicy", "File");
      if (const Json& image = value_at(c, "image"); image.is_string()) {
        set_default(c, "imagePullPolicy", pull_policy_of(image.get_ref<const std::string&>()));
      }
      if (auto ports = c.find("ports"); ports != c.end() && ports->is_array()) {
        for (Json& p : *ports) {
          if (p.is_object()) set_default(p, "protocol", "TCP");
        }
      }
    }
  }
  return spec;
}

const char* const kPodUpdateMessage =
    "pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,"
    "`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),"
    "`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)";

// validateOnlyAddedTolerations: every old toleration stays, tolerationSeconds aside.
bool only_added_tolerations(ErrorList& errs, const Json& now, const Json& old) {
  if (!old.is_array()) return true;
  for (const Json& o : old) {
    Json want = o;
    bool found = false;
    if (now.is_array()) {
      for (const Json& n : now) {
        if (want.is_object()) {
          want.erase("tolerationSeconds");
          if (n.is_object() && n.contains("tolerationSeconds")) want["tolerationSeconds"] = n["tolerationSeconds"];
        }
        Json a = want;
        Json b = n;
        drop_empty(a);
        drop_empty(b);
        if (a == b) {
          found = true;
          break;
        }
      }
    }
    if (!found) {
      errs.push_back(
          forbidden("spec.tolerations", "existing toleration can not be modified except its tolerationSeconds"));
      return false;
    }
  }
  return true;
}

std::string changed_members(const Json& old_spec, const Json& new_spec) {
  std::set<std::string> keys;
  for (const Json* s : {&old_spec, &new_spec}) {
    for (const auto& [k, v] : s->items()) keys.insert(k);
  }
  std::string out;
  for (const std::string& k : keys) {
    const Json* a = member(old_spec, k);
    const Json* b = member(new_spec, k);
    if (!a || !b || *a != *b) out += (out.empty() ? "" : ", ") + k;
  }
  return out;
}

}  // namespace

ErrorList validate_pod_create(const Json& pod) {
  ErrorList errs = pod_metadata_and_spec(pod);
  const Json& spec = value_at(pod, "spec");
  if (list_size(spec, "ephemeralContainers") > 0) {
    errs.push_back(forbidden("spec.ephemeralContainers", "cannot be set on create"));
  }
  if (!string_member(spec, "nodeName").empty() && list_size(spec, "schedulingGates") != 0) {
    errs.push_back(forbidden("spec.nodeName", "cannot be set until all schedulingGates have been cleared"));
  }
  return errs;
}

ErrorList validate_pod_update(const Json& pod, const Json& old_pod) {
  ErrorList errs = pod_metadata_and_spec(pod);
  const Json& spec = value_at(pod, "spec");
  const Json& old_spec = value_at(old_pod, "spec");
  if (container_updates(errs, value_at(spec, "containers"), value_at(old_spec, "containers"), "spec.containers"))
    return errs;
  if (container_updates(errs, value_at(spec, "initContainers"), value_at(old_spec, "initContainers"),
                        "spec.initContainers")) {
    return errs;
  }
  const auto deadline = int_member(spec, "activeDeadlineSeconds");
  const auto old_deadline = int_member(old_spec, "activeDeadlineSeconds");
  if (deadline) {
    if (*deadline < 0 || *deadline > 2147483647) {
      errs.push_back(
          invalid_int("spec.activeDeadlineSeconds", *deadline, "must be between 0 and 2147483647, inclusive"));
      return errs;
    }
    if (old_deadline && *old_deadline < *deadline) {
      errs.push_back(
          invalid_int("spec.activeDeadlineSeconds", *deadline, "must be less than or equal to previous value"));
      return errs;
    }
  } else if (old_deadline) {
    errs.push_back(
        invalid_json("spec.activeDeadlineSeconds", "null", "must not update from a positive integer to nil value"));
  }
  if (only_added_tolerations(errs, value_at(spec, "tolerations"), value_at(old_spec, "tolerations"))) {
    // ValidateTolerations runs a second time on the new list, as upstream does.
    validate_tolerations(errs, value_at(spec, "tolerations"), "spec.tolerations");
  }
  if (const Json& gates = value_at(spec, "schedulingGates"); gates.is_array() && !gates.empty()) {
    std::set<std::string, std::less<>> before;
    if (const Json& old_gates = value_at(old_spec, "schedulingGates"); old_gates.is_array()) {
      for (const Json& g : old_gates) before.insert(std::string(string_member(g, "name")));
    }
    for (std::size_t i = 0; i < gates.size(); ++i) {
      const std::string_view name = string_member(gates[i], "name");
      if (before.contains(name)) continue;
      errs.push_back(forbidden(child(index("spec.schedulingGates", i), "name"),
                               "only deletion is allowed, but found new scheduling gate '" + std::string(name) + "'"));
    }
  }
  // What may change is copied from the old spec; anything else that differs is refused.
  // Defaults first (a pull policy follows the image it was defaulted from), then the munging.
  Json munged = with_defaults(spec);
  for (const char* list : {"containers", "initContainers"}) {
    Json& now = munged[list];
    const Json& before = value_at(old_spec, list);
    if (!now.is_array()) continue;
    for (std::size_t i = 0; i < now.size() && before.is_array() && i < before.size(); ++i) {
      if (now[i].is_object()) now[i]["image"] = value_at(before[i], "image");
    }
  }
  for (const char* key : {"activeDeadlineSeconds", "schedulingGates", "tolerations"})
    munged[key] = value_at(old_spec, key);
  const auto old_grace = int_member(old_spec, "terminationGracePeriodSeconds");
  if (old_grace && *old_grace < 0 && int_member(munged, "terminationGracePeriodSeconds") == 1) {
    munged["terminationGracePeriodSeconds"] = *old_grace;
  }
  Json a = std::move(munged);
  Json b = with_defaults(old_spec);
  drop_empty(a);
  drop_empty(b);
  if (a != b) {
    // Upstream appends a go-cmp diff, whose text is not stable by design; the changed members stand in.
    errs.push_back(forbidden("spec", std::string(kPodUpdateMessage) + "\n  changed: " + changed_members(b, a)));
  }
  return errs;
}

// ValidateReplicationControllerSpec: an unset selector is defaulted to the template's labels.
ErrorList validate_replication_controller(const Json& rc) {
  ErrorList errs;
  const Json& spec = value_at(rc, "spec");
  nonnegative(errs, spec, "minReadySeconds", "spec.minReadySeconds");
  const Json& template_spec = value_at(spec, "template");
  const Json& template_labels = value_at(value_at(template_spec, "metadata"), "labels");
  const Json& given = value_at(spec, "selector");
  const Json& selector = given.is_object() && !given.empty() ? given : template_labels;
  const bool empty = !selector.is_object() || selector.empty();
  if (empty) errs.push_back(required("spec.selector"));
  nonnegative(errs, spec, "replicas", "spec.replicas");
  if (!template_spec.is_object()) {
    errs.push_back(required("spec.template"));
    return errs;
  }
  if (!empty) {
    bool matches = true;
    for (const auto& [key, value] : selector.items()) {
      const Json* have = member(template_labels, key);
      matches = matches && have && *have == value;
    }
    if (!matches) {
      errs.push_back(invalid_json("spec.template.metadata.labels", labels_json(template_spec),
                                  "`selector` does not match template `labels`"));
    }
  }
  append(errs, validate_pod_template_spec(template_spec, "spec.template"));
  const std::string_view restart = restart_policy_of(value_at(template_spec, "spec"));
  if (restart != "Always") errs.push_back(not_supported("spec.template.spec.restartPolicy", restart, {"Always"}));
  if (is_set(value_at(template_spec, "spec"), "activeDeadlineSeconds")) {
    errs.push_back(forbidden("spec.template.spec.activeDeadlineSeconds",
                             "activeDeadlineSeconds in ReplicationController is not Supported"));
  }
  return errs;
}

ErrorList validate_replication_controller_update(const Json& rc, const Json& /*old*/) {
  return validate_replication_controller(rc);
}

ErrorList validate_pod_template(const Json& pod_template) {
  return validate_pod_template_spec(value_at(pod_template, "template"), "template");
}

ErrorList validate_pod_template_update(const Json& pod_template, const Json& /*old*/) {
  return validate_pod_template(pod_template);
}

}  // namespace rr::validation::detail
