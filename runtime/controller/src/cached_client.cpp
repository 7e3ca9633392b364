// The cached client: reads from the informer cache, everything else through the API client.
#include "rr/controller/cached_client.hpp"

#include <algorithm>
#include <charconv>
#include <stdexcept>
#include <thread>

#include "rr/client/api_error.hpp"
#include "rr/client/call_deadline.hpp"
#include "rr/core/json.hpp"

namespace rr {

namespace {

// A resourceVersion as the integer Kubernetes' comparable versions are; nullopt otherwise.
std::optional<std::uint64_t> version_number(std::string_view text) {
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::optional<std::uint64_t> version_of(const Json& object) {
  if (!object.is_object()) return std::nullopt;
  auto meta = object.find("metadata");
  if (meta == object.end() || !meta->is_object()) return std::nullopt;
  auto rv = meta->find("resourceVersion");
  return rv != meta->end() && rv->is_string() ? version_number(rv->get<std::string>()) : std::nullopt;
}

// The most entries remembered; beyond it the oldest keys (in key order) are dropped, which only
// turns the wait off for them.
constexpr std::size_t max_written = 4096;

}  // namespace

CachedClient::CachedClient(std::shared_ptr<Client> api, std::shared_ptr<InformerCache> cache,
                           CachedClientOptions options)
    : ForwardingClient(std::move(api)), cache_(std::move(cache)), options_(std::move(options)) {
  // A null API client is refused by ForwardingClient.
  if (!cache_) throw std::invalid_argument("rr::CachedClient needs a cache");
}

bool CachedClient::is_cached(const GroupVersionKind& gvk) const {
  return std::find(options_.uncached.begin(), options_.uncached.end(), gvk) == options_.uncached.end();
}

Json CachedClient::do_get(const KindInfo& kind, const ObjectKey& key) {
  if (!is_cached(kind.gvk)) return ForwardingClient::do_get(kind, key);
  ObjectKey lookup = key;
  if (!kind.namespaced()) lookup.namespace_.clear();
  await_writes(kind, lookup.namespace_, &lookup);
  return cache_->get(kind, key);
}

bool CachedClient::remembering(const KindInfo& kind, bool dry_run) const {
  // A dry run changes nothing the cache could reach.
  return !dry_run && options_.read_your_writes_wait.count() > 0 && is_cached(kind.gvk);
}

Json CachedClient::remember(const KindInfo& kind, const WriteOptions& opts, Json answer) {
  if (!remembering(kind, opts.dry_run)) return answer;
  if (const auto version = version_of(answer)) remember_entry(kind, key_of(answer), {*version, false});
  return answer;
}

void CachedClient::remember_entry(const KindInfo& kind, ObjectKey key, Written written) {
  if (!kind.namespaced()) key.namespace_.clear();
  std::lock_guard lock(written_mutex_);
  auto [it, inserted] = written_.try_emplace({kind.gvk, std::move(key)}, written);
  if (!inserted && written.version >= it->second.version) it->second = written;
  if (written_.size() > max_written) written_.erase(written_.begin());
}

bool CachedClient::caught_up(const KindInfo& kind, const ObjectKey& key, const Written& written) {
  // A namespace the cache does not hold (now): no read of it waits.
  if (kind.namespaced() && !cache_->reads_namespace(kind, key.namespace_)) return true;
  std::optional<Json> object;
  try {
    object = cache_->get(kind, key);
  } catch (const CacheNamespaceError&) {
    return true;
  } catch (const ApiError& e) {
    if (!is_not_found(e.status())) throw;
  }
  const auto have = object ? version_of(*object) : std::nullopt;
  // Deleted: gone from the cache, or created again since (a newer version than the delete's).
  if (written.deleted) return !object || (have && *have > written.version);
  if (have && *have >= written.version) return true;
  // Not there, or older: the informer may still have passed the write (the object deleted since).
  const auto informer = cache_->find(kind.gvk);
  const auto reached = informer ? version_number(informer->last_resource_version()) : std::nullopt;
  return reached && *reached >= written.version;
}

void CachedClient::await_writes(const KindInfo& kind, const std::string& namespace_, const ObjectKey* only) {
  std::vector<std::pair<ObjectKey, Written>> pending;
  {
    std::lock_guard lock(written_mutex_);
    for (auto it = written_.lower_bound({kind.gvk, ObjectKey{}}); it != written_.end() && it->first.first == kind.gvk;
         ++it) {
      const ObjectKey& key = it->first.second;
      const bool wanted = only ? key == *only : namespace_.empty() || key.namespace_ == namespace_;
      if (wanted) pending.emplace_back(key, it->second);
    }
  }
  // Drops what the cache has caught up with, and forgets it unless written again meanwhile.
  auto settle = [&] {
    std::erase_if(pending, [&](const std::pair<ObjectKey, Written>& entry) {
      if (!caught_up(kind, entry.first, entry.second)) return false;
      std::lock_guard lock(written_mutex_);
      auto it = written_.find({kind.gvk, entry.first});
      if (it != written_.end() && it->second.version <= entry.second.version) written_.erase(it);
      return true;
    });
    return pending.empty();
  };
  if (settle()) return;
  if (options_.on_stale) options_.on_stale(kind, pending.front().first);
  const auto wait_end = std::chrono::steady_clock::now() + options_.read_your_writes_wait;
  const auto call_deadline = CallDeadline::current();
  const bool deadline_first = call_deadline && *call_deadline < wait_end;
  const auto end = deadline_first ? *call_deadline : wait_end;
  for (auto now = std::chrono::steady_clock::now(); now < end; now = std::chrono::steady_clock::now()) {
    std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(std::chrono::milliseconds(5), end - now));
    if (settle()) return;
  }
  const auto& [stale, written] = pending.front();
  const std::string what = written.deleted ? "the delete of " + kind.gvk.kind + " " + stale.str()
                                           : "resourceVersion " + std::to_string(written.version) + " of " +
                                                 kind.gvk.kind + " " + stale.str();
  if (deadline_first) throw deadline_exceeded("waiting for the cache to observe " + what);
  throw StaleCacheError("the cache has not yet observed " + what + ", written by this client");
}

Json CachedClient::do_remove(const KindInfo& kind, const ObjectKey& key, const DeleteOptions& opts) {
  if (!remembering(kind, opts.dry_run)) return ForwardingClient::do_remove(kind, key, opts);
  // The cached version, for an answer without one (a Status): the object is gone from the cache
  // once no copy of that version or older is left.
  std::optional<std::uint64_t> cached;
  if (const auto informer = cache_->find(kind.gvk)) {
    ObjectKey lookup = key;
    if (!kind.namespaced()) lookup.namespace_.clear();
    if (const auto stored = informer->store().get_stored(lookup)) cached = version_of(stored->copy());
  }
  Json answer = ForwardingClient::do_remove(kind, key, opts);
  const bool object = answer.is_object() && answer.value("kind", "") != "Status";
  const Json* meta = object && answer.contains("metadata") ? &answer["metadata"] : nullptr;
  if (meta && meta->is_object() && meta->contains("deletionTimestamp") && meta->contains("finalizers") &&
      !(*meta)["finalizers"].empty()) {
    return remember(kind, WriteOptions{}, std::move(answer));  // still there, terminating: an update
  }
  // Removed: the answer's version is the delete's (the API server's, as etcd's, is the revision
  // that removed it), else the cached copy's.
  if (const auto version = object ? version_of(answer) : cached) remember_entry(kind, key, {*version, true});
  return answer;
}

Json CachedClient::do_create(const KindInfo& kind, const Json& object, const WriteOptions& opts) {
  return remember(kind, opts, ForwardingClient::do_create(kind, object, opts));
}

Json CachedClient::do_update(const KindInfo& kind, const Json& object, const WriteOptions& opts) {
  return remember(kind, opts, ForwardingClient::do_update(kind, object, opts));
}

Json CachedClient::do_update_status(const KindInfo& kind, const Json& object, const WriteOptions& opts) {
  return remember(kind, opts, ForwardingClient::do_update_status(kind, object, opts));
}

Json CachedClient::do_patch(const KindInfo& kind, const ObjectKey& key, PatchType type, std::string_view body,
                            std::string_view subresource, const WriteOptions& opts) {
  return remember(kind, opts, ForwardingClient::do_patch(kind, key, type, body, subresource, opts));
}

Json CachedClient::do_list(const KindInfo& kind, const ListOptions& opts) {
  if (!is_cached(kind.gvk)) return ForwardingClient::do_list(kind, opts);
  await_writes(kind, kind.namespaced() ? opts.namespace_ : std::string(), nullptr);
  return cache_->list(kind, opts);
}

bool CachedClient::do_has_field_index(const KindInfo& kind, std::string_view field) const {
  return is_cached(kind.gvk) ? cache_->has_field_index(kind.gvk, field)
                             : ForwardingClient::do_has_field_index(kind, field);
}

}  // namespace rr
