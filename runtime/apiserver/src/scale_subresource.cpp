#include "scale_subresource.hpp"

namespace rr::apiserver_detail {

namespace {

// ".spec.replicas" -> "/spec/replicas"; nullopt for anything but dot-separated member names.
std::optional<Json::json_pointer> pointer_of(const std::string& json_path) {
  if (json_path.size() < 2 || json_path.front() != '.') return std::nullopt;
  std::string pointer;
  for (char c : json_path) {
    if (c == '[' || c == ']' || c == '*' || c == '~' || c == '/') return std::nullopt;
    pointer += c == '.' ? '/' : c;
  }
  if (pointer.find("//") != std::string::npos || pointer.back() == '/') return std::nullopt;
  return Json::json_pointer(pointer);
}

std::string joined(const Json& values) {
  std::string out;
  if (!values.is_array()) return out;
  for (const Json& v : values) {
    if (!v.is_string()) continue;
    if (!out.empty()) out += ",";
    out += v.get<std::string>();
  }
  return out;
}

}  // namespace

std::optional<ScalePaths> crd_scale_paths(const Json& crd, const std::string& version) {
  const Json::json_pointer versions_at("/spec/versions");
  if (!crd.contains(versions_at) || !crd.at(versions_at).is_array()) return std::nullopt;
  for (const Json& v : crd.at(versions_at)) {
    if (!v.is_object() || v.value("name", std::string()) != version) continue;
    const Json::json_pointer scale_at("/subresources/scale");
    if (!v.contains(scale_at) || !v.at(scale_at).is_object()) return std::nullopt;
    const Json& scale = v.at(scale_at);
    auto spec = pointer_of(scale.value("specReplicasPath", std::string()));
    auto status = pointer_of(scale.value("statusReplicasPath", std::string()));
    if (!spec || !status) return std::nullopt;
    ScalePaths paths{
        .spec_replicas = *spec, .status_replicas = *status, .selector_string = std::nullopt, .builtin = false};
    if (auto selector = scale.find("labelSelectorPath"); selector != scale.end() && selector->is_string()) {
      paths.selector_string = pointer_of(selector->get<std::string>());
    }
    return paths;
  }
  return std::nullopt;
}

std::string format_label_selector(const Json& selector) {
  if (!selector.is_object()) return "";
  std::string out;
  auto add = [&](const std::string& term) { out += (out.empty() ? "" : ",") + term; };
  const bool map_selector = !selector.contains("matchLabels") && !selector.contains("matchExpressions");
  const Json& labels = map_selector ? selector : selector.value("matchLabels", Json::object());
  if (labels.is_object()) {
    for (const auto& [key, value] : labels.items()) {  // nlohmann's object is ordered by key
      if (value.is_string()) add(key + "=" + value.get<std::string>());
    }
  }
  if (!map_selector && selector.contains("matchExpressions") && selector["matchExpressions"].is_array()) {
    for (const Json& e : selector["matchExpressions"]) {
      const std::string key = e.value("key", std::string());
      const std::string op = e.value("operator", std::string());
      const std::string values = joined(e.value("values", Json::array()));
      if (op == "In") add(key + " in (" + values + ")");
      else if (op == "NotIn") add(key + " notin (" + values + ")");
      else if (op == "Exists") add(key);
      else if (op == "DoesNotExist") add("!" + key);
    }
  }
  return out;
}

Json scale_of(const Json& object, const ScalePaths& paths) {
  const Json& meta = object.contains("metadata") ? object["metadata"] : Json::object();
  Json metadata = Json::object();
  for (const char* key : {"name", "namespace", "uid", "resourceVersion", "creationTimestamp"}) {
    if (meta.contains(key)) metadata[key] = meta[key];
  }
  auto integer_at = [&](const Json::json_pointer& at) -> std::int64_t {
    return object.contains(at) && object.at(at).is_number_integer() ? object.at(at).get<std::int64_t>() : 0;
  };
  Json status = {{"replicas", integer_at(paths.status_replicas)}};
  std::string selector;
  if (paths.builtin) {
    const Json::json_pointer at("/spec/selector");
    if (object.contains(at)) selector = format_label_selector(object.at(at));
  } else if (paths.selector_string && object.contains(*paths.selector_string) &&
             object.at(*paths.selector_string).is_string()) {
    selector = object.at(*paths.selector_string).get<std::string>();
  }
  if (!selector.empty()) status["selector"] = selector;
  Json spec = Json::object();
  if (const auto replicas = integer_at(paths.spec_replicas); replicas != 0) spec["replicas"] = replicas;
  return Json{
      {"kind", "Scale"}, {"apiVersion", "autoscaling/v1"}, {"metadata", metadata}, {"spec", spec}, {"status", status}};
}

}  // namespace rr::apiserver_detail
