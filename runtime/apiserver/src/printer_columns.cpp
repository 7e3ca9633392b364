// Durations and ages as Kubernetes prints them, CRD columns, and which column set a built-in kind gets.
#include <cmath>
#include <memory>
#include <optional>

#include "printer_columns_internal.hpp"
#include "printer_jsonpath.hpp"
#include "rr/core/time.hpp"

namespace rr::apiserver_detail {

std::string human_duration(std::chrono::nanoseconds elapsed) {
  using namespace std::chrono;
  const auto seconds = duration_cast<std::chrono::seconds>(elapsed).count();
  if (seconds < -1) return "<invalid>";
  if (seconds < 0) return "0s";
  if (seconds < 60 * 2) return std::to_string(seconds) + "s";
  const auto minutes = seconds / 60;
  if (minutes < 10) {
    const auto s = seconds % 60;
    return std::to_string(minutes) + "m" + (s == 0 ? "" : std::to_string(s) + "s");
  }
  if (minutes < 60 * 3) return std::to_string(minutes) + "m";
  const auto hours = minutes / 60;
  if (hours < 8) {
    const auto m = minutes % 60;
    return std::to_string(hours) + "h" + (m == 0 ? "" : std::to_string(m) + "m");
  }
  if (hours < 48) return std::to_string(hours) + "h";
  if (hours < 24 * 8) {
    const auto h = hours % 24;
    return std::to_string(hours / 24) + "d" + (h == 0 ? "" : std::to_string(h) + "h");
  }
  if (hours < 24 * 365 * 2) return std::to_string(hours / 24) + "d";
  if (hours < 24 * 365 * 8) {
    const auto days = (hours / 24) % 365;
    return std::to_string(hours / 24 / 365) + "y" + (days == 0 ? "" : std::to_string(days) + "d");
  }
  return std::to_string(hours / 24 / 365) + "y";
}

std::string age_of(std::string_view timestamp, PrintClock::time_point now) {
  if (timestamp.empty() || timestamp == "null") return "<unknown>";
  const auto created = Time(std::string(timestamp)).time_point();
  if (!created) return "<invalid>";
  return human_duration(now - *created);
}

Json cell_for_value(std::string_view type, const Json& value, PrintClock::time_point now) {
  if (value.is_null()) return nullptr;
  if (type == "string") {
    // The jsonpath printer's text: strings as they are, other values printed.
    return text_of(value);
  }
  if (type == "integer" && value.is_number()) {
    if (value.is_number_float()) {
      const double d = value.get<double>();
      return std::isfinite(d) && std::fabs(d) < 9.2e18 ? Json(static_cast<std::int64_t>(d)) : Json(nullptr);
    }
    return value;
  }
  if (type == "number" && value.is_number()) return value.get<double>();
  if (type == "boolean" && value.is_boolean()) return value;
  if (type == "date" && value.is_string()) return age_of(value.get<std::string>(), now);
  return nullptr;
}

std::vector<PrinterColumn> crd_printer_columns(const Json& crd, std::string_view version) {
  std::vector<PrinterColumn> columns{name_column()};
  const Json* declared = nullptr;
  if (const Json& versions = at(crd, "/spec/versions"); versions.is_array()) {
    for (const Json& v : versions) {
      if (v.is_object() && v.value("name", "") == version && v.contains("additionalPrinterColumns") &&
          v["additionalPrinterColumns"].is_array() && !v["additionalPrinterColumns"].empty()) {
        declared = &v["additionalPrinterColumns"];
      }
    }
  }
  if (!declared) {
    // serveDefaultColumnsIfEmpty: Age from .metadata.creationTimestamp, type date.
    PrinterColumn age = age_column();
    age.type = "date";
    age.cell = [](const Json& object, PrintClock::time_point now) -> Json {
      return cell_for_value("date", at(object, "/metadata/creationTimestamp"), now);
    };
    columns.push_back(std::move(age));
    return columns;
  }
  for (const Json& c : *declared) {
    if (!c.is_object()) continue;
    PrinterColumn column;
    column.name = c.value("name", "");
    column.type = c.value("type", "");
    column.format = c.value("format", "");
    const std::string json_path = c.value("jsonPath", "");
    column.description = c.value("description", "");
    if (column.description.empty()) {
      column.description = "Custom resource definition column (in JSONPath format): " + json_path;
    }
    column.priority = c.contains("priority") && c["priority"].is_number_integer() ? c["priority"].get<std::int64_t>() : 0;
    auto path = std::make_shared<const std::optional<PrinterJsonPath>>(PrinterJsonPath::parse(json_path));
    column.cell = [path, type = column.type](const Json& object, PrintClock::time_point now) -> Json {
      if (!*path) return nullptr;
      const auto found = (*path)->find(object);
      if (!found || found->empty()) return nullptr;
      return cell_for_value(type, *found->front(), now);
    };
    columns.push_back(std::move(column));
  }
  return columns;
}

namespace {

struct BuiltinPrinter {
  std::string_view group;
  std::string_view kind;
  std::vector<PrinterColumn> (*columns)();
};

// The kinds the kube-apiserver prints with pkg/printers (any version), and those it serves with
// the default table convertor (RBAC roles, CRDs).
constexpr BuiltinPrinter builtin_printers[] = {
    {"", "Pod", pod_columns},
    {"", "Service", service_columns},
    {"", "Endpoints", endpoints_columns},
    {"", "ConfigMap", config_map_columns},
    {"", "Secret", secret_columns},
    {"", "ServiceAccount", service_account_columns},
    {"", "Namespace", namespace_columns},
    {"", "Node", node_columns},
    {"", "PersistentVolume", persistent_volume_columns},
    {"", "PersistentVolumeClaim", persistent_volume_claim_columns},
    {"", "Event", event_columns},
    {"events.k8s.io", "Event", events_v1_event_columns},
    {"apps", "Deployment", deployment_columns},
    {"apps", "StatefulSet", stateful_set_columns},
    {"apps", "DaemonSet", daemon_set_columns},
    {"apps", "ReplicaSet", replica_set_columns},
    {"batch", "Job", job_columns},
    {"batch", "CronJob", cron_job_columns},
    {"networking.k8s.io", "Ingress", ingress_columns},
    {"discovery.k8s.io", "EndpointSlice", endpoint_slice_columns},
    {"coordination.k8s.io", "Lease", lease_columns},
    {"policy", "PodDisruptionBudget", pod_disruption_budget_columns},
    {"rbac.authorization.k8s.io", "RoleBinding", role_binding_columns},
    {"rbac.authorization.k8s.io", "ClusterRoleBinding", role_binding_columns},
    {"rbac.authorization.k8s.io", "Role", default_columns},
    {"rbac.authorization.k8s.io", "ClusterRole", default_columns},
    {"apiextensions.k8s.io", "CustomResourceDefinition", default_columns},
};

}  // namespace

std::vector<PrinterColumn> builtin_printer_columns(const GroupVersionKind& gvk) {
  for (const BuiltinPrinter& printer : builtin_printers) {
    if (printer.group == gvk.group && printer.kind == gvk.kind) return printer.columns();
  }
  // Any other printed kind has at least these two (most have more upstream).
  return {name_column(), age_column()};
}

}  // namespace rr::apiserver_detail
