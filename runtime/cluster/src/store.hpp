// The engine behind rr::Cluster: the object store, the resourceVersion counter, the event history
// and the garbage collector. Not thread-safe on its own: Cluster calls every method under its one
// mutex. Each group of methods lives in its own .cpp (create, update, patch, remove, gc, read,
// watch, seed).
#pragma once
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "rr/cluster/cluster.hpp"
#include "rr/core/json.hpp"

namespace rr::cluster_detail {

class WatchChannel;
struct ApplySchema;

// One served kind and its objects, sorted by namespace then name.
struct KindEntry {
  KindInfo info;
  Cluster::AdmissionFn admission;
  // A custom resource version's selectableFields: field selectors it accepts besides metadata's.
  std::vector<std::string> selectable_fields;
  // The schema server-side apply and managedFields type the fields by (null: none known).
  std::shared_ptr<const ApplySchema> apply_schema;
  std::map<ObjectKey, Json> objects;
};

// A write whose object changed while admission had the lock released: a 409 Conflict to the
// client; Cluster retries a patch or delete (they name no resourceVersion of their own).
class RacedWrite : public ApiError {
 public:
  using ApiError::ApiError;
};

// Whether a write still has to record its field manager's Update entry in metadata.managedFields
// (create, update, non-apply patch) or already carries the bookkeeping (server-side apply).
enum class Ownership { RecordUpdate, Recorded };

// One change, as the watch history keeps it. `previous` is the state before a MODIFIED change
// (null otherwise): selector-filtered watches need it to turn "stopped matching" into DELETED.
struct Event {
  std::uint64_t resource_version = 0;
  GroupVersionKind gvk;
  WatchEventType type = WatchEventType::Added;
  Json object;
  Json previous;
};

class Store : public StoreReader {
 public:
  explicit Store(ClusterOptions options);

  // The cluster-wide admission plugin (admission.cpp); nullptr: none.
  void set_admission_plugin(std::shared_ptr<AdmissionPlugin> plugin) { plugin_ = std::move(plugin); }
  // How the plugin releases the cluster's lock around a call (AdmissionAttributes::unlocked).
  using Unlocker = std::function<void(const std::function<void()>&)>;
  void set_unlocker(Unlocker unlocker) { unlocker_ = std::move(unlocker); }
  // StoreReader, for the plugin (kinds.cpp).
  const Json* find(const GroupVersionKind& gvk, const ObjectKey& key) const override;
  std::vector<const Json*> all(const GroupVersionKind& gvk) const override;
  std::optional<KindInfo> kind(const GroupVersionKind& gvk) const override;

  // Kinds (kinds.cpp).
  void register_kind(KindInfo info, Cluster::AdmissionFn admission);
  void set_selectable_fields(const GroupVersionKind& gvk, std::vector<std::string> fields);
  void set_apply_schema(const GroupVersionKind& gvk, std::shared_ptr<const ApplySchema> schema);
  const KindEntry* find_kind(const GroupVersionKind& gvk) const;
  const KindEntry* find_kind_by_plural(std::string_view group, std::string_view plural) const;
  std::vector<KindInfo> kinds() const;

  // Reads (read.cpp).
  Json get(const KindInfo& kind, const ObjectKey& key) const;
  Json list(const KindInfo& kind, const ListOptions& opts) const;

  // Writes (create.cpp, update.cpp, patch.cpp, remove.cpp).
  Json create(const KindInfo& kind, const Json& object, const WriteOptions& opts);
  Json update(const KindInfo& kind, const Json& object, const WriteOptions& opts);
  Json update_status(const KindInfo& kind, const Json& object, const WriteOptions& opts);
  Json patch(const KindInfo& kind, const ObjectKey& key, PatchType type, std::string_view body,
             std::string_view subresource, const WriteOptions& opts);
  Json remove(const KindInfo& kind, const ObjectKey& key, const DeleteOptions& opts);
  void remove_collection(const KindInfo& kind, const ListOptions& list, const DeleteOptions& opts);

  // Watches (watch.cpp): the channel is registered and fed under the caller's lock.
  std::shared_ptr<WatchChannel> watch(const KindInfo& kind, const ListOptions& opts);

  // A CRD's storage version changed (move.cpp): `converted` (objects of `from`, in `to`'s
  // version) replace those still stored unchanged in `from`. Returns how many moved.
  std::size_t move_objects(const KindInfo& from, const KindInfo& to, const std::vector<Json>& converted);

  // Test setup (seed.cpp).
  void seed(const KindInfo& kind, Json object);
  std::string resource_version() const { return std::to_string(resource_version_); }
  std::chrono::system_clock::time_point now() const;

 private:
  // The registered entry for a request's kind; 404 NotFound when the server does not serve it.
  KindEntry& served(const KindInfo& kind);
  const KindEntry& served(const KindInfo& kind) const;
  // The key an object is stored under (namespace dropped for cluster-scoped kinds).
  static ObjectKey storage_key(const KindEntry& entry, const ObjectKey& key);
  Json& stored_or_404(KindEntry& entry, const ObjectKey& key);

  // Server-assigned values.
  std::string next_resource_version() { return std::to_string(++resource_version_); }
  std::string next_uid();
  std::string generate_name(const std::string& base);
  std::string timestamp() const;

  // A create of `request` (create.cpp); server-side apply creates through it too.
  Json create_in(KindEntry& entry, const Json& request, const WriteOptions& opts, Ownership ownership);
  // Everything a create does before storing: checks, server-owned metadata, name, admission.
  Json prepare_create(KindEntry& entry, const Json& request, const WriteOptions& opts);
  // Server-side apply (apply.cpp): PATCH with application/apply-patch+yaml, of the main resource
  // or of /status; creates the object when it does not exist.
  Json apply(KindEntry& entry, const ObjectKey& key, std::string_view body, bool status, const WriteOptions& opts);
  // The Update entry of opts.field_manager for a write from `before` ({} for a create) to `object`.
  void record_update(const KindEntry& entry, const Json& before, Json& object, const WriteOptions& opts,
                     bool status) const;
  // Runs the kind's admission (defaults, pruning, validation) on `object`: 422 Invalid on
  // findings; pruned fields refused (400), warned about or ignored as opts.field_validation says.
  void admit(const KindEntry& entry, Json& object, const Json* old_object, bool status, const WriteOptions& opts) const;
  // Refuses or warns as the kind's admission answered.
  void report_admission(const KindEntry& entry, const Json& object, AdmissionResponse response,
                        const WriteOptions& opts) const;
  // admit() with the cluster-wide mutating plugin before it, as the API server orders them:
  // the kind's defaults, mutation, then the kind's defaults, pruning and validation again. The
  // unknown fields the first pass pruned are reported as admit() reports them.
  void admit_write(const KindEntry& entry, AdmissionOperation operation, Json& object, const Json* old_object,
                   bool status, const WriteOptions& opts) const;
  // The cluster-wide validating plugin on the object about to be stored (nullptr: a delete).
  void validate_write(const KindEntry& entry, AdmissionOperation operation, const Json* object, const Json* old_object,
                      bool status, bool dry_run, std::vector<std::string>* warnings) const;
  // The mutating plugin of a delete: no object to change, as the API server calls it (the name
  // is empty for a delete of a collection).
  void mutate_delete(const KindEntry& entry, const ObjectKey& key, bool dry_run) const;
  // After admission that may have released the lock: the stored object must still be `stored`
  // (same resourceVersion), else RacedWrite.
  void check_still_stored(const KindEntry& entry, const Json& stored) const;
  std::function<void(const std::function<void()>&)> unlocked_call() const;
  AdmissionAttributes plugin_attributes(const KindEntry& entry, AdmissionOperation operation, const Json* object,
                                        const Json* old_object, bool status, bool dry_run,
                                        std::vector<std::string>* warnings) const;

  // The write paths shared by update, update_status and patch; `stored` is the current state and
  // the request's resourceVersion has already been checked.
  Json write_main(KindEntry& entry, const Json& stored, Json incoming, const WriteOptions& opts,
                  Ownership ownership = Ownership::RecordUpdate);
  Json write_status(KindEntry& entry, const Json& stored, const Json& incoming, const WriteOptions& opts,
                    Ownership ownership = Ownership::RecordUpdate);
  // Stores `object` (or removes it when it is terminating and finalized()) with a new
  // resourceVersion, records the event and returns what was stored.
  Json commit_update(KindEntry& entry, const Json& previous, Json object);
  Json commit_create(KindEntry& entry, Json object);
  // Removes the object now: new resourceVersion, DELETED event with `last_state`, its dependents
  // queued for GC.
  Json remove_now(KindEntry& entry, Json last_state);

  // Deletion without preconditions (remove.cpp): finalizers make it terminating, otherwise it goes.
  Json delete_object(KindEntry& entry, const ObjectKey& key, PropagationPolicy policy);

  // Garbage collection (gc.cpp), run to a fixed point inside the call that triggered it.
  void collect_garbage();
  // After a write of `stored`: a terminating object may have lost a finalizer, a dependent may
  // have stopped blocking its owner's foreground deletion.
  void collect_garbage_after_write(const Json& stored);
  bool collect_dependents_of(const std::string& owner_uid);
  bool process_orphan_finalizer();
  bool process_foreground_finalizer();
  // The object an ownerReference names (same uid), or nullptr; *served_kind tells whether its kind is served.
  const Json* find_owner(const Json& ref, const std::string& dependent_namespace, bool* served_kind = nullptr) const;
  bool owner_present(const Json& ref, const std::string& dependent_namespace) const;
  // Every stored object holding an ownerReference with this uid: (kind, key), in store order.
  std::vector<std::pair<KindEntry*, ObjectKey>> dependents_of(const std::string& owner_uid);
  void remove_finalizer(KindEntry& entry, const ObjectKey& key, const std::string& finalizer);

  // The collector's indexes (gc_index.cpp): the objects being deleted, and the dependents of each
  // owner uid. Every change to a KindEntry's objects goes through store_object / erase_object, which
  // keep them, so the collector looks objects up instead of scanning the store per write.
  using ObjectRef = std::pair<GroupVersionKind, ObjectKey>;  // kind, storage key
  void store_object(KindEntry& entry, const ObjectKey& key, Json object);
  void erase_object(KindEntry& entry, const ObjectKey& key);
  void index_object(const KindEntry& entry, const ObjectKey& key, const Json& object, bool add);
  // Snapshot of the terminating objects, in store order (kind, then key).
  std::vector<ObjectRef> terminating_objects() const;

  // Namespace lifecycle (namespace_lifecycle.cpp), for the core v1 Namespace kind only.
  // Whether nothing holds an object any more: no metadata.finalizers and, for a Namespace, no
  // spec.finalizers either (a terminating object in that state is removed).
  static bool finalized(const KindEntry& entry, const Json& object);
  const Json* find_namespace(const std::string& name) const;
  // Before a create of a namespaced object: 404 when its Namespace is missing (require_namespaces
  // only), 403 Forbidden when it is terminating.
  void check_namespace_open(const KindInfo& kind, const Json& object) const;
  // The registry strategy: "kubernetes" in spec.finalizers and phase Active on create;
  // spec.finalizers kept from the stored namespace on a write of the main resource.
  static void prepare_namespace_create(Json& ns);
  static void keep_spec_finalizers(Json& ns, const Json& stored);
  // The namespace controller's step of the collector: empties one terminating namespace or
  // finalizes an empty one; false when there was nothing to do.
  bool process_namespace_finalizer();
  bool delete_namespace_content(const std::string& ns);
  bool namespace_has_content(const std::string& ns) const;
  void finalize_namespace(KindEntry& namespaces, const ObjectKey& key);

  void record(Event event);

  ClusterOptions options_;
  std::shared_ptr<AdmissionPlugin> plugin_;
  Unlocker unlocker_;
  // Writes begun so far: a write that released the lock (for a webhook) tells from it whether
  // another one ran meanwhile.
  std::uint64_t writes_begun_ = 0;
  std::map<GroupVersionKind, KindEntry> kinds_;
  std::uint64_t resource_version_ = 0;
  std::uint64_t uid_counter_ = 0;
  std::uint64_t generate_name_counter_ = 0;
  std::mt19937_64 random_;

  // Watch history: events newer than history_floor_ are kept (at most options_.watch_history).
  std::deque<Event> history_;
  std::uint64_t history_floor_ = 0;
  std::vector<std::weak_ptr<WatchChannel>> watchers_;

  // The collector's indexes (see store_object).
  std::set<ObjectRef> terminating_;
  std::map<std::string, std::set<ObjectRef>> dependents_by_owner_;

  // GC work: uids of objects removed and not yet examined for dependents.
  std::deque<std::string> removed_uids_;
  // Last state of every object removed during the current call, by uid (remove() returns it).
  std::map<std::string, Json> removed_in_call_;
};

}  // namespace rr::cluster_detail
