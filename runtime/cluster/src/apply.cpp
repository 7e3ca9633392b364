// Server-side apply (PATCH, application/apply-patch+yaml): the configuration is merged into the
// live object (or creates it), the field manager comes to own exactly the fields it applied,
// fields it applied before and has now left out are removed unless another manager owns them,
// and changing a field another manager owns is a 409 Conflict unless forced. The result goes
// through the same write path as every other write (admission, generation, resourceVersion).
#include "apply_managed_fields.hpp"
#include "apply_walk.hpp"
#include "apply_yaml.hpp"
#include "errors.hpp"
#include "object_meta.hpp"
#include "store.hpp"

namespace rr::cluster_detail {

namespace {

std::string member_text(const Json& object, const char* key) {
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// ValidatePatchOptions: 422 Invalid on PatchOptions.meta.k8s.io.
Status field_manager_required() {
  return api_errors::invalid("PatchOptions", "meta.k8s.io", "",
                             {cause(FieldErrorType::Required, "fieldManager", "Required value: is required for apply patch")});
}

// The configuration names the object the URL names: its apiVersion and kind are required (the
// API server decodes the patch by them), metadata.name must match and metadata.namespace, when
// given, too (it defaults to the URL's).
void check_identity(const KindInfo& kind, const ObjectKey& key, Json& config) {
  const std::string expected = kind.gvk.api_version();
  if (const std::string version = member_text(config, "apiVersion"); version != expected) {
    fail(api_errors::bad_request("Incorrect version specified in apply patch. Specified patch version: " + version +
                                 ", expected: " + expected));
  }
  if (const std::string applied_kind = member_text(config, "kind"); applied_kind != kind.gvk.kind) {
    fail(api_errors::bad_request("the kind in the data (" + applied_kind + ") does not match the expected kind (" +
                                 kind.gvk.kind + ")"));
  }
  if (auto meta = config.find("metadata"); meta != config.end() && meta->is_object() && meta->contains("managedFields") &&
                                           !meta->at("managedFields").is_null()) {
    fail(api_errors::bad_request("metadata.managedFields must be nil"));
  }
  if (kind.namespaced() && meta_string(config, "namespace").empty()) set_meta(config, "namespace", key.namespace_);
  if (const std::string name = meta_string(config, "name"); name != key.name) {
    fail(api_errors::bad_request("the name of the object (" + name + ") does not match the name on the URL (" +
                                 key.name + ")"));
  }
  if (kind.namespaced() && meta_string(config, "namespace") != key.namespace_) {
    fail(api_errors::bad_request("the namespace of the object (" + meta_string(config, "namespace") +
                                 ") does not match the namespace on the URL (" + key.namespace_ + ")"));
  }
}

FieldSet everything_owned(const ManagedFields& managed) {
  FieldSet owned;
  for (const auto& [id, fields] : managed) owned = owned.united_with(fields.fields);
  return owned;
}

bool any(const Comparison& change) {
  return !change.added.empty() || !change.modified.empty() || !change.removed.empty();
}

}  // namespace

Json Store::apply(KindEntry& entry, const ObjectKey& key, std::string_view body, bool status,
                  const WriteOptions& opts) {
  const KindInfo& info = entry.info;
  if (opts.field_manager.empty()) fail(field_manager_required());
  Json config = parse_apply_body(body);
  check_identity(info, key, config);

  auto found = entry.objects.find(storage_key(entry, key));
  const bool exists = found != entry.objects.end();
  // /status updates an object; only the main resource creates one.
  if (!exists && status) fail(not_found(info, key.name));
  const Json live = exists ? found->second : Json::object();
  const std::string rv = meta_string(config, "resourceVersion");
  if (exists && !rv.empty() && rv != meta_string(live, "resourceVersion")) fail(stale(info, key.name));

  const FieldScope scope{info.has_status, status};
  const ManagedFields before = decode_managed_fields(live).value_or(ManagedFields{});
  ManagedFields managed = before;
  const ManagerId me = applier(opts.field_manager, status ? "status" : "");
  const FieldType type = FieldType::root_of(entry.apply_schema.get());
  const FieldSet applied = scope.of(fields_set_by(config, type));
  const FieldSet previously = before.contains(me) ? before.at(me).fields : FieldSet{};
  managed[me] = ManagerFields{applied, info.gvk.api_version(), before.contains(me) ? before.at(me).time : ""};

  Json merged = merge_configuration(live, config, type);
  // Fields left out of this configuration that nobody owns any more go.
  const FieldSet owned = everything_owned(managed);
  const FieldSet left_out = previously.minus(applied);
  for (const FieldPath& path : left_out.paths()) {
    if (!owned.contains_at_or_below(path)) remove_field(merged, path, type);
  }

  const Comparison change = scope.of(compare_objects(live, merged, type));
  if (!opts.force) {
    if (const Conflicts conflicts = conflicts_with(managed, me, change); !conflicts.empty()) fail(apply_conflict(conflicts));
  }
  transfer_ownership(managed, me, change);
  if (auto mine = managed.find(me); mine != managed.end()) {
    const bool new_claim = !before.contains(me) || before.at(me).fields != mine->second.fields;
    if (any(change) || new_claim) mine->second.time = timestamp();
  }
  if (managed != before) encode_managed_fields(merged, managed);

  if (!exists) return create_in(entry, merged, opts, Ownership::Recorded);
  const Json stored = found->second;
  Json result = status ? write_status(entry, stored, merged, opts, Ownership::Recorded)
                       : write_main(entry, stored, std::move(merged), opts, Ownership::Recorded);
  collect_garbage_after_write(stored);
  return result;
}

}  // namespace rr::cluster_detail
