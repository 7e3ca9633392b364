// rr::Cluster: every call takes the one mutex and hands over to the Store.
#include "rr/cluster/cluster.hpp"

#include <mutex>
#include <utility>

#include "apply_schema.hpp"
#include "store.hpp"
#include "typed_admission.hpp"
#include "watch_channel.hpp"

namespace rr {

struct Cluster::State {
  explicit State(ClusterOptions options) : store(std::move(options)) {}
  mutable std::mutex mutex;
  cluster_detail::Store store;
};

namespace {

// Unlocks a mutex its caller holds for the life of the scope.
class Unlocked {
 public:
  explicit Unlocked(std::mutex& mutex) : mutex_(mutex) { mutex_.unlock(); }
  ~Unlocked() { mutex_.lock(); }
  Unlocked(const Unlocked&) = delete;
  Unlocked& operator=(const Unlocked&) = delete;

 private:
  std::mutex& mutex_;
};

// A patch or delete whose object changed while a webhook was called starts over, as the API
// server's optimistic update loop does.
constexpr int raced_write_attempts = 5;

}  // namespace

Cluster::Cluster(ClusterOptions options) : state_(std::make_unique<State>(std::move(options))) {
  state_->store.set_unlocker([state = state_.get()](const std::function<void()>& call) {
    Unlocked unlocked(state->mutex);
    call();
  });
}
Cluster::~Cluster() = default;

void Cluster::register_kind(KindInfo info, AdmitFn admit) {
  AdmissionFn admission = cluster_detail::typed_admission(info.gvk, std::move(admit));
  register_kind(std::move(info), std::move(admission));
}

void Cluster::register_kind(KindInfo info, AdmissionFn admission) {
  std::lock_guard lock(state_->mutex);
  state_->store.register_kind(std::move(info), std::move(admission));
}

void Cluster::set_selectable_fields(const GroupVersionKind& gvk, std::vector<std::string> fields) {
  std::lock_guard lock(state_->mutex);
  state_->store.set_selectable_fields(gvk, std::move(fields));
}

void Cluster::set_apply_schema(const GroupVersionKind& gvk, std::shared_ptr<const Json> definitions, Json root) {
  auto schema = std::make_shared<const cluster_detail::ApplySchema>(
      cluster_detail::ApplySchema{std::move(definitions), std::move(root)});
  std::lock_guard lock(state_->mutex);
  state_->store.set_apply_schema(gvk, !schema->root.is_object() || schema->root.empty() ? nullptr : std::move(schema));
}

void Cluster::set_admission_plugin(std::shared_ptr<AdmissionPlugin> plugin) {
  std::lock_guard lock(state_->mutex);
  state_->store.set_admission_plugin(std::move(plugin));
}

namespace {
thread_local const RequestUser* current_user = nullptr;
}  // namespace

RequestUserScope::RequestUserScope(RequestUser user) : user_(std::move(user)), previous_(current_user) {
  current_user = &user_;
}

RequestUserScope::~RequestUserScope() { current_user = previous_; }

const RequestUser* RequestUserScope::current() { return current_user; }

std::optional<KindInfo> Cluster::find_kind(const GroupVersionKind& gvk) const {
  std::lock_guard lock(state_->mutex);
  const auto* entry = state_->store.find_kind(gvk);
  return entry ? std::optional<KindInfo>(entry->info) : std::nullopt;
}

std::optional<KindInfo> Cluster::find_kind_by_plural(std::string_view group, std::string_view plural) const {
  std::lock_guard lock(state_->mutex);
  const auto* entry = state_->store.find_kind_by_plural(group, plural);
  return entry ? std::optional<KindInfo>(entry->info) : std::nullopt;
}

std::vector<KindInfo> Cluster::kinds() const {
  std::lock_guard lock(state_->mutex);
  return state_->store.kinds();
}

Json Cluster::get(const KindInfo& kind, const ObjectKey& key) const {
  std::lock_guard lock(state_->mutex);
  return state_->store.get(kind, key);
}

Json Cluster::list(const KindInfo& kind, const ListOptions& opts) const {
  std::lock_guard lock(state_->mutex);
  return state_->store.list(kind, opts);
}

Json Cluster::create(const KindInfo& kind, const Json& object, const WriteOptions& opts) {
  std::lock_guard lock(state_->mutex);
  return state_->store.create(kind, object, opts);
}

Json Cluster::update(const KindInfo& kind, const Json& object, const WriteOptions& opts) {
  std::lock_guard lock(state_->mutex);
  return state_->store.update(kind, object, opts);
}

Json Cluster::update_status(const KindInfo& kind, const Json& object, const WriteOptions& opts) {
  std::lock_guard lock(state_->mutex);
  return state_->store.update_status(kind, object, opts);
}

Json Cluster::patch(const KindInfo& kind, const ObjectKey& key, PatchType type, std::string_view body,
                    std::string_view subresource, const WriteOptions& opts) {
  for (int attempt = 1;; ++attempt) {
    std::lock_guard lock(state_->mutex);
    try {
      return state_->store.patch(kind, key, type, body, subresource, opts);
    } catch (const cluster_detail::RacedWrite&) {
      if (attempt == raced_write_attempts) throw;
    }
  }
}

Json Cluster::remove(const KindInfo& kind, const ObjectKey& key, const DeleteOptions& opts) {
  for (int attempt = 1;; ++attempt) {
    std::lock_guard lock(state_->mutex);
    try {
      return state_->store.remove(kind, key, opts);
    } catch (const cluster_detail::RacedWrite&) {
      if (attempt == raced_write_attempts) throw;
    }
  }
}

void Cluster::remove_collection(const KindInfo& kind, const ListOptions& list, const DeleteOptions& opts) {
  std::lock_guard lock(state_->mutex);
  state_->store.remove_collection(kind, list, opts);
}

std::unique_ptr<Watch> Cluster::watch(const KindInfo& kind, const ListOptions& opts) {
  std::lock_guard lock(state_->mutex);
  return std::make_unique<cluster_detail::ClusterWatch>(state_->store.watch(kind, opts));
}

std::size_t Cluster::move_objects(const KindInfo& from, const KindInfo& to, const std::vector<Json>& converted) {
  std::lock_guard lock(state_->mutex);
  return state_->store.move_objects(from, to, converted);
}

void Cluster::seed(const KindInfo& kind, Json object) {
  std::lock_guard lock(state_->mutex);
  state_->store.seed(kind, std::move(object));
}

std::string Cluster::resource_version() const {
  std::lock_guard lock(state_->mutex);
  return state_->store.resource_version();
}

std::chrono::system_clock::time_point Cluster::now() const {
  std::lock_guard lock(state_->mutex);
  return state_->store.now();
}

}  // namespace rr
