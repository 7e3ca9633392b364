// An in-memory API server with the semantics reconcilers depend on: one global
// resourceVersion, 409 on stale writes, uid and creationTimestamp, generation bumped only by
// non-metadata changes (status excluded when the status subresource is on), status-subresource
// isolation both ways, finalizers and deletionTimestamp, background garbage collection through
// ownerReferences (foreground and orphan through their finalizers), generateName, label and
// field selectors, merge and JSON patch, watch events with resume, and admission (defaulting and
// validation) of registered kinds on every write.
//
// Deterministic for tests: the clock is injectable, UIDs come from a counter, generateName
// suffixes are random-looking but seeded. Thread-safe: every call takes one mutex (the HTTP front
// end serves it from several threads).
#pragma once
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rr/client/client.hpp"
#include "rr/client/options.hpp"
#include "rr/client/watch.hpp"
#include "rr/core/errors.hpp"
#include "rr/core/json.hpp"

namespace rr {

struct ClusterOptions {
  // Wall clock by default; tests pin it.
  std::function<std::chrono::system_clock::time_point()> clock;
  // Events kept for watch resume; an older resourceVersion gets 410 Expired.
  std::size_t watch_history = 10000;
  // Namespaced writes need the Namespace object to exist (kubectl realism); off for unit tests.
  bool require_namespaces = false;
  // generateName suffix: "random" 5 chars from Kubernetes' alphabet (seeded), or a counter
  // "-001" style suffix (base + %03d) as reconciler.io's test client does.
  bool counter_generate_name = false;
  std::uint64_t seed = 1;
};

// One write as admission sees it: the object about to be stored (admission may default and prune
// it), the stored object it replaces (nullptr on create) and whether it is a write of the status
// subresource.
struct AdmissionRequest {
  Json& object;
  const Json* old_object = nullptr;
  bool status = false;
};

struct AdmissionResponse {
  std::vector<FieldError> errors;           // any → 422 Invalid with every cause, nothing stored
  std::vector<std::string> unknown_fields;  // pruned fields ("spec.foo"): fieldValidation decides
  std::vector<std::string> warnings;        // returned to the client as they are
  // The version the object was decoded in when not the kind's own (a custom resource sent in a
  // non-storage version): the strict decoding error names it.
  std::string decoded_version;
};

// Who makes the calls of this thread, as authentication established it: the cluster-wide
// admission plugins (the API server's webhooks) see it. The verbs keep rr::Client's signatures, so
// the HTTP front end sets the user beside them for the duration of one request (RequestUserScope).
struct RequestUser {
  std::string name, uid;
  std::vector<std::string> groups;
  std::map<std::string, std::vector<std::string>> extra;
};

class RequestUserScope {
 public:
  explicit RequestUserScope(RequestUser user);
  ~RequestUserScope();
  RequestUserScope(const RequestUserScope&) = delete;
  RequestUserScope& operator=(const RequestUserScope&) = delete;
  // The user of the innermost live scope of this thread, or nullptr.
  static const RequestUser* current();

 private:
  RequestUser user_;
  const RequestUser* previous_;
};

enum class AdmissionOperation { Create, Update, Delete };

// What admission plugins may read of the store while they run (they run under the cluster's
// lock, so they must not call the Cluster's verbs).
class StoreReader {
 public:
  virtual ~StoreReader() = default;
  // The stored object, or nullptr (a cluster-scoped kind ignores the key's namespace).
  virtual const Json* find(const GroupVersionKind& gvk, const ObjectKey& key) const = 0;
  // Every stored object of a kind, sorted by namespace and name.
  virtual std::vector<const Json*> all(const GroupVersionKind& gvk) const = 0;
  // The registered kind (its scope and plural), or nullopt (admission policies' paramKind).
  virtual std::optional<KindInfo> kind(const GroupVersionKind& gvk) const {
    (void)gvk;
    return std::nullopt;
  }
};

// One write as the cluster-wide admission plugins see it (admission.Attributes of the API server).
struct AdmissionAttributes {
  AdmissionOperation operation = AdmissionOperation::Create;
  KindInfo kind;
  std::string subresource;  // "" or "status"
  std::string namespace_;
  std::string name;
  Json* object = nullptr;            // what would be stored; nullptr for a delete. Mutation changes it
  const Json* old_object = nullptr;  // the stored object (update, delete); nullptr on create
  bool dry_run = false;
  const RequestUser* user = nullptr;  // nullptr: a call without a RequestUserScope
  // Read only while the lock is held (not inside `unlocked`).
  const StoreReader* store = nullptr;
  std::vector<std::string>* warnings = nullptr;  // nullptr drops them
  // Runs `call` with the cluster's lock released: for what waits on the network (a webhook may
  // call back into the cluster). The write re-checks what it read once the lock is back: an
  // update whose object changed meanwhile is a 409 Conflict, a patch or delete starts over.
  std::function<void(const std::function<void()>& call)> unlocked;
};

// The cluster-wide admission the API server runs around a kind's own defaulting and validation:
// mutating plugins after defaulting, validating plugins on the object about to be stored. Either
// refuses a write by throwing rr::ApiError (its Status goes back to the client as it is). Called
// under the cluster's lock, one at a time; AdmissionAttributes::unlocked releases it around calls
// that wait.
class AdmissionPlugin {
 public:
  virtual ~AdmissionPlugin() = default;
  // Whether any mutating plugin is configured now: the cluster defaults the object once more
  // before mutation only then (so a write without webhooks costs nothing extra).
  virtual bool mutates(const StoreReader& store) = 0;
  // The same for a write of one kind: a plugin that mutates only some kinds (ServiceAccount: Pods)
  // says no for the others, so their writes are not defaulted twice.
  virtual bool mutates_kind(const StoreReader& store, const GroupVersionKind& gvk) {
    (void)gvk;
    return mutates(store);
  }
  virtual void mutate(const AdmissionAttributes& attributes) = 0;
  virtual void validate(const AdmissionAttributes& attributes) = 0;
};

class Cluster {
 public:
  // Defaulting and validation on write of the main resource, as a generated type runs them:
  // mutates `object` (defaults) and returns the findings (any → 422 Invalid, nothing stored).
  using AdmitFn = std::function<std::vector<FieldError>(Json& object)>;
  // Admission of every write, the status subresource's too, with the old object (transition
  // rules, ratcheting) and pruning: what a CRD's schema does (rr::schema).
  using AdmissionFn = std::function<AdmissionResponse(const AdmissionRequest& request)>;

  explicit Cluster(ClusterOptions options = {});
  ~Cluster();
  Cluster(const Cluster&) = delete;
  Cluster& operator=(const Cluster&) = delete;

  // Kinds the server serves. Writes to an unregistered kind → 404 NotFound.
  void register_kind(KindInfo info, AdmitFn admit = {});
  void register_kind(KindInfo info, AdmissionFn admission);
  // Registers a generated kind; admission calls its apply_defaults() and validate().
  template <Object T>
  void register_kind();
  std::optional<KindInfo> find_kind(const GroupVersionKind& gvk) const;
  std::optional<KindInfo> find_kind_by_plural(std::string_view group, std::string_view plural) const;
  std::vector<KindInfo> kinds() const;

  // A custom resource kind's selectableFields ("spec.color"): field selectors of lists and watches
  // it accepts besides metadata.name and metadata.namespace. Nothing for an unregistered kind.
  void set_selectable_fields(const GroupVersionKind& gvk, std::vector<std::string> fields);

  // The schema server-side apply and every write's managedFields read list and map types from
  // (x-kubernetes-list-type, -list-map-keys, -map-type; docs/runtime/23-server-side-apply.md):
  // `root` is the kind's OpenAPI v3 schema node, `definitions` (may be null) what its $refs
  // ("#/components/schemas/<name>") name. A null or empty root forgets it: lists are then typed
  // by their member's name. Nothing for an unregistered kind; registering again keeps it.
  void set_apply_schema(const GroupVersionKind& gvk, std::shared_ptr<const Json> definitions, Json root);

  // The cluster-wide admission (the API server's webhooks); nullptr removes it.
  void set_admission_plugin(std::shared_ptr<AdmissionPlugin> plugin);

  // The API (same contracts as rr::Client; errors throw rr::ApiError).
  Json get(const KindInfo& kind, const ObjectKey& key) const;
  Json list(const KindInfo& kind, const ListOptions& opts) const;
  Json create(const KindInfo& kind, const Json& object, const WriteOptions& opts = {});
  Json update(const KindInfo& kind, const Json& object, const WriteOptions& opts = {});
  Json update_status(const KindInfo& kind, const Json& object, const WriteOptions& opts = {});
  Json patch(const KindInfo& kind, const ObjectKey& key, PatchType type, std::string_view body,
             std::string_view subresource = {}, const WriteOptions& opts = {});
  Json remove(const KindInfo& kind, const ObjectKey& key, const DeleteOptions& opts = {});
  void remove_collection(const KindInfo& kind, const ListOptions& list, const DeleteOptions& opts = {});
  std::unique_ptr<Watch> watch(const KindInfo& kind, const ListOptions& opts);

  // A CRD's new storage version takes over its old one's objects: each of `converted` (an object
  // of `from`, converted to `to`'s version) replaces the object of `from` it was read from, as
  // stored (resourceVersion, uid kept; no watch events: nothing changed for clients), unless that
  // object changed since. Returns how many moved.
  std::size_t move_objects(const KindInfo& from, const KindInfo& to, const std::vector<Json>& converted);

  // Puts an object in the store as it is (a test's given object): keeps its resourceVersion
  // (default "999"), uid (default generated), creationTimestamp (default 1970-01-01T00:00:01Z);
  // no admission, no events. The global resourceVersion moves past any numeric seeded one.
  // Refuses (std::invalid_argument) a terminating object without finalizers.
  void seed(const KindInfo& kind, Json object);
  // The current global resourceVersion.
  std::string resource_version() const;
  std::chrono::system_clock::time_point now() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// rr::Client served by a Cluster in the same process.
class ClusterClient : public Client {
 public:
  explicit ClusterClient(std::shared_ptr<Cluster> cluster);
  const std::shared_ptr<Cluster>& cluster() const noexcept { return cluster_; }

 protected:
  KindInfo do_kind_info(const GroupVersionKind& gvk) const override;
  Json do_get(const KindInfo& kind, const ObjectKey& key) override;
  Json do_list(const KindInfo& kind, const ListOptions& opts) override;
  Json do_create(const KindInfo& kind, const Json& object, const WriteOptions& opts) override;
  Json do_update(const KindInfo& kind, const Json& object, const WriteOptions& opts) override;
  Json do_update_status(const KindInfo& kind, const Json& object, const WriteOptions& opts) override;
  Json do_patch(const KindInfo& kind, const ObjectKey& key, PatchType type, std::string_view body,
                std::string_view subresource, const WriteOptions& opts) override;
  Json do_remove(const KindInfo& kind, const ObjectKey& key, const DeleteOptions& opts) override;
  void do_remove_collection(const KindInfo& kind, const ListOptions& list, const DeleteOptions& opts) override;
  std::unique_ptr<Watch> do_watch(const KindInfo& kind, const ListOptions& opts) override;

 private:
  std::shared_ptr<Cluster> cluster_;
};

template <Object T>
void Cluster::register_kind() {
  AdmitFn admit;
  if constexpr (requires(T& t) { t.apply_defaults(); t.validate(); }) {
    admit = [](Json& object) {
      T typed = from_object_json<T>(object);
      typed.apply_defaults();
      auto findings = typed.validate();
      object = to_object_json(typed);
      return findings;
    };
  }
  register_kind(kind_info_of<T>(), std::move(admit));
}

}  // namespace rr
