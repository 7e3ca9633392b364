#include "table.hpp"

namespace rr::apiserver_detail {

namespace {

std::string_view trimmed(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

// Splits on `separator`, trimming each part.
std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  while (true) {
    const std::size_t at = text.find(separator);
    parts.push_back(trimmed(text.substr(0, at)));
    if (at == std::string_view::npos) return parts;
    text.remove_prefix(at + 1);
  }
}

bool is_list(const Json& object) {
  const auto kind = object.find("kind");
  const auto items = object.find("items");
  if (kind == object.end() || !kind->is_string() || items == object.end() || !items->is_array()) return false;
  const std::string& name = kind->get_ref<const std::string&>();
  return name.size() > 4 && name.compare(name.size() - 4, 4, "List") == 0;
}

Json row_object(const Json& object, const TableOptions& options) {
  switch (options.include) {
    case IncludeObject::None:
      return nullptr;
    case IncludeObject::Object:
      return object;
    case IncludeObject::Metadata:
      break;
  }
  const auto metadata = object.find("metadata");
  return Json{{"kind", "PartialObjectMetadata"},
              {"apiVersion", "meta.k8s.io/" + options.version},
              {"metadata", metadata != object.end() && metadata->is_object() ? *metadata : Json::object()}};
}

Json row_of(const std::vector<PrinterColumn>& columns, const Json& object, const TableOptions& options,
            PrintClock::time_point now) {
  Json cells = Json::array();
  for (const PrinterColumn& column : columns) cells.push_back(column.cell ? column.cell(object, now) : Json(nullptr));
  return Json{{"cells", std::move(cells)}, {"object", row_object(object, options)}};
}

}  // namespace

std::optional<std::string> table_version_accepted(std::string_view accept) {
  for (std::string_view range : split(accept, ',')) {
    const std::vector<std::string_view> parts = split(range, ';');
    const std::string_view media = parts.front();
    if (media == "*/*" || media == "application/*") return std::nullopt;
    if (media != "application/json") continue;
    std::string_view as, version, group;
    for (std::size_t i = 1; i < parts.size(); ++i) {
      const std::size_t eq = parts[i].find('=');
      if (eq == std::string_view::npos) continue;
      const std::string_view key = trimmed(parts[i].substr(0, eq));
      const std::string_view value = trimmed(parts[i].substr(eq + 1));
      if (key == "as") as = value;
      if (key == "v") version = value;
      if (key == "g") group = value;
    }
    if (as.empty()) return std::nullopt;  // plain JSON comes first
    if (as == "Table" && group == "meta.k8s.io" && (version == "v1" || version == "v1beta1")) {
      return std::string(version);
    }
  }
  return std::nullopt;
}

std::optional<IncludeObject> parse_include_object(std::string_view value) {
  if (value.empty() || value == "Metadata") return IncludeObject::Metadata;
  if (value == "None") return IncludeObject::None;
  if (value == "Object") return IncludeObject::Object;
  return std::nullopt;
}

Json make_table(const std::vector<PrinterColumn>& columns, const Json& object_or_list, const TableOptions& options,
                PrintClock::time_point now) {
  Json table{{"kind", "Table"}, {"apiVersion", "meta.k8s.io/" + options.version}, {"metadata", Json::object()}};
  if (options.headers) {
    Json definitions = Json::array();
    for (const PrinterColumn& c : columns) {
      definitions.push_back({{"name", c.name},
                             {"type", c.type},
                             {"format", c.format},
                             {"description", c.description},
                             {"priority", c.priority}});
    }
    table["columnDefinitions"] = std::move(definitions);
  }
  Json rows = Json::array();
  const auto metadata = object_or_list.find("metadata");
  const bool has_metadata = metadata != object_or_list.end() && metadata->is_object();
  if (is_list(object_or_list)) {
    if (has_metadata) {
      for (const char* key : {"resourceVersion", "continue", "remainingItemCount"}) {
        auto it = metadata->find(key);
        if (it != metadata->end() && !it->is_null() && *it != "") table["metadata"][key] = *it;
      }
    }
    for (const Json& item : object_or_list["items"]) rows.push_back(row_of(columns, item, options, now));
  } else {
    if (has_metadata) {
      auto rv = metadata->find("resourceVersion");
      if (rv != metadata->end() && rv->is_string() && !rv->get_ref<const std::string&>().empty()) {
        table["metadata"]["resourceVersion"] = *rv;
      }
    }
    rows.push_back(row_of(columns, object_or_list, options, now));
  }
  table["rows"] = std::move(rows);
  return table;
}

}  // namespace rr::apiserver_detail
