#include "printer_columns.hpp"

#include <cmath>
#include <memory>
#include <optional>

#include "printer_jsonpath.hpp"
#include "rr/core/time.hpp"

namespace rr::apiserver_detail {

namespace {

// metav1.ObjectMeta's documentation of name and creationTimestamp (the Name and Age columns').
constexpr const char* name_description =
    "Name must be unique within a namespace. Is required when creating resources, although some resources may "
    "allow a client to request the generation of an appropriate name automatically. Name is primarily intended "
    "for creation idempotence and configuration definition. Cannot be updated. More info: "
    "https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names";
constexpr const char* creation_description =
    "CreationTimestamp is a timestamp representing the server time when this object was created. It is not "
    "guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It "
    "is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More "
    "info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";

const Json& at(const Json& object, const char* pointer) {
  static const Json null;
  const Json::json_pointer path(pointer);
  return object.contains(path) ? object.at(path) : null;
}

std::string string_at(const Json& object, const char* pointer) {
  const Json& value = at(object, pointer);
  return value.is_string() ? value.get<std::string>() : std::string();
}

std::int64_t int_at(const Json& object, const char* pointer) {
  const Json& value = at(object, pointer);
  return value.is_number() ? value.get<std::int64_t>() : 0;
}

std::string joined(const std::vector<std::string>& parts, const char* separator = ",") {
  std::string out;
  for (const auto& part : parts) {
    if (!out.empty()) out += separator;
    out += part;
  }
  return out;
}

PrinterColumn name_column() {
  return PrinterColumn{.name = "Name",
                       .type = "string",
                       .format = "name",
                       .description = name_description,
                       .cell = [](const Json& object, PrintClock::time_point) -> Json {
                         return string_at(object, "/metadata/name");
                       }};
}

// The built-in printers' Age: the age as text (type string).
PrinterColumn age_column() {
  return PrinterColumn{.name = "Age",
                       .type = "string",
                       .description = creation_description,
                       .cell = [](const Json& object, PrintClock::time_point now) -> Json {
                         return age_of(string_at(object, "/metadata/creationTimestamp"), now);
                       }};
}

PrinterColumn text_column(std::string name, std::string description, std::int64_t priority,
                          std::function<Json(const Json&)> cell) {
  return PrinterColumn{.name = std::move(name),
                       .type = "string",
                       .description = std::move(description),
                       .priority = priority,
                       .cell = [cell = std::move(cell)](const Json& object, PrintClock::time_point) { return cell(object); }};
}

// "app=web,tier=front" from a map of labels (Go's labels.FormatLabels: sorted; "<none>" if empty).
std::string format_labels(const Json& labels) {
  std::vector<std::string> parts;
  if (labels.is_object()) {
    for (const auto& [key, value] : labels.items()) parts.push_back(key + "=" + (value.is_string() ? value.get<std::string>() : value.dump()));
  }
  return parts.empty() ? "<none>" : joined(parts);
}

// metav1.FormatLabelSelector for the matchLabels / matchExpressions of a LabelSelector.
std::string format_selector(const Json& selector) {
  if (!selector.is_object()) return "<none>";
  std::vector<std::string> parts;
  if (auto labels = selector.find("matchLabels"); labels != selector.end() && labels->is_object()) {
    for (const auto& [key, value] : labels->items()) parts.push_back(key + "=" + (value.is_string() ? value.get<std::string>() : value.dump()));
  }
  if (auto expressions = selector.find("matchExpressions"); expressions != selector.end() && expressions->is_array()) {
    for (const Json& e : *expressions) {
      const std::string key = e.value("key", "");
      const std::string op = e.value("operator", "");
      std::vector<std::string> values;
      if (e.contains("values") && e["values"].is_array()) {
        for (const Json& v : e["values"]) values.push_back(v.is_string() ? v.get<std::string>() : v.dump());
      }
      if (op == "In") parts.push_back(key + " in (" + joined(values) + ")");
      else if (op == "NotIn") parts.push_back(key + " notin (" + joined(values) + ")");
      else if (op == "Exists") parts.push_back(key);
      else if (op == "DoesNotExist") parts.push_back("!" + key);
    }
  }
  return parts.empty() ? "<none>" : joined(parts);
}

std::vector<std::string> container_field(const Json& deployment, const char* field) {
  std::vector<std::string> out;
  const Json& containers = at(deployment, "/spec/template/spec/containers");
  if (!containers.is_array()) return out;
  for (const Json& c : containers) out.push_back(c.is_object() ? c.value(field, "") : "");
  return out;
}

std::vector<PrinterColumn> deployment_columns() {
  std::vector<PrinterColumn> columns{name_column()};
  columns.push_back(text_column("Ready", "Number of the pod with ready state", 0, [](const Json& d) -> Json {
    const std::int64_t desired = at(d, "/spec/replicas").is_number() ? int_at(d, "/spec/replicas") : 1;
    return std::to_string(int_at(d, "/status/readyReplicas")) + "/" + std::to_string(desired);
  }));
  columns.push_back(text_column(
      "Up-to-date",
      "Total number of non-terminated pods targeted by this deployment that have the desired template spec.", 0,
      [](const Json& d) -> Json { return int_at(d, "/status/updatedReplicas"); }));
  columns.push_back(text_column(
      "Available", "Total number of available pods (ready for at least minReadySeconds) targeted by this deployment.",
      0, [](const Json& d) -> Json { return int_at(d, "/status/availableReplicas"); }));
  columns.push_back(age_column());
  columns.push_back(text_column("Containers", "Names of each container in the template.", 1,
                                [](const Json& d) -> Json { return joined(container_field(d, "name")); }));
  columns.push_back(text_column("Images", "Images referenced by each container in the template.", 1,
                                [](const Json& d) -> Json { return joined(container_field(d, "image")); }));
  columns.push_back(text_column("Selector", "Label selector for pods.", 1, [](const Json& d) -> Json {
    return format_selector(at(d, "/spec/selector"));
  }));
  return columns;
}

// The kube-apiserver's getServiceExternalIP (without the wide-only details).
std::string service_external_ip(const Json& s) {
  const std::string type = string_at(s, "/spec/type");
  std::vector<std::string> external;
  if (const Json& ips = at(s, "/spec/externalIPs"); ips.is_array()) {
    for (const Json& ip : ips) {
      if (ip.is_string()) external.push_back(ip.get<std::string>());
    }
  }
  if (type == "ExternalName") return string_at(s, "/spec/externalName");
  if (type == "LoadBalancer") {
    std::vector<std::string> ingress;
    if (const Json& list = at(s, "/status/loadBalancer/ingress"); list.is_array()) {
      for (const Json& entry : list) {
        if (!entry.is_object()) continue;
        const std::string ip = entry.value("ip", "");
        const std::string host = entry.value("hostname", "");
        if (!ip.empty()) ingress.push_back(ip);
        else if (!host.empty()) ingress.push_back(host);
      }
    }
    ingress.insert(ingress.end(), external.begin(), external.end());
    return ingress.empty() ? "<pending>" : joined(ingress);
  }
  return external.empty() ? "<none>" : joined(external);
}

// "80/TCP,443:30443/TCP" (printers.MakeServicePortString).
std::string service_ports(const Json& s) {
  std::vector<std::string> parts;
  if (const Json& ports = at(s, "/spec/ports"); ports.is_array()) {
    for (const Json& p : ports) {
      if (!p.is_object()) continue;
      const std::string protocol = p.value("protocol", "TCP");
      const std::string port = std::to_string(int_at(p, "/port"));
      const std::int64_t node_port = int_at(p, "/nodePort");
      parts.push_back(node_port > 0 ? port + ":" + std::to_string(node_port) + "/" + protocol : port + "/" + protocol);
    }
  }
  return parts.empty() ? "<none>" : joined(parts);
}

std::vector<PrinterColumn> service_columns() {
  std::vector<PrinterColumn> columns{name_column()};
  columns.push_back(text_column("Type", "The type of the service.", 0, [](const Json& s) -> Json {
    const std::string type = string_at(s, "/spec/type");
    return type.empty() ? "ClusterIP" : type;
  }));
  columns.push_back(text_column("Cluster-IP", "The cluster IP of the service.", 0, [](const Json& s) -> Json {
    const std::string ip = string_at(s, "/spec/clusterIP");
    return ip.empty() ? "<none>" : ip;
  }));
  columns.push_back(text_column("External-IP", "The external IP of the service.", 0,
                                [](const Json& s) -> Json { return service_external_ip(s); }));
  columns.push_back(text_column("Port(s)", "The ports of the service.", 0,
                                [](const Json& s) -> Json { return service_ports(s); }));
  columns.push_back(age_column());
  columns.push_back(text_column("Selector", "Route service traffic to pods with label keys and values matching this selector.", 1,
                                [](const Json& s) -> Json { return format_labels(at(s, "/spec/selector")); }));
  return columns;
}

// Go's fmt.Sprint of a JSON number: integral floats without a fraction, others in shortest form.
std::string number_text(const Json& value) {
  if (value.is_number_float()) {
    const double d = value.get<double>();
    if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 1e21) return std::to_string(static_cast<long long>(d));
  }
  return value.dump();
}

}  // namespace

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
    if (value.is_string()) return value;
    if (value.is_number()) return number_text(value);
    return value.dump();
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
    columns.push_back(PrinterColumn{.name = "Age",
                                    .type = "date",
                                    .description = creation_description,
                                    .cell = [](const Json& object, PrintClock::time_point now) -> Json {
                                      return cell_for_value("date", at(object, "/metadata/creationTimestamp"), now);
                                    }});
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

std::vector<PrinterColumn> builtin_printer_columns(const GroupVersionKind& gvk) {
  if (gvk.group == "apps" && gvk.kind == "Deployment") return deployment_columns();
  if (gvk.group.empty() && gvk.kind == "Service") return service_columns();
  return {name_column(), age_column()};
}

}  // namespace rr::apiserver_detail
