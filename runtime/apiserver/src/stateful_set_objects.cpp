#include "stateful_set_objects.hpp"

#include <algorithm>

namespace rr::apiserver_detail {

namespace {

Json object_at(const Json& object, const Json::json_pointer& at) {
  return object.contains(at) && object.at(at).is_object() ? object.at(at) : Json::object();
}

Json array_at(const Json& object, const Json::json_pointer& at) {
  return object.contains(at) && object.at(at).is_array() ? object.at(at) : Json::array();
}

std::string claim_name(const Json& claim_template, const std::string& pod) {
  return string_at(claim_template, "/metadata/name"_json_pointer) + "-" + pod;
}

}  // namespace

StatefulSetView view_stateful_set(const Json& set) {
  StatefulSetView v;
  v.set = set;
  v.name = string_at(set, "/metadata/name"_json_pointer);
  v.namespace_ = string_at(set, "/metadata/namespace"_json_pointer);
  v.replicas = std::max<std::int64_t>(0, int_at(set, "/spec/replicas"_json_pointer, 1));
  v.start = std::max<std::int64_t>(0, int_at(set, "/spec/ordinals/start"_json_pointer, 0));
  v.parallel = string_at(set, "/spec/podManagementPolicy"_json_pointer) == "Parallel";
  v.rolling = string_at(set, "/spec/updateStrategy/type"_json_pointer, "RollingUpdate") == "RollingUpdate";
  v.partition = int_at(set, "/spec/updateStrategy/rollingUpdate/partition"_json_pointer, 0);
  v.delete_when_scaled = string_at(set, "/spec/persistentVolumeClaimRetentionPolicy/whenScaled"_json_pointer) ==
                         "Delete";
  v.delete_when_deleted = string_at(set, "/spec/persistentVolumeClaimRetentionPolicy/whenDeleted"_json_pointer) ==
                          "Delete";
  // Any stable hash of the template will do; the controller's own also folds in collisionCount.
  v.update_revision = v.name + "-" + safe_suffix(stable_hash(object_at(set, "/spec/template"_json_pointer).dump()), 10);
  return v;
}

std::string pod_name(const StatefulSetView& set, std::int64_t ordinal) {
  return set.name + "-" + std::to_string(ordinal);
}

std::int64_t ordinal_of(const StatefulSetView& set, const Json& pod) {
  const std::string name = string_at(pod, "/metadata/name"_json_pointer);
  const std::string prefix = set.name + "-";
  if (name.size() <= prefix.size() || name.size() > prefix.size() + 9 || name.compare(0, prefix.size(), prefix) != 0) {
    return -1;
  }
  const std::string digits = name.substr(prefix.size());
  if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) return -1;
  if (digits.size() > 1 && digits[0] == '0') return -1;  // web-01 is no ordinal of web
  return std::stoll(digits);
}

std::string revision_of(const Json& pod) {
  return string_at(pod, Json::json_pointer("/metadata/labels/controller-revision-hash"));
}

Json new_stateful_pod(const StatefulSetView& set, std::int64_t ordinal) {
  const Json tmpl = object_at(set.set, "/spec/template"_json_pointer);
  const std::string name = pod_name(set, ordinal);
  Json labels = object_at(tmpl, "/metadata/labels"_json_pointer);
  labels["statefulset.kubernetes.io/pod-name"] = name;
  labels["apps.kubernetes.io/pod-index"] = std::to_string(ordinal);
  labels["controller-revision-hash"] = set.update_revision;
  Json metadata = {{"name", name},
                   {"namespace", set.namespace_},
                   {"generateName", set.name + "-"},
                   {"labels", std::move(labels)},
                   {"ownerReferences", Json::array({controller_ref(set.set)})}};
  const Json annotations = object_at(tmpl, "/metadata/annotations"_json_pointer);
  if (!annotations.empty()) metadata["annotations"] = annotations;

  Json spec = object_at(tmpl, "/spec"_json_pointer);
  spec["hostname"] = name;
  const std::string service = string_at(set.set, "/spec/serviceName"_json_pointer);
  if (!service.empty()) spec["subdomain"] = service;
  // Claim volumes first, then the template's own volumes not named like a claim (updateStorage).
  Json volumes = Json::array();
  const Json claims = array_at(set.set, "/spec/volumeClaimTemplates"_json_pointer);
  for (const Json& claim : claims) {
    volumes.push_back({{"name", string_at(claim, "/metadata/name"_json_pointer)},
                       {"persistentVolumeClaim", {{"claimName", claim_name(claim, name)}}}});
  }
  for (const Json& volume : array_at(spec, "/volumes"_json_pointer)) {
    const bool shadowed = std::any_of(claims.begin(), claims.end(), [&](const Json& claim) {
      return string_at(claim, "/metadata/name"_json_pointer) == volume.value("name", "");
    });
    if (!shadowed) volumes.push_back(volume);
  }
  if (!volumes.empty()) spec["volumes"] = std::move(volumes);
  return Json{{"apiVersion", "v1"}, {"kind", "Pod"}, {"metadata", std::move(metadata)}, {"spec", std::move(spec)}};
}

std::vector<Json> new_claims(const StatefulSetView& set, std::int64_t ordinal) {
  std::vector<Json> claims;
  const Json match_labels = object_at(set.set, "/spec/selector/matchLabels"_json_pointer);
  for (const Json& tmpl : array_at(set.set, "/spec/volumeClaimTemplates"_json_pointer)) {
    Json labels = object_at(tmpl, "/metadata/labels"_json_pointer);
    for (const auto& [key, value] : match_labels.items()) labels[key] = value;
    Json metadata = {{"name", claim_name(tmpl, pod_name(set, ordinal))}, {"namespace", set.namespace_}};
    if (!labels.empty()) metadata["labels"] = std::move(labels);
    const Json annotations = object_at(tmpl, "/metadata/annotations"_json_pointer);
    if (!annotations.empty()) metadata["annotations"] = annotations;
    Json claim = {{"apiVersion", "v1"},
                  {"kind", "PersistentVolumeClaim"},
                  {"metadata", std::move(metadata)},
                  {"spec", object_at(tmpl, "/spec"_json_pointer)}};
    const Json refs = claim_owner_refs(set, claim, nullptr);
    if (!refs.empty()) claim["metadata"]["ownerReferences"] = refs;
    claims.push_back(std::move(claim));
  }
  return claims;
}

Json claim_owner_refs(const StatefulSetView& set, const Json& claim, const Json* condemned_pod) {
  const std::string set_uid = string_at(set.set, "/metadata/uid"_json_pointer);
  Json refs = Json::array();
  // Ours are the set's and any pod's of this set; another owner's references stay.
  for (const Json& ref : array_at(claim, "/metadata/ownerReferences"_json_pointer)) {
    const bool ours = ref.value("uid", "") == set_uid ||
                      (ref.value("kind", "") == "Pod" && ref.value("name", "").starts_with(set.name + "-"));
    if (!ours) refs.push_back(ref);
  }
  if (condemned_pod && set.delete_when_scaled) {
    refs.push_back(controller_ref(*condemned_pod));
  } else if (set.delete_when_deleted) {
    refs.push_back(controller_ref(set.set));
  }
  return refs;
}

Json bound_claim_status(const Json& claim) {
  Json status = {{"phase", "Bound"}};
  const Json modes = array_at(claim, "/spec/accessModes"_json_pointer);
  if (!modes.empty()) status["accessModes"] = modes;
  const Json requests = object_at(claim, "/spec/resources/requests"_json_pointer);
  if (requests.contains("storage")) status["capacity"] = {{"storage", requests["storage"]}};
  return status;
}

}  // namespace rr::apiserver_detail
