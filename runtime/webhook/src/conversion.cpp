// The JSON side of Conversion<Hub> (see conversion.hpp).
#include "rr/webhook/conversion.hpp"

#include <nlohmann/json.hpp>

namespace rr::webhook::conversion_detail {
namespace {

const std::string annotation(conversion_data_annotation);

// Adds to `into` every member of `from` it lacks, recursing into objects both have.
void fill_absent(Json& into, const Json& from) {
  for (const auto& [key, value] : from.items()) {
    const auto found = into.find(key);
    if (found == into.end()) {
      into[key] = value;
    } else if (found->is_object() && value.is_object()) {
      fill_absent(*found, value);
    }
  }
}

Json without_metadata(Json object) {
  object.erase("metadata");
  return object;
}

}  // namespace

std::string api_version_of(const Json& object) {
  const auto found = object.find("apiVersion");
  return found != object.end() && found->is_string() ? found->get<std::string>() : std::string();
}

void check_kind(const Json& object, std::string_view kind) {
  if (!object.is_object()) throw ConversionError("an object to convert is not a JSON object");
  const auto found = object.find("kind");
  const std::string got = found != object.end() && found->is_string() ? found->get<std::string>() : std::string();
  if (got != kind) {
    throw ConversionError("cannot convert kind \"" + got + "\": this webhook converts " + std::string(kind));
  }
}

void check(const Error& err, std::string_view what) {
  if (err) throw ConversionError(std::string(what) + ": " + err.message());
}

void restore(const Json& spoke, Json& hub) {
  const Json::json_pointer at = Json::json_pointer("/metadata/annotations") / annotation;
  if (!spoke.contains(at)) return;
  if (hub.contains("metadata") && hub["metadata"].contains("annotations")) {
    Json& annotations = hub["metadata"]["annotations"];
    annotations.erase(annotation);
    if (annotations.empty()) hub["metadata"].erase("annotations");
  }
  const Json& stored_text = spoke.at(at);
  const Json stored = stored_text.is_string() ? Json::parse(stored_text.get<std::string>(), nullptr, false) : Json();
  if (!stored.is_object()) throw ConversionError("the annotation " + annotation + " does not hold a JSON object");
  fill_absent(hub, without_metadata(stored));
}

void preserve(const Json& hub, const Json& round_trip, Json& spoke) {
  const Json kept = without_metadata(hub);
  if (!round_trip.is_null() && without_metadata(round_trip) == kept) return;
  spoke["metadata"]["annotations"][annotation] = kept.dump();
}

}  // namespace rr::webhook::conversion_detail
