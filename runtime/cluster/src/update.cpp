// PUT on the main resource and on /status.
#include <algorithm>

#include "errors.hpp"
#include "namespace_lifecycle.hpp"
#include "object_meta.hpp"
#include "request_checks.hpp"
#include "rr/client/resource_version.hpp"
#include "store.hpp"

namespace rr::cluster_detail {

namespace {

// What the server owns: a main-resource write cannot change these.
constexpr std::string_view server_owned[] = {"uid",        "creationTimestamp", "deletionTimestamp",
                                             "deletionGracePeriodSeconds", "generation", "resourceVersion",
                                             "name",       "namespace"};

void keep_stored(Json& object, const Json& stored, std::string_view field) {
  const auto& meta = stored.at("metadata");
  if (auto it = meta.find(field); it != meta.end()) set_meta(object, field, *it);
  else erase_meta(object, field);
}

// Custom resources refuse unconditional updates; a stale version is a conflict. Versions compare
// as numbers, as the registry's versioner reads them ("007" is 7; "0" is no version at all).
void check_resource_version(const KindInfo& kind, const Json& request, const Json& stored) {
  const std::string name = meta_string(stored, "name");
  const ParsedResourceVersion rv = parse_resource_version(meta_string(request, "resourceVersion"));
  if (!rv.error.empty()) fail(api_errors::malformed_object_resource_version(rv));
  if (rv.value == 0) {
    // The registry names the resource where a Kind belongs (its TODO, kubernetes#18526):
    // `things.example.com "a" is invalid`, details.kind "things".
    fail(api_errors::invalid(kind.plural, kind.gvk.group, name,
                             {cause(FieldErrorType::Invalid, "metadata.resourceVersion",
                                    "Invalid value: 0x0: must be specified for an update")}));
  }
  if (rv.value != parse_resource_version(meta_string(stored, "resourceVersion")).value) fail(stale(kind, name));
}

// Once deletionTimestamp is set only finalizers may go, never come.
void check_no_new_finalizers(const KindInfo& kind, const Json& stored, const Json& object) {
  if (!is_terminating(stored)) return;
  const auto before = finalizers_of(stored);
  std::string added;
  for (const auto& f : finalizers_of(object)) {
    if (std::find(before.begin(), before.end(), f) == before.end()) added += (added.empty() ? "\"" : ", \"") + f + "\"";
  }
  if (added.empty()) return;
  fail(invalid(kind, meta_string(stored, "name"),
               {cause(FieldErrorType::Forbidden, "metadata.finalizers",
                      "Forbidden: no new finalizers can be added if the object is being deleted, found new "
                      "finalizers []string{" + added + "}")}));
}

// The stored object a PUT addresses: the key comes from the body.
ObjectKey request_key(const KindInfo& kind, Json& object) {
  check_type_meta(kind, object);
  normalize_namespace(kind, object);
  if (meta_string(object, "name").empty()) {
    fail(invalid(kind, "", {cause(FieldErrorType::Required, "metadata.name", "Required value: name is required")}));
  }
  return key_of(object);
}

}  // namespace

Json Store::update(const KindInfo& kind, const Json& request, const WriteOptions& opts) {
  removed_in_call_.clear();
  ++writes_begun_;
  KindEntry& entry = served(kind);
  Json object = request;
  const Json stored = stored_or_404(entry, request_key(entry.info, object));
  check_resource_version(entry.info, object, stored);
  Json result = write_main(entry, stored, std::move(object), opts);
  collect_garbage_after_write(stored);
  return result;
}

Json Store::update_status(const KindInfo& kind, const Json& request, const WriteOptions& opts) {
  removed_in_call_.clear();
  ++writes_begun_;
  KindEntry& entry = served(kind);
  if (!entry.info.has_status) fail(not_served(entry.info));
  Json object = request;
  const Json stored = stored_or_404(entry, request_key(entry.info, object));
  check_resource_version(entry.info, object, stored);
  return write_status(entry, stored, object, opts);
}

Json Store::write_main(KindEntry& entry, const Json& stored, Json object, const WriteOptions& opts,
                       Ownership ownership) {
  const KindInfo& info = entry.info;
  for (auto field : server_owned) keep_stored(object, stored, field);
  auto keep_stored_status = [&] {
    if (!info.has_status) return;
    if (auto it = stored.find("status"); it != stored.end()) object["status"] = *it;
    else object.erase("status");
  };
  keep_stored_status();
  if (is_namespace_kind(info)) keep_spec_finalizers(object, stored);
  check_no_new_finalizers(info, stored, object);
  admit_write(entry, AdmissionOperation::Update, object, &stored, false, opts);
  keep_stored_status();  // admission's defaults do not reach status through the main resource either
  if (ownership == Ownership::RecordUpdate) record_update(entry, stored, object, opts, false);
  if (generation_relevant(object, info.has_status) != generation_relevant(stored, info.has_status)) {
    set_meta(object, "generation", generation_of(stored) + 1);
  }
  validate_write(entry, AdmissionOperation::Update, &object, &stored, false, opts.dry_run, opts.warnings);
  check_still_stored(entry, stored);
  if (object == stored) return stored;  // a no-op write keeps its resourceVersion
  if (opts.dry_run) return object;
  return commit_update(entry, stored, std::move(object));
}

Json Store::write_status(KindEntry& entry, const Json& stored, const Json& incoming, const WriteOptions& opts,
                         Ownership ownership) {
  Json object = stored;
  if (auto it = incoming.find("status"); it != incoming.end()) object["status"] = *it;
  else object.erase("status");
  if (entry.admission || plugin_) {
    // The whole object is admitted (ratcheting lets an unchanged spec pass); only its status is kept.
    Json admitted = object;
    admit_write(entry, AdmissionOperation::Update, admitted, &stored, true, opts);
    if (auto it = admitted.find("status"); it != admitted.end()) object["status"] = *it;
    else object.erase("status");
  }
  if (ownership == Ownership::RecordUpdate) {
    record_update(entry, stored, object, opts, true);
  } else if (auto meta = incoming.find("metadata"); meta != incoming.end() && meta->contains("managedFields")) {
    set_meta(object, "managedFields", meta->at("managedFields"));  // server-side apply's bookkeeping
  } else {
    erase_meta(object, "managedFields");
  }
  validate_write(entry, AdmissionOperation::Update, &object, &stored, true, opts.dry_run, opts.warnings);
  check_still_stored(entry, stored);
  if (object == stored) return stored;
  if (opts.dry_run) return object;
  return commit_update(entry, stored, std::move(object));
}

}  // namespace rr::cluster_detail
