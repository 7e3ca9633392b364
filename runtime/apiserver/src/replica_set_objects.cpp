#include "replica_set_objects.hpp"

#include <cmath>
#include <cstdlib>

namespace rr::apiserver_detail {

namespace {

// intstr: a number, or a percentage of `total` rounded up or down.
std::int64_t scaled(const Json& value, std::int64_t total, bool round_up, std::int64_t fallback) {
  if (value.is_number_integer()) return value.get<std::int64_t>();
  if (!value.is_string()) return fallback;
  const std::string text = value.get<std::string>();
  if (text.empty() || text.back() != '%') return fallback;
  const double percent = std::strtod(text.c_str(), nullptr);
  const double exact = percent * static_cast<double>(total) / 100.0;
  return static_cast<std::int64_t>(round_up ? std::ceil(exact) : std::floor(exact));
}

// Annotations a deployment does not hand to its ReplicaSets (skipCopyAnnotation).
bool skip_copy_annotation(const std::string& key) {
  return key == "kubectl.kubernetes.io/last-applied-configuration" || key == revision_annotation ||
         key == "deployment.kubernetes.io/revision-history" || key == desired_replicas_annotation ||
         key == max_replicas_annotation || key == "deprecated.deployment.rollback.to";
}

bool is_empty(const Json& value) {
  return value.is_null() || (value.is_boolean() && !value.get<bool>()) ||
         (value.is_string() && value.get_ref<const std::string&>().empty()) ||
         ((value.is_object() || value.is_array()) && value.empty());
}

Json without_empty(Json value) {
  if (value.is_array()) {
    for (Json& item : value) item = without_empty(std::move(item));
  } else if (value.is_object()) {
    for (auto it = value.begin(); it != value.end();) {
      *it = without_empty(std::move(*it));
      it = is_empty(*it) ? value.erase(it) : std::next(it);
    }
  }
  return value;
}

}  // namespace

std::uint32_t fnv32a(std::string_view text, std::uint32_t hash) {
  for (const char c : text) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 16777619U;
  }
  return hash;
}

std::string safe_encode(std::string_view text) {
  static constexpr std::string_view alphabet = "bcdfghjklmnpqrstvwxz2456789";
  std::string out;
  for (const char c : text) out += alphabet[static_cast<unsigned char>(c) % alphabet.size()];
  return out;
}

std::string pod_template_hash(const Json& pod_template, std::optional<std::uint32_t> collision_count) {
  std::uint32_t hash = fnv32a(template_without_hash(pod_template).dump());
  if (collision_count) {
    std::string bytes;
    for (int shift = 0; shift < 32; shift += 8) bytes += static_cast<char>((*collision_count >> shift) & 0xff);
    hash = fnv32a(bytes, hash);
  }
  return safe_encode(std::to_string(hash));
}

Json template_without_hash(Json pod_template) {
  if (pod_template.contains("/metadata/labels"_json_pointer) && pod_template["metadata"]["labels"].is_object()) {
    pod_template["metadata"]["labels"].erase(pod_template_hash_label);
  }
  return without_empty(std::move(pod_template));
}

Json pod_of_template(const Json& owner) {
  const Json pod_template = owner.contains("/spec/template"_json_pointer) ? owner.at("/spec/template"_json_pointer)
                                                                          : Json::object();
  Json pod = {{"apiVersion", "v1"}, {"kind", "Pod"}, {"metadata", Json::object()}, {"spec", Json::object()}};
  if (!pod_template.is_object()) return pod;
  const Json metadata = pod_template.value("metadata", Json::object());
  if (metadata.is_object()) {
    for (const char* field : {"labels", "annotations", "finalizers"}) {
      if (metadata.contains(field)) pod["metadata"][field] = metadata[field];
    }
  }
  pod["metadata"]["namespace"] = string_at(owner, "/metadata/namespace"_json_pointer);
  if (pod_template.contains("spec")) pod["spec"] = pod_template["spec"];
  return pod;
}

RolloutBounds rollout_bounds(const Json& deployment) {
  if (string_at(deployment, "/spec/strategy/type"_json_pointer, "RollingUpdate") != "RollingUpdate") return {};
  const std::int64_t replicas = int_at(deployment, "/spec/replicas"_json_pointer, 1);
  const Json rolling = deployment.contains("/spec/strategy/rollingUpdate"_json_pointer)
                           ? deployment.at("/spec/strategy/rollingUpdate"_json_pointer)
                           : Json::object();
  const Json surge = rolling.is_object() ? rolling.value("maxSurge", Json("25%")) : Json("25%");
  const Json unavailable = rolling.is_object() ? rolling.value("maxUnavailable", Json("25%")) : Json("25%");
  RolloutBounds bounds{scaled(surge, replicas, true, 0), scaled(unavailable, replicas, false, 0)};
  if (bounds.max_surge == 0 && bounds.max_unavailable == 0) bounds.max_unavailable = 1;
  return bounds;
}

Json new_replica_set(const Json& deployment, const std::string& hash, std::int64_t revision, std::int64_t replicas) {
  const std::string name = string_at(deployment, "/metadata/name"_json_pointer) + "-" + hash;
  Json pod_template = deployment.at("/spec/template"_json_pointer);
  pod_template["metadata"]["labels"][pod_template_hash_label] = hash;
  Json selector = deployment.at("/spec/selector"_json_pointer);
  selector["matchLabels"][pod_template_hash_label] = hash;
  Json annotations = Json::object();
  const Json own = deployment.value("/metadata/annotations"_json_pointer, Json::object());
  if (own.is_object()) {
    for (const auto& [key, value] : own.items()) {
      if (!skip_copy_annotation(key)) annotations[key] = value;
    }
  }
  const std::int64_t desired = int_at(deployment, "/spec/replicas"_json_pointer, 1);
  annotations[revision_annotation] = std::to_string(revision);
  annotations[desired_replicas_annotation] = std::to_string(desired);
  annotations[max_replicas_annotation] = std::to_string(desired + rollout_bounds(deployment).max_surge);
  Json spec = {{"replicas", replicas}, {"selector", selector}, {"template", pod_template}};
  spec["minReadySeconds"] = int_at(deployment, "/spec/minReadySeconds"_json_pointer, 0);
  return {{"apiVersion", "apps/v1"},
          {"kind", "ReplicaSet"},
          {"metadata",
           {{"name", name},
            {"namespace", string_at(deployment, "/metadata/namespace"_json_pointer)},
            {"labels", pod_template["metadata"]["labels"]},
            {"annotations", annotations},
            {"ownerReferences", Json::array({controller_ref(deployment)})}}},
          {"spec", spec}};
}

Json new_replica_set_pod(const Json& replica_set) {
  Json pod = pod_of_template(replica_set);
  pod["metadata"]["generateName"] = string_at(replica_set, "/metadata/name"_json_pointer) + "-";
  pod["metadata"]["ownerReferences"] = Json::array({controller_ref(replica_set)});
  return pod;
}

std::int64_t revision_of_replica_set(const Json& replica_set) {
  const std::string text = string_at(replica_set,
                                     Json::json_pointer("/metadata/annotations/deployment.kubernetes.io~1revision"));
  return text.empty() ? 0 : std::strtoll(text.c_str(), nullptr, 10);
}

}  // namespace rr::apiserver_detail
