#include "table.hpp"

#include "media_negotiation.hpp"

namespace rr::apiserver_detail {

namespace {

Json row_object(const Json& object, const TableOptions& options) {
  switch (options.include) {
    case IncludeObject::None:
      return nullptr;
    case IncludeObject::Object:
      return object;
    case IncludeObject::Metadata:
      break;
  }
  return as_partial_object_metadata(object, options.version);
}

Json row_of(const std::vector<PrinterColumn>& columns, const Json& object, const TableOptions& options,
            PrintClock::time_point now) {
  Json cells = Json::array();
  for (const PrinterColumn& column : columns) cells.push_back(column.cell ? column.cell(object, now) : Json(nullptr));
  return Json{{"cells", std::move(cells)}, {"object", row_object(object, options)}};
}

}  // namespace

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
  if (is_list_object(object_or_list)) {
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
