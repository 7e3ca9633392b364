#include "crd_kinds.hpp"

#include <algorithm>
#include <cctype>

#include "crd_admission.hpp"

namespace rr::apiserver_detail {

namespace {

std::string string_at(const Json& object, const char* pointer) {
  const Json::json_pointer at(pointer);
  return object.contains(at) && object.at(at).is_string() ? object.at(at).get<std::string>() : std::string();
}

std::vector<std::string> strings_at(const Json& object, const char* pointer) {
  std::vector<std::string> out;
  const Json::json_pointer at(pointer);
  if (!object.contains(at) || !object.at(at).is_array()) return out;
  for (const Json& item : object.at(at)) {
    if (item.is_string()) out.push_back(item.get<std::string>());
  }
  return out;
}

std::string lowercase(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

FieldError field_error(std::string path, FieldErrorType type, const std::string& detail) {
  std::string message = path + ": " + detail;
  return FieldError{std::move(path), type, std::move(message)};
}

Json accepted_names(const Json& crd) {
  Json names = crd.contains("/spec/names"_json_pointer) ? crd.at("/spec/names"_json_pointer) : Json::object();
  if (!names.is_object()) names = Json::object();
  return names;
}

}  // namespace

std::optional<CrdKinds> kinds_of_crd(const Json& crd) {
  const std::string group = string_at(crd, "/spec/group");
  const std::string plural = string_at(crd, "/spec/names/plural");
  const std::string kind = string_at(crd, "/spec/names/kind");
  if (group.empty() || plural.empty() || kind.empty()) return std::nullopt;
  if (!crd.contains("/spec/versions"_json_pointer) || !crd.at("/spec/versions"_json_pointer).is_array()) {
    return std::nullopt;
  }
  CrdKinds out;
  out.names.singular = string_at(crd, "/spec/names/singular");
  if (out.names.singular.empty()) out.names.singular = lowercase(kind);
  out.names.short_names = strings_at(crd, "/spec/names/shortNames");
  out.names.categories = strings_at(crd, "/spec/names/categories");
  std::string list_kind = string_at(crd, "/spec/names/listKind");
  if (list_kind.empty()) list_kind = kind + "List";
  const Scope scope = string_at(crd, "/spec/scope") == "Cluster" ? Scope::Cluster : Scope::Namespaced;
  for (const Json& version : crd.at("/spec/versions"_json_pointer)) {
    if (!version.is_object() || !version.contains("name") || !version["name"].is_string()) continue;
    const bool served = !version.contains("served") || version["served"] == true;
    const bool storage = version.contains("storage") && version["storage"] == true;
    if (!served) continue;
    KindInfo info{.gvk = {group, version["name"].get<std::string>(), kind},
                  .plural = plural,
                  .list_kind = list_kind,
                  .scope = scope,
                  .has_status = version.contains("/subresources/status"_json_pointer)};
    if (version.contains("/subresources/scale"_json_pointer)) out.scaled_versions.push_back(info.gvk.version);
    if (storage) {
      out.storage_version = info.gvk.version;
      out.kinds.insert(out.kinds.begin(), std::move(info));
    } else {
      out.kinds.push_back(std::move(info));
    }
  }
  if (out.kinds.empty()) return std::nullopt;
  return out;
}

namespace {

// spec.conversion: the strategy, and a webhook exactly when it is Webhook (defaulted to None).
void check_conversion(Json& crd, std::vector<FieldError>& errors) {
  if (!crd.contains("spec") || !crd["spec"].is_object()) return;
  Json& spec = crd["spec"];
  if (!spec.contains("conversion") || !spec["conversion"].is_object()) spec["conversion"] = {{"strategy", "None"}};
  Json& conversion = spec["conversion"];
  if (!conversion.contains("strategy")) conversion["strategy"] = "None";
  const std::string strategy = conversion.value("strategy", "");
  const bool has_webhook = conversion.contains("webhook") && !conversion["webhook"].is_null();
  if (strategy != "None" && strategy != "Webhook") {
    errors.push_back(field_error("spec.conversion.strategy", FieldErrorType::NotSupported,
                                 "Unsupported value: \"" + strategy + "\": supported values: \"None\", \"Webhook\""));
  } else if (strategy == "Webhook" && !has_webhook) {
    errors.push_back(field_error("spec.conversion.webhook", FieldErrorType::Required,
                                 "Required value: required when strategy is set to Webhook"));
  } else if (strategy == "None" && has_webhook) {
    errors.push_back(field_error("spec.conversion.webhook", FieldErrorType::Forbidden,
                                 "Forbidden: should not be set when strategy is not set to Webhook"));
  }
  if (strategy != "Webhook" || !has_webhook) return;
  const Json& webhook = conversion["webhook"];
  const Json versions = webhook.value("conversionReviewVersions", Json::array());
  if (versions.empty()) {
    errors.push_back(field_error("spec.conversion.webhook.conversionReviewVersions", FieldErrorType::Required,
                                 "Required value: must specify one of v1, v1beta1"));
  } else if (std::find(versions.begin(), versions.end(), Json("v1")) == versions.end()) {
    // The local cluster speaks v1 only.
    std::string shown;
    for (const Json& v : versions) shown += (shown.empty() ? "" : ", ") + v.dump();
    errors.push_back(field_error("spec.conversion.webhook.conversionReviewVersions", FieldErrorType::Invalid,
                                 "Invalid value: []string{" + shown + "}: must include at least one of v1"));
  }
  const Json client = webhook.value("clientConfig", Json());
  const bool url = client.is_object() && client.contains("url");
  const bool service = client.is_object() && client.contains("service");
  if (url == service) {
    errors.push_back(field_error("spec.conversion.webhook.clientConfig", FieldErrorType::Required,
                                 "Required value: exactly one of url or service is required"));
  }
}

}  // namespace

std::vector<FieldError> admit_crd(Json& crd) {
  std::vector<FieldError> errors;
  const std::string group = string_at(crd, "/spec/group");
  const std::string plural = string_at(crd, "/spec/names/plural");
  const std::string kind = string_at(crd, "/spec/names/kind");
  if (group.empty()) errors.push_back(field_error("spec.group", FieldErrorType::Required, "Required value"));
  if (plural.empty()) errors.push_back(field_error("spec.names.plural", FieldErrorType::Required, "Required value"));
  if (kind.empty()) errors.push_back(field_error("spec.names.kind", FieldErrorType::Required, "Required value"));
  const std::string name = string_at(crd, "/metadata/name");
  if (!group.empty() && !plural.empty() && name != plural + "." + group) {
    errors.push_back(field_error("metadata.name", FieldErrorType::Invalid,
                                 "Invalid value: \"" + name + "\": must be spec.names.plural+\".\"+spec.group"));
  }
  const std::string scope = string_at(crd, "/spec/scope");
  if (scope != "Namespaced" && scope != "Cluster") {
    errors.push_back(field_error("spec.scope", FieldErrorType::NotSupported,
                                 "Unsupported value: \"" + scope + "\": supported values: \"Cluster\", \"Namespaced\""));
  }
  std::size_t storage = 0;
  if (crd.contains("/spec/versions"_json_pointer) && crd.at("/spec/versions"_json_pointer).is_array()) {
    for (const Json& version : crd.at("/spec/versions"_json_pointer)) {
      if (version.is_object() && version.contains("storage") && version["storage"] == true) ++storage;
    }
  }
  if (storage != 1) {
    errors.push_back(field_error("spec.versions", FieldErrorType::Invalid,
                                 "Invalid value: " + std::to_string(storage) +
                                     ": must have exactly one version marked as storage version"));
  }
  check_conversion(crd, errors);
  if (!errors.empty()) return errors;
  errors = check_crd_schemas(crd);
  if (!errors.empty()) return errors;
  Json& names = crd["spec"]["names"];
  if (!names.contains("singular")) names["singular"] = lowercase(kind);
  if (!names.contains("listKind")) names["listKind"] = kind + "List";
  return errors;
}

Json accepted_crd_status(const Json& crd, const std::string& now) {
  Json status = crd.contains("status") && crd["status"].is_object() ? crd["status"] : Json::object();
  auto transition_time = [&](const char* type) {
    if (status.contains("conditions") && status["conditions"].is_array()) {
      for (const Json& c : status["conditions"]) {
        if (c.value("type", "") == type && c.value("status", "") == "True" && c.contains("lastTransitionTime")) {
          return c["lastTransitionTime"];
        }
      }
    }
    return Json(now);
  };
  status["conditions"] = Json::array(
      {{{"type", "NamesAccepted"},
        {"status", "True"},
        {"lastTransitionTime", transition_time("NamesAccepted")},
        {"reason", "NoConflicts"},
        {"message", "no conflicts found"}},
       {{"type", "Established"},
        {"status", "True"},
        {"lastTransitionTime", transition_time("Established")},
        {"reason", "InitialNamesAccepted"},
        {"message", "the initial names have been accepted"}}});
  status["acceptedNames"] = accepted_names(crd);
  if (auto kinds = kinds_of_crd(crd); kinds && !kinds->storage_version.empty()) {
    Json stored = status.contains("storedVersions") && status["storedVersions"].is_array() ? status["storedVersions"]
                                                                                            : Json::array();
    if (std::find(stored.begin(), stored.end(), Json(kinds->storage_version)) == stored.end()) {
      stored.push_back(kinds->storage_version);
    }
    status["storedVersions"] = stored;
  }
  return status;
}

bool crd_status_current(const Json& crd) {
  if (!crd.contains("status")) return false;
  return accepted_crd_status(crd, "") == crd["status"];
}

}  // namespace rr::apiserver_detail
