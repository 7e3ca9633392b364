// The cached client: reads from the informer cache, everything else through the API client.
#include "rr/controller/cached_client.hpp"

#include <algorithm>
#include <charconv>
#include <stdexcept>
#include <thread>

#include "rr/client/api_error.hpp"
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
  return is_cached(kind.gvk) ? read_your_write(kind, key) : ForwardingClient::do_get(kind, key);
}

Json CachedClient::remember(const KindInfo& kind, const WriteOptions& opts, Json answer) {
  // A dry run changes nothing the cache could reach.
  if (opts.dry_run || options_.read_your_writes_wait.count() <= 0 || !is_cached(kind.gvk)) return answer;
  const auto version = version_of(answer);
  if (!version) return answer;
  ObjectKey key = key_of(answer);
  if (!kind.namespaced()) key.namespace_.clear();
  std::lock_guard lock(written_mutex_);
  auto& last = written_[{kind.gvk, std::move(key)}];
  last = std::max(last, *version);
  if (written_.size() > max_written) written_.erase(written_.begin());
  return answer;
}

std::optional<Json> CachedClient::read_at_least(const KindInfo& kind, const ObjectKey& key, std::uint64_t written) {
  try {
    Json object = cache_->get(kind, key);
    if (const auto have = version_of(object); have && *have >= written) return object;
  } catch (const ApiError& e) {
    if (!is_not_found(e.status())) throw;
  }
  // Not there, or older: the informer may still have passed the write (the object deleted since).
  const auto informer = cache_->find(kind.gvk);
  const auto reached = informer ? version_number(informer->last_resource_version()) : std::nullopt;
  if (reached && *reached >= written) return cache_->get(kind, key);  // NotFound is the answer
  return std::nullopt;
}

Json CachedClient::read_your_write(const KindInfo& kind, const ObjectKey& key) {
  ObjectKey lookup = key;
  if (!kind.namespaced()) lookup.namespace_.clear();
  std::optional<std::uint64_t> written;
  {
    std::lock_guard lock(written_mutex_);
    if (auto it = written_.find({kind.gvk, lookup}); it != written_.end()) written = it->second;
  }
  if (!written) return cache_->get(kind, key);
  auto forget = [&] {
    std::lock_guard lock(written_mutex_);
    auto it = written_.find({kind.gvk, lookup});
    if (it != written_.end() && it->second <= *written) written_.erase(it);
  };
  if (auto object = read_at_least(kind, key, *written)) {
    forget();
    return std::move(*object);
  }
  if (options_.on_stale) options_.on_stale(kind, key);
  const auto deadline = std::chrono::steady_clock::now() + options_.read_your_writes_wait;
  while (std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    if (auto object = read_at_least(kind, key, *written)) {
      forget();
      return std::move(*object);
    }
  }
  throw StaleCacheError("the cache has not yet observed resourceVersion " + std::to_string(*written) + " of " +
                        kind.gvk.kind + " " + key.str() + ", written by this client");
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
  return is_cached(kind.gvk) ? cache_->list(kind, opts) : ForwardingClient::do_list(kind, opts);
}

bool CachedClient::do_has_field_index(const KindInfo& kind, std::string_view field) const {
  return is_cached(kind.gvk) ? cache_->has_field_index(kind.gvk, field)
                             : ForwardingClient::do_has_field_index(kind, field);
}

}  // namespace rr
