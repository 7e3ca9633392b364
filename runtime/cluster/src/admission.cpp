// Admission: the kind's defaulting and validation, as the API server runs them for a custom
// resource on every write of the main resource.
#include <algorithm>
#include <cctype>

#include "errors.hpp"
#include "metadata_validation.hpp"
#include "object_meta.hpp"
#include "store.hpp"

namespace rr::cluster_detail {

namespace {

// RFC 6901 pointer → Kubernetes field path: "/spec/ports/2/port" → "spec.ports[2].port".
std::string field_path(std::string_view pointer) {
  std::string path;
  std::size_t pos = 0;
  while (pos < pointer.size() && pointer[pos] == '/') {
    std::size_t end = pointer.find('/', pos + 1);
    std::string token(pointer.substr(pos + 1, end == std::string_view::npos ? std::string_view::npos : end - pos - 1));
    for (std::size_t i = 0; (i = token.find('~', i)) != std::string::npos; ++i) {
      if (i + 1 < token.size()) token.replace(i, 2, token[i + 1] == '1' ? "/" : "~");
    }
    const bool index = !token.empty() && std::all_of(token.begin(), token.end(), [](unsigned char c) {
      return std::isdigit(c) != 0;
    });
    if (index) path += "[" + token + "]";
    else path += (path.empty() ? "" : ".") + token;
    if (end == std::string_view::npos) break;
    pos = end;
  }
  return path;
}

}  // namespace

namespace {

// The kind's admission (defaults, schema, CEL) after ObjectMeta validation, whose findings come
// first as in the API server's strategies; a status write keeps the stored metadata and skips it.
AdmissionResponse run_admission(const KindEntry& entry, Json& object, const Json* old_object, bool status) {
  AdmissionResponse response;
  if (entry.admission) {
    try {
      response = entry.admission(AdmissionRequest{.object = object, .old_object = old_object, .status = status});
    } catch (const DecodeError& e) {
      // A value of the wrong type: the API server's schema validation reports it as invalid.
      response.errors.push_back(FieldError{field_path(e.pointer()), FieldErrorType::Invalid, e.message()});
    }
  }
  if (!status) {
    // A generated kind's validate() checks the metadata members it has too: those come once.
    std::vector<FieldError> meta = metadata_findings(entry.info, object, old_object);
    std::erase_if(response.errors,
                  [&meta](const FieldError& e) { return std::find(meta.begin(), meta.end(), e) != meta.end(); });
    response.errors.insert(response.errors.begin(), meta.begin(), meta.end());
  }
  return response;
}

}  // namespace

void Store::admit(const KindEntry& entry, Json& object, const Json* old_object, bool status,
                  const WriteOptions& opts) const {
  report_admission(entry, object, run_admission(entry, object, old_object, status), opts);
}

void Store::report_admission(const KindEntry& entry, const Json& object, AdmissionResponse response,
                             const WriteOptions& opts) const {
  // Unknown fields come first: the API server meets them while decoding, before validation.
  if (!response.unknown_fields.empty() && opts.field_validation == FieldValidation::Strict) {
    const std::string& version = response.decoded_version.empty() ? entry.info.gvk.version : response.decoded_version;
    std::string message = entry.info.gvk.kind + " in version \"" + version + "\" cannot be handled as a " +
                          entry.info.gvk.kind + ": strict decoding error: ";
    for (std::size_t i = 0; i < response.unknown_fields.size(); ++i) {
      message += (i ? ", " : "") + std::string("unknown field \"") + response.unknown_fields[i] + "\"";
    }
    fail(api_errors::bad_request(message));
  }
  if (!response.errors.empty()) {
    fail(invalid(entry.info, meta_string(object, "name"), api_errors::causes_of(response.errors)));
  }
  if (!opts.warnings) return;
  if (opts.field_validation != FieldValidation::Ignore) {
    for (const auto& field : response.unknown_fields) opts.warnings->push_back("unknown field \"" + field + "\"");
  }
  for (auto& warning : response.warnings) opts.warnings->push_back(std::move(warning));
}

AdmissionAttributes Store::plugin_attributes(const KindEntry& entry, AdmissionOperation operation, const Json* object,
                                             const Json* old_object, bool status, bool dry_run,
                                             std::vector<std::string>* warnings) const {
  const Json& named = object ? *object : *old_object;
  return AdmissionAttributes{.operation = operation,
                             .kind = entry.info,
                             .subresource = status ? "status" : "",
                             .namespace_ = entry.info.namespaced() ? meta_string(named, "namespace") : "",
                             .name = meta_string(named, "name"),
                             .object = const_cast<Json*>(object),  // mutate() only: its object is the caller's
                             .old_object = old_object,
                             .dry_run = dry_run,
                             .user = RequestUserScope::current(),
                             .store = this,
                             .warnings = warnings,
                             .unlocked = unlocked_call()};
}

std::function<void(const std::function<void()>&)> Store::unlocked_call() const {
  if (unlocker_) return unlocker_;
  return [](const std::function<void()>& call) { call(); };
}

void Store::check_still_stored(const KindEntry& entry, const Json& stored) const {
  if (!plugin_) return;
  auto it = entry.objects.find(storage_key(entry, key_of(stored)));
  if (it != entry.objects.end() &&
      meta_string(it->second, "resourceVersion") == meta_string(stored, "resourceVersion")) {
    return;
  }
  throw RacedWrite(stale(entry.info, meta_string(stored, "name")));
}

void Store::admit_write(const KindEntry& entry, AdmissionOperation operation, Json& object, const Json* old_object,
                        bool status, const WriteOptions& opts) const {
  if (!plugin_ || !plugin_->mutates_kind(*this, entry.info.gvk)) return admit(entry, object, old_object, status, opts);
  // Decoding defaults and prunes before mutating admission; its findings wait for validation,
  // but a strict decoding error stops the write first, as on the API server.
  std::vector<std::string> pruned;
  if (entry.admission) {
    AdmissionResponse first = run_admission(entry, object, old_object, status);
    pruned = std::move(first.unknown_fields);
    if (!pruned.empty() && opts.field_validation == FieldValidation::Strict) {
      report_admission(entry, object,
                       AdmissionResponse{.errors = {},
                                         .unknown_fields = pruned,
                                         .warnings = {},
                                         .decoded_version = std::move(first.decoded_version)},
                       opts);
    }
  }
  plugin_->mutate(plugin_attributes(entry, operation, &object, old_object, status, opts.dry_run, opts.warnings));
  AdmissionResponse second = run_admission(entry, object, old_object, status);
  for (auto& field : second.unknown_fields) {
    if (std::find(pruned.begin(), pruned.end(), field) == pruned.end()) pruned.push_back(std::move(field));
  }
  second.unknown_fields = std::move(pruned);
  report_admission(entry, object, std::move(second), opts);
}

void Store::validate_write(const KindEntry& entry, AdmissionOperation operation, const Json* object,
                           const Json* old_object, bool status, bool dry_run,
                           std::vector<std::string>* warnings) const {
  if (!plugin_) return;
  plugin_->validate(plugin_attributes(entry, operation, object, old_object, status, dry_run, warnings));
}

void Store::mutate_delete(const KindEntry& entry, const ObjectKey& key, bool dry_run) const {
  if (!plugin_ || !plugin_->mutates(*this)) return;
  AdmissionAttributes attributes{.operation = AdmissionOperation::Delete,
                                 .kind = entry.info,
                                 .subresource = "",
                                 .namespace_ = entry.info.namespaced() ? key.namespace_ : "",
                                 .name = key.name,
                                 .object = nullptr,
                                 .old_object = nullptr,
                                 .dry_run = dry_run,
                                 .user = RequestUserScope::current(),
                                 .store = this,
                                 .warnings = nullptr,
                                 .unlocked = unlocked_call()};
  plugin_->mutate(attributes);
}

}  // namespace rr::cluster_detail
