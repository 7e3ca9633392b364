// The shared informer cache: one informer per kind, each on its own thread while the cache runs.
#include "rr/controller/informer_cache.hpp"

#include <algorithm>

#include "field_matcher.hpp"
#include "rr/client/call_deadline.hpp"
#include "rr/client/client.hpp"
#include "rr/client/label_selector.hpp"

namespace rr {

namespace {

std::map<std::string, std::string> labels_of(const Json& object) {
  std::map<std::string, std::string> labels;
  auto meta = object.find("metadata");
  if (meta == object.end() || !meta->is_object()) return labels;
  auto it = meta->find("labels");
  if (it == meta->end() || !it->is_object()) return labels;
  for (const auto& [k, v] : it->items()) {
    if (v.is_string()) labels.emplace(k, v.get<std::string>());
  }
  return labels;
}

// Selector grammar errors are the client's fault: 400, as the API server answers them.
template <class S>
S parse_selector(std::string_view text) {
  try {
    return S::parse(text);
  } catch (const std::invalid_argument& e) {
    throw ApiError(api_errors::bad_request(e.what()));
  }
}

// The namespaces a kind is cached from: its own, else the cache's; sorted, without repeats.
std::vector<std::string> cached_namespaces(const InformerCacheOptions& cache, const KindInfo& kind) {
  if (!kind.namespaced()) return {};
  auto it = cache.by_kind.find(kind.gvk);
  if (it != cache.by_kind.end() && it->second.namespace_) return {};  // one namespace, the old way
  std::vector<std::string> out = it != cache.by_kind.end() && it->second.namespaces ? *it->second.namespaces
                                                                                    : cache.namespaces;
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

InformerOptions options_for(const InformerCacheOptions& cache, const KindInfo& info) {
  InformerOptions options = cache.informer;
  options.namespaces = cached_namespaces(cache, info);
  if (options.namespaces.size() == 1) {
    options.namespace_ = options.namespaces.front();  // one stream, whose version lists may report
    options.namespaces.clear();
  }
  auto it = cache.by_kind.find(info.gvk);
  if (it == cache.by_kind.end()) return options;
  const KindCacheOptions& kind = it->second;
  if (kind.namespace_) options.namespace_ = *kind.namespace_;
  if (kind.label_selector) options.label_selector = *kind.label_selector;
  if (kind.field_selector) options.field_selector = *kind.field_selector;
  if (kind.transform) options.transform = *kind.transform;
  if (kind.metadata_only) options.metadata_only = *kind.metadata_only;
  return options;
}

}  // namespace

InformerCache::InformerCache(std::shared_ptr<Client> client, InformerCacheOptions options)
    : client_(std::move(client)), options_(std::move(options)) {
  if (!client_) throw std::invalid_argument("rr::InformerCache needs a client");
  options_.informer.resync_period = options_.resync_period;
}

InformerCache::~InformerCache() {
  std::vector<std::jthread> threads;
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    threads.swap(threads_);
  }
  // jthread's destructor requests stop and joins.
}

void InformerCache::launch_locked(const std::shared_ptr<Informer>& informer) {
  threads_.emplace_back([informer](std::stop_token stop) { informer->run(std::move(stop)); });
}

std::shared_ptr<Informer> InformerCache::get_or_create(const KindInfo& kind) {
  std::lock_guard lock(mutex_);
  return get_or_create_locked(kind, options_for(options_, kind));
}

std::shared_ptr<Informer> InformerCache::get_or_create_locked(const KindInfo& kind, InformerOptions options) {
  auto [it, inserted] = informers_.try_emplace(kind.gvk);
  if (inserted) {
    it->second = std::make_shared<Informer>(client_, kind, std::move(options));
    if (started_ && !stopping_) launch_locked(it->second);
  }
  return it->second;
}

std::shared_ptr<Informer> InformerCache::metadata_informer(const KindInfo& kind) {
  std::lock_guard lock(mutex_);
  if (auto it = informers_.find(kind.gvk); it != informers_.end() && it->second->metadata_only()) {
    return it->second;
  }
  InformerOptions options = options_for(options_, kind);
  if (options.metadata_only) return get_or_create_locked(kind, std::move(options));
  auto [it, inserted] = metadata_informers_.try_emplace(kind.gvk);
  if (inserted) {
    options.metadata_only = true;
    it->second = std::make_shared<Informer>(client_, kind, std::move(options));
    if (started_ && !stopping_) launch_locked(it->second);
  }
  return it->second;
}

std::shared_ptr<Informer> InformerCache::find(const GroupVersionKind& gvk) const {
  std::lock_guard lock(mutex_);
  auto it = informers_.find(gvk);
  return it == informers_.end() ? nullptr : it->second;
}

std::vector<std::shared_ptr<Informer>> InformerCache::informers() const {
  std::lock_guard lock(mutex_);
  std::vector<std::shared_ptr<Informer>> out;
  for (const auto& [gvk, informer] : informers_) out.push_back(informer);
  for (const auto& [gvk, informer] : metadata_informers_) out.push_back(informer);
  return out;
}

void InformerCache::start(std::stop_token stop) {
  std::unique_lock lock(mutex_);
  if (started_) throw std::logic_error("rr::InformerCache started twice");
  started_ = true;
  for (const auto& [gvk, informer] : informers_) launch_locked(informer);
  for (const auto& [gvk, informer] : metadata_informers_) launch_locked(informer);
  started_cv_.notify_all();
  started_cv_.wait(lock, stop, [] { return false; });  // until stop
  stopping_ = true;
  std::vector<std::jthread> threads;
  threads.swap(threads_);
  lock.unlock();
  for (auto& thread : threads) thread.request_stop();
  for (auto& thread : threads) thread.join();
}

bool InformerCache::started() const {
  std::lock_guard lock(mutex_);
  return started_ && !stopping_;
}

bool InformerCache::ready() const {
  if (!started()) return false;
  for (const auto& informer : informers()) {
    if (!informer->has_synced()) return false;
  }
  return true;
}

bool InformerCache::wait_for_sync(const KindInfo& kind, std::stop_token stop,
                                  std::chrono::steady_clock::duration timeout) {
  return wait_for_sync(get_or_create(kind), std::move(stop), timeout);
}

bool InformerCache::wait_for_sync(const std::shared_ptr<Informer>& informer, std::stop_token stop,
                                  std::chrono::steady_clock::duration timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  {
    std::unique_lock lock(mutex_);
    if (!started_cv_.wait_until(lock, stop, deadline, [&] { return started_; })) return false;
  }
  return informer->wait_for_sync(stop, deadline - std::chrono::steady_clock::now());
}

bool InformerCache::wait_for_sync(std::stop_token stop, std::chrono::steady_clock::duration timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  {
    std::unique_lock lock(mutex_);
    if (!started_cv_.wait_until(lock, stop, deadline, [&] { return started_; })) return false;
  }
  for (const auto& informer : informers()) {
    if (!informer->wait_for_sync(stop, deadline - std::chrono::steady_clock::now())) return false;
  }
  return true;
}

std::shared_ptr<Informer> InformerCache::synced_informer(const KindInfo& kind) {
  if (!started()) throw CacheNotStartedError();
  auto informer = get_or_create(kind);
  if (informer->has_synced()) return informer;
  // The wait ends by the reconcile's deadline too (rr/client/call_deadline.hpp).
  auto timeout = options_.read_sync_timeout;
  const auto deadline = CallDeadline::current();
  const bool deadline_first = deadline && *deadline - std::chrono::steady_clock::now() < timeout;
  if (deadline_first) timeout = std::max(*deadline - std::chrono::steady_clock::now(), timeout.zero());
  if (!informer->wait_for_sync(std::stop_token{}, timeout)) {
    if (deadline_first) throw deadline_exceeded("waiting for the " + kind.gvk.kind + " informer to sync");
    throw std::runtime_error("timed out waiting for the " + kind.gvk.kind + " informer to sync");
  }
  return informer;
}

std::vector<std::string> InformerCache::namespaces_of(const KindInfo& kind) const {
  return cached_namespaces(options_, kind);
}

Json InformerCache::get(const KindInfo& kind, const ObjectKey& key) {
  if (const auto namespaces = namespaces_of(kind);
      !namespaces.empty() && !std::binary_search(namespaces.begin(), namespaces.end(), key.namespace_)) {
    throw CacheNamespaceError("unable to get: " + key.namespace_ + "/" + key.name +
                              " because of unknown namespace for the cache");
  }
  auto informer = synced_informer(kind);
  ObjectKey lookup = key;
  if (!kind.namespaced()) lookup.namespace_.clear();
  if (auto object = informer->store().get_stored(lookup)) return object->copy();
  throw ApiError(api_errors::not_found(kind.plural, kind.gvk.group, key.name));
}

Json InformerCache::list(const KindInfo& kind, const ListOptions& opts) {
  if (const auto namespaces = namespaces_of(kind);
      !opts.namespace_.empty() && !namespaces.empty() &&
      !std::binary_search(namespaces.begin(), namespaces.end(), opts.namespace_)) {
    throw CacheNamespaceError("unable to list: " + opts.namespace_ + " because of unknown namespace for the cache");
  }
  auto informer = synced_informer(kind);
  const Selector labels = parse_selector<Selector>(opts.label_selector);
  const FieldSelector fields = parse_selector<FieldSelector>(opts.field_selector);
  const bool one_namespace = kind.namespaced() && !opts.namespace_.empty();
  const std::string_view namespace_ = one_namespace ? std::string_view(opts.namespace_) : std::string_view();
  FieldMatcher matcher = field_matcher(fields,
                                       [&](std::string_view field) { return field_indexer(kind, *informer, field); });
  const auto objects = matcher.indexed
                           ? informer->store().by_index_stored(field_index_name(matcher.indexed->field),
                                                               field_index_value(namespace_, matcher.indexed->value))
                       : one_namespace ? informer->store().by_index_stored(namespace_index, opts.namespace_)
                                       : informer->store().list_stored();
  Json items = Json::array();
  for (const auto& stored : objects) {
    if (opts.limit > 0 && static_cast<std::int64_t>(items.size()) >= opts.limit) break;
    Json object = stored.copy();
    if (!labels.empty() && !labels.matches(labels_of(object))) continue;
    if (!matcher.matches(object)) continue;
    items.push_back(std::move(object));
  }
  return Json{{"apiVersion", kind.gvk.api_version()},
              {"kind", kind.list_kind},
              {"metadata", {{"resourceVersion", informer->last_resource_version()}}},
              {"items", std::move(items)}};
}

}  // namespace rr
