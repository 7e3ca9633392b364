// meta.k8s.io Table answers to GET (what `kubectl get` asks for with
// `Accept: application/json;as=Table;v=v1;g=meta.k8s.io, ...`), as the API server's asTable builds
// them: column definitions, one row per object, and each row's object as the includeObject query
// parameter asks (None, Metadata: a PartialObjectMetadata, Object: the whole object).
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "printer_columns.hpp"

namespace rr::apiserver_detail {

enum class IncludeObject { None, Metadata, Object };

struct TableOptions {
  std::string version = "v1";  // meta.k8s.io version of the Table: v1 or v1beta1
  IncludeObject include = IncludeObject::Metadata;
  bool headers = true;  // false: no columnDefinitions (watch events after the first)
};

// includeObject: "" and Metadata, None, Object; nullopt for anything else (400 upstream).
std::optional<IncludeObject> parse_include_object(std::string_view value);

// The Table of one object or of a list (a JSON object with an `items` array), carrying over the
// list's resourceVersion, continue and remainingItemCount.
Json make_table(const std::vector<PrinterColumn>& columns, const Json& object_or_list, const TableOptions& options,
                PrintClock::time_point now);

}  // namespace rr::apiserver_detail
