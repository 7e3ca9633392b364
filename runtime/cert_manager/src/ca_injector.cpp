// The CA injector's reads and writes of annotations and caBundle fields.
#include "ca_injector.hpp"

namespace rr::cert_manager {

std::optional<InjectionSource> injection_source(const Json& object) {
  const Json* annotations = nullptr;
  if (object.is_object() && object.contains("metadata") && object["metadata"].is_object()) {
    auto it = object["metadata"].find("annotations");
    if (it != object["metadata"].end() && it->is_object()) annotations = &*it;
  }
  if (annotations == nullptr) return std::nullopt;
  InjectionSource source;
  std::string value;
  // cert-manager's order: a Certificate first, then a Secret.
  if (auto it = annotations->find(inject_ca_from_annotation); it != annotations->end() && it->is_string()) {
    value = it->get<std::string>();
  } else if (auto s = annotations->find(inject_ca_from_secret_annotation); s != annotations->end() && s->is_string()) {
    value = s->get<std::string>();
    source.from_secret = true;
  } else {
    return std::nullopt;
  }
  const auto slash = value.find('/');
  if (slash == std::string::npos || slash == 0 || slash + 1 == value.size() ||
      value.find('/', slash + 1) != std::string::npos) {
    return std::nullopt;
  }
  source.namespace_ = value.substr(0, slash);
  source.name = value.substr(slash + 1);
  return source;
}

std::optional<Json> inject_ca_bundle(const Json& object, InjectionTarget target, const std::string& ca_bundle) {
  Json updated = object;
  if (target == InjectionTarget::CustomResourceDefinition) {
    const Json::json_pointer strategy("/spec/conversion/strategy");
    if (!updated.contains(strategy) || updated[strategy] != "Webhook") return std::nullopt;
    Json& conversion = updated["spec"]["conversion"];
    if (!conversion.contains("webhook") || !conversion["webhook"].is_object()) conversion["webhook"] = Json::object();
    Json& client_config = conversion["webhook"]["clientConfig"];
    if (!client_config.is_object()) client_config = Json::object();
    client_config["caBundle"] = ca_bundle;
  } else {
    auto webhooks = updated.find("webhooks");
    if (webhooks == updated.end() || !webhooks->is_array()) return std::nullopt;
    for (auto& webhook : *webhooks) {
      if (!webhook.is_object()) continue;
      Json& client_config = webhook["clientConfig"];
      if (!client_config.is_object()) client_config = Json::object();
      client_config["caBundle"] = ca_bundle;
    }
  }
  if (updated == object) return std::nullopt;
  return updated;
}

}  // namespace rr::cert_manager
