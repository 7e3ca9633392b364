#include "media_negotiation.hpp"

#include <array>
#include <charconv>
#include <map>

namespace rr::apiserver_detail {

namespace {

std::string_view trim_blanks(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  return text;
}

std::vector<std::string_view> split_on(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  while (true) {
    const std::size_t at = text.find(separator);
    parts.push_back(text.substr(0, at));
    if (at == std::string_view::npos) return parts;
    text.remove_prefix(at + 1);
  }
}

// Go's strconv.ParseFloat closely enough for q values: the whole text a number, else 0.
double parse_q(std::string_view text) {
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return 0;
  return value;
}

// goautoneg's accept_slice.Less, as written (not a strict order: Go's insertion sort of a short
// header is what gives it a meaning, and that is what the API server runs).
bool before(const AcceptClause& a, const AcceptClause& b) {
  if (a.q > b.q) return true;
  if (a.type != "*" && b.type == "*") return true;
  if (a.subtype != "*" && b.subtype == "*") return true;
  return false;
}

struct Served {
  std::string_view type;
  std::string_view subtype;
};

// What rr answers GETs in, in the API server's order of its serializers.
constexpr std::array<Served, 3> served{{{"application", "json"},
                                        {"application", "yaml"},
                                        {"application", "vnd.kubernetes.protobuf"}}};

const std::vector<std::string>& served_names() {
  static const std::vector<std::string> names{"application/json", "application/yaml",
                                              "application/vnd.kubernetes.protobuf"};
  return names;
}

bool matches(const AcceptClause& clause, const Served& media) {
  if (clause.type == "*" && clause.subtype == "*") return true;
  return clause.type == media.type && (clause.subtype == media.subtype || clause.subtype == "*");
}

// acceptMediaTypeOptions with the request scope's restrictions: nullopt when the clause's
// parameters ask for something this media type can not carry.
std::optional<OutputMedia> accept_options(const AcceptClause& clause, const Served& media) {
  std::map<std::string, std::string, std::less<>> params;  // a repeated key: the last one
  for (const auto& [key, value] : clause.params) params[key] = value;
  bool convert = false;
  std::string as, group, version;
  for (const auto& [key, value] : params) {
    if (key == "as") {
      convert = true;
      as = value;
    } else if (key == "g") {
      convert = true;
      group = value;
    } else if (key == "v") {
      convert = true;
      version = value;
    } else if (key == "stream") {
      if (!value.empty() && (media.subtype == "yaml" || value != "watch")) return std::nullopt;
    } else if (key == "sv") {
      if (!value.empty() && value != "v1") return std::nullopt;
    }
  }
  if (!convert) return OutputMedia{};
  if (group != "meta.k8s.io" || (version != "v1" && version != "v1beta1")) return std::nullopt;
  if (as == "Table") {
    if (media.subtype != "json" && media.subtype != "yaml") return std::nullopt;
    return OutputMedia{OutputForm::Table, version};
  }
  // The API server encodes these in protobuf too; rr only in JSON.
  if (media.subtype == "vnd.kubernetes.protobuf") return std::nullopt;
  if (as == "PartialObjectMetadata") return OutputMedia{OutputForm::PartialObjectMetadata, version};
  if (as == "PartialObjectMetadataList") return OutputMedia{OutputForm::PartialObjectMetadataList, version};
  return std::nullopt;
}

// The Go type the API server names in its 406 for a list / not a list (%T of what it read).
std::string go_type_of(const Json& object) {
  return is_list_object(object) ? "*unstructured.UnstructuredList" : "*unstructured.Unstructured";
}

Json partial_of(const Json& object, const std::string& version) {
  const auto metadata = object.find("metadata");
  return Json{{"kind", "PartialObjectMetadata"},
              {"apiVersion", "meta.k8s.io/" + version},
              {"metadata", metadata != object.end() && metadata->is_object() ? *metadata : Json::object()}};
}

}  // namespace

std::vector<AcceptClause> parse_accept(std::string_view header) {
  std::vector<AcceptClause> clauses;
  for (std::string_view part : split_on(header, ',')) {
    const std::vector<std::string_view> pieces = split_on(trim_blanks(part), ';');
    const std::vector<std::string_view> range = split_on(pieces.front(), '/');
    AcceptClause clause;
    clause.type = std::string(trim_blanks(range.front()));
    if (range.size() == 1 && clause.type == "*") {
      clause.subtype = "*";
    } else if (range.size() == 2) {
      clause.subtype = std::string(trim_blanks(range[1]));
    } else {
      continue;
    }
    for (std::size_t i = 1; i < pieces.size(); ++i) {
      const std::size_t eq = pieces[i].find('=');
      if (eq == std::string_view::npos) continue;
      const std::string_view key = trim_blanks(pieces[i].substr(0, eq));
      if (key == "q") {
        clause.q = parse_q(pieces[i].substr(eq + 1));
      } else {
        clause.params.emplace_back(std::string(key), std::string(trim_blanks(pieces[i].substr(eq + 1))));
      }
    }
    clauses.push_back(std::move(clause));
  }
  // Go's sort.Sort of a short slice: an insertion sort swapping while before(later, earlier).
  for (std::size_t i = 1; i < clauses.size(); ++i) {
    for (std::size_t j = i; j > 0 && before(clauses[j], clauses[j - 1]); --j) std::swap(clauses[j], clauses[j - 1]);
  }
  return clauses;
}

OutputMedia negotiate_output(std::string_view accept) {
  if (accept.empty()) return OutputMedia{};
  for (const AcceptClause& clause : parse_accept(accept)) {
    for (const Served& media : served) {
      if (!matches(clause, media)) continue;
      if (auto options = accept_options(clause, media)) return std::move(*options);
    }
  }
  std::string list;
  for (const std::string& name : served_names()) list += (list.empty() ? "" : ", ") + name;
  throw ApiError(not_acceptable("only the following media types are accepted: " + list));
}

Status not_acceptable(std::string message) {
  Status s;
  s.code = 406;
  s.reason = "NotAcceptable";
  s.message = std::move(message);
  return s;
}

bool is_list_object(const Json& object) {
  if (!object.is_object()) return false;
  const auto kind = object.find("kind");
  const auto items = object.find("items");
  if (kind == object.end() || !kind->is_string() || items == object.end() || !items->is_array()) return false;
  const std::string& name = kind->get_ref<const std::string&>();
  return name.size() > 4 && name.compare(name.size() - 4, 4, "List") == 0;
}

Json as_partial_object_metadata(const Json& object, const std::string& version) {
  if (is_list_object(object)) {
    throw ApiError(not_acceptable("you requested PartialObjectMetadata, but the requested object is a list (" +
                                  go_type_of(object) + ")"));
  }
  return partial_of(object, version);
}

Json as_partial_object_metadata_list(const Json& list, const std::string& version) {
  if (!is_list_object(list)) {
    throw ApiError(not_acceptable("you requested PartialObjectMetadataList, but the requested object is not a list (" +
                                  go_type_of(list) + ")"));
  }
  Json items = Json::array();
  for (const Json& item : list["items"]) items.push_back(partial_of(item, version));
  Json metadata = Json::object();
  if (const auto from = list.find("metadata"); from != list.end() && from->is_object()) {
    for (const char* field : {"resourceVersion", "continue", "remainingItemCount"}) {
      if (auto it = from->find(field); it != from->end()) metadata[field] = *it;
    }
  }
  return Json{{"kind", "PartialObjectMetadataList"},
              {"apiVersion", "meta.k8s.io/" + version},
              {"metadata", std::move(metadata)},
              {"items", std::move(items)}};
}

}  // namespace rr::apiserver_detail
