// Type objects of the conformance files as rr::cel's type spellings (conformance_types.hpp).
#include "conformance_types.hpp"

namespace rr::cel::conformance {

std::optional<std::string> type_text_of(const rr::Json& type, std::string& why) {
  if (!type.is_object() || type.size() != 1) {
    why = "a type that is not one kind: " + type.dump();
    return std::nullopt;
  }
  // The one member, by its iterator (a structured binding of items().begin() dangles).
  const auto member = type.begin();
  const std::string kind = member.key();
  const rr::Json& body = member.value();
  if (kind == "dyn") return "dyn";
  if (kind == "null") return "null_type";
  if (kind == "primitive") {
    static const std::pair<const char*, const char*> kPrimitives[] = {{"BOOL", "bool"},     {"INT64", "int"},
                                                                      {"UINT64", "uint"},   {"DOUBLE", "double"},
                                                                      {"STRING", "string"}, {"BYTES", "bytes"}};
    for (const auto& [proto, cel] : kPrimitives)
      if (body == proto) return cel;
  }
  if (kind == "well_known") {
    if (body == "TIMESTAMP") return "google.protobuf.Timestamp";
    if (body == "DURATION") return "google.protobuf.Duration";
  }
  if (kind == "list_type") {
    auto elem = type_text_of(body.value("elem_type", rr::Json()), why);
    if (!elem) return std::nullopt;
    return "list(" + *elem + ")";
  }
  if (kind == "map_type") {
    auto key = type_text_of(body.value("key_type", rr::Json()), why);
    auto value = key ? type_text_of(body.value("value_type", rr::Json()), why) : std::nullopt;
    if (!value) return std::nullopt;
    return "map(" + *key + ", " + *value + ")";
  }
  if (kind == "abstract_type" && body.value("name", "") == "optional_type" && body.contains("parameter_types") &&
      body["parameter_types"].size() == 1) {
    auto inner = type_text_of(body["parameter_types"][0], why);
    if (!inner) return std::nullopt;
    return "optional_type(" + *inner + ")";
  }
  if (kind == "type") return "type";
  why = "no counterpart of the type " + type.dump();
  return std::nullopt;
}

}  // namespace rr::cel::conformance
