#include <algorithm>
#include <cmath>

#include "printer_columns_internal.hpp"
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

std::vector<std::string> container_field(const Json& object, const std::string& pod_spec, const char* field) {
  std::vector<std::string> out;
  const Json& containers = at(object, pod_spec + "/containers");
  if (!containers.is_array()) return out;
  for (const Json& c : containers) out.push_back(c.is_object() ? c.value(field, "") : "");
  return out;
}

}  // namespace

const Json& at(const Json& object, const std::string& pointer) {
  static const Json null;
  const Json::json_pointer path(pointer);
  return object.contains(path) ? object.at(path) : null;
}

std::string string_at(const Json& object, const std::string& pointer) {
  const Json& value = at(object, pointer);
  return value.is_string() ? value.get<std::string>() : std::string();
}

std::int64_t int_at(const Json& object, const std::string& pointer) { return int_or(object, pointer, 0); }

std::int64_t int_or(const Json& object, const std::string& pointer, std::int64_t fallback) {
  const Json& value = at(object, pointer);
  if (value.is_number_integer()) return value.get<std::int64_t>();
  // A float only when it fits: the cast of one out of range is undefined.
  if (value.is_number_float() && std::fabs(value.get<double>()) < 9.2e18) {
    return static_cast<std::int64_t>(value.get<double>());
  }
  return fallback;
}

std::string string_or(const Json& object, const std::string& pointer, std::string fallback) {
  const Json& value = at(object, pointer);
  return value.is_string() && !value.get<std::string>().empty() ? value.get<std::string>() : fallback;
}

bool is_set(const Json& object, const std::string& pointer) { return !at(object, pointer).is_null(); }

std::size_t size_at(const Json& object, const std::string& pointer) {
  const Json& value = at(object, pointer);
  return value.is_array() || value.is_object() ? value.size() : 0;
}

std::optional<PrintClock::time_point> time_at(const Json& object, const std::string& pointer) {
  const std::string text = string_at(object, pointer);
  if (text.empty()) return std::nullopt;
  return Time(text).time_point();
}

std::string text_of(const Json& value) {
  if (value.is_null()) return "";
  if (value.is_string()) return value.get<std::string>();
  if (value.is_number_float()) {
    const double d = value.get<double>();
    if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 1e21) return std::to_string(static_cast<long long>(d));
  }
  return value.dump();
}

std::string joined(const std::vector<std::string>& parts, const char* separator) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) out += (i ? separator : "") + parts[i];
  return out;
}

std::string list_with_more(const std::vector<std::string>& shown, std::size_t count, std::size_t max) {
  if (count > max) return joined(shown) + " + " + std::to_string(count - max) + " more...";
  return shown.empty() ? "<unset>" : joined(shown);
}

std::string condition_status(const Json& object, const std::string& pointer, std::string_view type) {
  const Json& conditions = at(object, pointer);
  if (!conditions.is_array()) return "";
  for (const Json& c : conditions) {
    if (c.is_object() && c.value("type", "") == type) return c.value("status", "");
  }
  return "";
}

PrinterColumn column(std::string name, std::string type, std::string description, std::int64_t priority,
                     TimedCell cell) {
  return PrinterColumn{.name = std::move(name),
                       .type = std::move(type),
                       .description = std::move(description),
                       .priority = priority,
                       .cell = std::move(cell)};
}

PrinterColumn typed_column(std::string name, std::string type, std::string description, std::int64_t priority,
                           Cell cell) {
  return column(std::move(name), std::move(type), std::move(description), priority,
                [cell = std::move(cell)](const Json& object, PrintClock::time_point) { return cell(object); });
}

PrinterColumn text_column(std::string name, std::string description, std::int64_t priority, Cell cell) {
  return typed_column(std::move(name), "string", std::move(description), priority, std::move(cell));
}

PrinterColumn int_column(std::string name, std::string type, std::string description, std::string pointer) {
  return typed_column(std::move(name), std::move(type), std::move(description), 0,
                      [pointer = std::move(pointer)](const Json& object) -> Json { return int_at(object, pointer); });
}

PrinterColumn name_column(std::int64_t priority) {
  PrinterColumn name = text_column("Name", name_description, priority,
                                   [](const Json& object) -> Json { return string_at(object, "/metadata/name"); });
  name.format = "name";
  return name;
}

PrinterColumn age_column() {
  return column("Age", "string", creation_description, 0, [](const Json& object, PrintClock::time_point now) -> Json {
    return age_at(object, "/metadata/creationTimestamp", now);
  });
}

std::vector<PrinterColumn> default_columns() {
  return {name_column(), typed_column("Created At", "date", creation_description, 0, [](const Json& object) -> Json {
            // Go formats the zero time when there is none.
            const auto created = time_at(object, "/metadata/creationTimestamp");
            return created ? Time::from(*created).str() : "0001-01-01T00:00:00Z";
          })};
}

std::string age_at(const Json& object, const std::string& pointer, PrintClock::time_point now) {
  return age_of(string_at(object, pointer), now);
}

std::string format_labels(const Json& labels) {
  std::vector<std::string> parts;
  if (labels.is_object()) {
    for (const auto& [key, value] : labels.items()) parts.push_back(key + "=" + text_of(value));
  }
  return parts.empty() ? "<none>" : joined(parts);
}

std::string selector_string(const Json& selector) {
  if (!selector.is_object()) return "";
  std::vector<std::pair<std::string, std::string>> requirements;  // key, text
  if (const Json& labels = at(selector, "/matchLabels"); labels.is_object()) {
    for (const auto& [key, value] : labels.items()) requirements.emplace_back(key, key + "=" + text_of(value));
  }
  if (const Json& expressions = at(selector, "/matchExpressions"); expressions.is_array()) {
    for (const Json& e : expressions) {
      const std::string key = string_at(e, "/key");
      const std::string op = string_at(e, "/operator");
      std::vector<std::string> values;
      if (const Json& list = at(e, "/values"); list.is_array()) {
        for (const Json& v : list) values.push_back(text_of(v));
      }
      std::sort(values.begin(), values.end());
      if (op == "In") requirements.emplace_back(key, key + " in (" + joined(values) + ")");
      else if (op == "NotIn") requirements.emplace_back(key, key + " notin (" + joined(values) + ")");
      else if (op == "Exists") requirements.emplace_back(key, key);
      else if (op == "DoesNotExist") requirements.emplace_back(key, "!" + key);
    }
  }
  std::stable_sort(requirements.begin(), requirements.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> parts;
  for (auto& r : requirements) parts.push_back(std::move(r.second));
  return joined(parts);
}

std::string format_selector(const Json& selector) {
  std::string text = selector_string(selector);
  return text.empty() ? "<none>" : text;
}

void add_template_columns(std::vector<PrinterColumn>& columns, const std::string& pod_spec, const std::string& selector,
                          bool raw_selector) {
  columns.push_back(
      text_column("Containers", "Names of each container in the template.", 1,
                  [pod_spec](const Json& o) -> Json { return joined(container_field(o, pod_spec, "name")); }));
  columns.push_back(
      text_column("Images", "Images referenced by each container in the template.", 1,
                  [pod_spec](const Json& o) -> Json { return joined(container_field(o, pod_spec, "image")); }));
  if (selector.empty()) return;
  columns.push_back(
      text_column("Selector", "Label selector for pods.", 1, [selector, raw_selector](const Json& o) -> Json {
        return raw_selector ? selector_string(at(o, selector)) : format_selector(at(o, selector));
      }));
}

}  // namespace rr::apiserver_detail
