#include "service_endpoints.hpp"

#include "rr/node/node_agent.hpp"

namespace rr::apiserver_detail {

namespace {

const GroupVersionKind pod_gvk{"", "v1", "Pod"};

bool selects(const Json& selector, const Json& pod) {
  const Json labels = pod.value("/metadata/labels"_json_pointer, Json::object());
  for (const auto& [key, value] : selector.items()) {
    const auto label = labels.find(key);
    if (label == labels.end() || *label != value) return false;
  }
  return true;
}

bool runs_on_node(const Json& pod) {
  for (const Json& finalizer : pod.value("/metadata/finalizers"_json_pointer, Json::array())) {
    if (finalizer == node::node_agent_finalizer) return true;
  }
  return false;
}

bool ready(const Json& pod) {
  if (pod.contains("/metadata/deletionTimestamp"_json_pointer)) return false;
  if (pod.value("/status/podIP"_json_pointer, std::string()).empty()) return false;
  for (const Json& condition : pod.value("/status/conditions"_json_pointer, Json::array())) {
    if (condition.value("type", "") == "Ready") return condition.value("status", "") == "True";
  }
  return false;
}

// A named targetPort is the pod's container port of that name (each pod may number it differently).
std::optional<int> container_port(const Json& pod, const std::string& name) {
  for (const Json& container : pod.value("/spec/containers"_json_pointer, Json::array())) {
    for (const Json& port : container.value("ports", Json::array())) {
      if (port.value("name", "") == name && port.value("containerPort", Json()).is_number_integer()) {
        return port["containerPort"].get<int>();
      }
    }
  }
  return std::nullopt;
}

}  // namespace

ServiceTarget resolve_service_target(const Json& service, int port, const StoreReader& store) {
  const std::string name = service.value("/metadata/name"_json_pointer, std::string());
  const std::string ns = service.value("/metadata/namespace"_json_pointer, std::string());
  std::optional<Json> entry;
  for (const Json& candidate : service.value("/spec/ports"_json_pointer, Json::array())) {
    if (candidate.is_object() && candidate.value("port", 0) == port) {
      entry = candidate;
      break;
    }
  }
  if (!entry) {
    throw ServiceUnavailable("no service port " + std::to_string(port) + " found for service \"" + name + "\"");
  }
  const Json target = entry->value("targetPort", Json(port));

  const Json selector = service.value("/spec/selector"_json_pointer, Json::object());
  bool agent_backed = false;
  if (selector.is_object() && !selector.empty()) {
    for (const Json* pod : store.all(pod_gvk)) {
      if (pod->value("/metadata/namespace"_json_pointer, std::string()) != ns || !selects(selector, *pod) ||
          !runs_on_node(*pod)) {
        continue;
      }
      agent_backed = true;
      if (!ready(*pod)) continue;
      std::optional<int> pod_port;
      if (target.is_number_integer()) pod_port = target.get<int>();
      if (target.is_string()) pod_port = container_port(*pod, target.get<std::string>());
      if (!pod_port) continue;  // no such named port in this pod: not an endpoint
      return {pod->value("/status/podIP"_json_pointer, std::string()), *pod_port};
    }
  }
  if (agent_backed) throw ServiceUnavailable("no endpoints available for service \"" + name + "\"");
  return {"127.0.0.1", target.is_number_integer() ? target.get<int>() : port};
}

}  // namespace rr::apiserver_detail
