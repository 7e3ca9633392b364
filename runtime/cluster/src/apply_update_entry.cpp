// The Update entry every create, update and non-apply patch records in metadata.managedFields
// (the API server's FieldManager.Update): the writer takes the fields it added or changed, the
// other managers lose them and whatever was removed.
#include "apply_managed_fields.hpp"
#include "object_meta.hpp"
#include "store.hpp"

namespace rr::cluster_detail {

namespace {

// The bookkeeping the write starts from: the request's own when it sends some (a client may
// rewrite or clear managedFields through the main resource), otherwise the stored one (clients
// that do not know about managedFields must not wipe it).
ManagedFields starting_point(const Json& before, const Json& object, bool status) {
  const ManagedFields stored = decode_managed_fields(before).value_or(ManagedFields{});
  if (status) return stored;
  const auto meta = object.find("metadata");
  if (meta == object.end() || !meta->is_object()) return stored;
  const auto sent = meta->find("managedFields");
  if (sent == meta->end() || !sent->is_array() || sent->empty()) return stored;
  return decode_managed_fields(object).value_or(stored);
}

}  // namespace

void Store::record_update(const KindEntry& entry, const Json& before, Json& object, const WriteOptions& opts,
                          bool status) const {
  const KindInfo& kind = entry.info;
  const FieldScope scope{kind.has_status, status};
  ManagedFields managed = starting_point(before, object, status);
  const Comparison change = scope.of(compare_objects(before, object, FieldType::root_of(entry.apply_schema.get())));
  // The writer's own earlier entry is treated like anyone else's ("current-operation" in the API
  // server), then gets what this write set.
  transfer_ownership(managed, ManagerId{}, change);
  const FieldSet set_now = change.added.united_with(change.modified);
  if (!set_now.empty()) {
    ManagerFields& mine = managed[updater(opts.field_manager, kind.gvk.api_version(), status ? "status" : "")];
    mine.fields = mine.fields.united_with(set_now);
    mine.api_version = kind.gvk.api_version();
    mine.time = timestamp();
  }
  // Unchanged bookkeeping keeps its stored text, so that a write changing nothing stays a no-op.
  if (decode_managed_fields(before) == managed) {
    const auto meta = before.find("metadata");
    if (meta != before.end() && meta->is_object() && meta->contains("managedFields")) {
      set_meta(object, "managedFields", meta->at("managedFields"));
    } else {
      erase_meta(object, "managedFields");
    }
    return;
  }
  encode_managed_fields(object, managed);
}

}  // namespace rr::cluster_detail
