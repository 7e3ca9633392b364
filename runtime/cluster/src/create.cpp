// POST: names, server-owned metadata, admission, then the store.
#include "errors.hpp"
#include "namespace_lifecycle.hpp"
#include "object_meta.hpp"
#include "request_checks.hpp"
#include "store.hpp"

namespace rr::cluster_detail {

namespace {

// Random generateName suffixes may collide; recent API servers retry rather than fail.
constexpr int generate_name_attempts = 8;

}  // namespace

Json Store::create(const KindInfo& kind, const Json& request, const WriteOptions& opts) {
  removed_in_call_.clear();
  ++writes_begun_;
  return create_in(served(kind), request, opts, Ownership::RecordUpdate);
}

Json Store::create_in(KindEntry& entry, const Json& request, const WriteOptions& opts, Ownership ownership) {
  // A create that stores nothing (dry run, or refused) gives back the uid and name it drew, so the
  // identities later objects get do not depend on it.
  const auto uid_counter = uid_counter_;
  const auto generate_name_counter = generate_name_counter_;
  const auto random = random_;
  const auto begun = writes_begun_;
  auto give_back = [&] {
    if (writes_begun_ != begun) return;  // another write drew after us while admission waited
    uid_counter_ = uid_counter;
    generate_name_counter_ = generate_name_counter;
    random_ = random;
  };
  Json object;
  try {
    object = prepare_create(entry, request, opts);
    if (ownership == Ownership::RecordUpdate) record_update(entry, Json::object(), object, opts, false);
    validate_write(entry, AdmissionOperation::Create, &object, nullptr, false, opts.dry_run, opts.warnings);
  } catch (...) {
    give_back();
    throw;
  }
  if (opts.dry_run) {
    give_back();
    return object;
  }
  return commit_create(entry, std::move(object));
}

Json Store::prepare_create(KindEntry& entry, const Json& request, const WriteOptions& opts) {
  const KindInfo& info = entry.info;
  Json object = request;
  check_type_meta(info, object);
  if (!meta_string(object, "resourceVersion").empty()) {
    fail(api_errors::bad_request("resourceVersion can not be set for Create requests"));
  }
  normalize_namespace(info, object);
  check_namespace_open(info, object);  // NamespaceLifecycle admission (namespace_lifecycle.cpp)
  const std::string generate_base = meta_string(object, "generateName");
  const bool generated = meta_string(object, "name").empty();
  if (generated && generate_base.empty()) {
    fail(invalid(info, "", {cause(FieldErrorType::Required, "metadata.name",
                                  "Required value: name or generateName is required")}));
  }

  // What the client cannot choose.
  if (info.has_status) object.erase("status");
  erase_meta(object, "deletionTimestamp");
  erase_meta(object, "deletionGracePeriodSeconds");
  set_meta(object, "uid", next_uid());
  set_meta(object, "creationTimestamp", timestamp());
  set_meta(object, "generation", 1);

  if (generated) set_meta(object, "name", generate_name(generate_base));
  const std::string ns = meta_string(object, "namespace");
  if (is_namespace_kind(info)) prepare_namespace_create(object);

  admit_write(entry, AdmissionOperation::Create, object, nullptr, false, opts);

  const int attempts = generated && !options_.counter_generate_name ? generate_name_attempts : 1;
  for (int attempt = 1; entry.objects.contains(ObjectKey{ns, meta_string(object, "name")}); ++attempt) {
    if (attempt >= attempts) fail(already_exists(info, meta_string(object, "name")));
    set_meta(object, "name", generate_name(generate_base));
  }
  return object;
}

}  // namespace rr::cluster_detail
