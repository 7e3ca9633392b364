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

// The kind's own namespaces or namespace_ win over the cache's selector.
bool has_own_namespaces(const InformerCacheOptions& cache, const KindInfo& kind) {
  auto it = cache.by_kind.find(kind.gvk);
  return it != cache.by_kind.end() && (it->second.namespace_ || it->second.namespaces);
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

const KindInfo& namespace_kind() {
  static const KindInfo kind{{"", "v1", "Namespace"}, "namespaces", "NamespaceList", Scope::Cluster, true};
  return kind;
}

// Namespaces are listed and watched whole (metadata only) and matched here: a watch with a label
// selector does not tell that an object stopped matching on every server.
std::vector<std::string> matching_namespaces(const Informer& namespaces, const Selector& selector) {
  std::vector<std::string> out;
  for (const auto& stored : namespaces.store().list_stored()) {
    const Json object = stored.copy();
    if (selector.matches(labels_of(object))) out.push_back(key_of(object).name);
  }
  std::sort(out.begin(), out.end());
  return out;
}

InformerOptions base_options_for(const InformerCacheOptions& cache, const KindInfo& info) {
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
  if (options_.namespace_selector.empty()) return;
  if (!options_.namespaces.empty()) {
    throw std::invalid_argument("rr::InformerCache: namespaces and namespace_selector exclude each other");
  }
  Selector::parse(options_.namespace_selector);  // std::invalid_argument for a bad selector
  InformerOptions watch_namespaces = options_.informer;
  watch_namespaces.namespaces.clear();
  watch_namespaces.namespace_.clear();
  watch_namespaces.label_selector.clear();
  watch_namespaces.field_selector.clear();
  watch_namespaces.transform = {};
  watch_namespaces.metadata_only = true;  // the labels are all it needs
  namespace_informer_ = std::make_shared<Informer>(client_, namespace_kind(), std::move(watch_namespaces));
}

bool InformerCache::selects_namespaces(const KindInfo& kind) const {
  return namespace_informer_ && kind.namespaced() && !has_own_namespaces(options_, kind);
}

InformerOptions InformerCache::options_for(const KindInfo& kind) {
  InformerOptions options = base_options_for(options_, kind);
  if (selects_namespaces(kind)) {
    options.dynamic_namespaces = true;
    options.namespaces.clear();
    options.namespace_.clear();
  }
  auto forward = options.on_forbidden;
  options.on_forbidden = [this, gvk = kind.gvk, forward](std::string_view ns) {
    {
      std::lock_guard lock(mutex_);
      ++forbidden_[{gvk, std::string(ns)}];
    }
    if (forward) forward(ns);
  };
  return options;
}

std::map<std::pair<GroupVersionKind, std::string>, std::uint64_t> InformerCache::forbidden_counts() const {
  std::lock_guard lock(mutex_);
  return forbidden_;
}

std::optional<std::vector<std::string>> InformerCache::selected_namespaces() const {
  std::lock_guard lock(mutex_);
  return selected_;
}

void InformerCache::select_namespaces() {
  std::lock_guard select(select_mutex_);
  const auto selected = matching_namespaces(*namespace_informer_, Selector::parse(options_.namespace_selector));
  std::vector<std::shared_ptr<Informer>> targets;
  {
    std::lock_guard lock(mutex_);
    if (selected_ == selected) return;
    selected_ = selected;
    for (const auto* informers : {&informers_, &metadata_informers_}) {
      for (const auto& [gvk, informer] : *informers) {
        if (selects_namespaces(informer->kind())) targets.push_back(informer);
      }
    }
  }
  // Outside mutex_: a namespace that leaves joins its streams and delivers its objects' deletes.
  for (const auto& informer : targets) informer->set_namespaces(selected);
}

// The Namespace informer runs on this thread; once it has synced the selection is made, then
// every change of a Namespace makes it again.
void InformerCache::run_namespace_selection(std::stop_token stop) {
  std::jthread namespaces([this](std::stop_token s) { namespace_informer_->run(std::move(s)); });
  std::stop_callback stop_namespaces(stop, [&] { namespaces.request_stop(); });
  while (!namespace_informer_->wait_for_sync(stop, std::chrono::seconds(1))) {
    if (stop.stop_requested()) return;
  }
  auto changed = [this](const Json&) { select_namespaces(); };
  // The replay of the listed Namespaces goes to on_initial_add, which does nothing: one selection
  // below covers them all (rather than one per Namespace).
  namespace_informer_->add_handlers({.on_add = changed,
                                     .on_update = [this](const Json&, const Json&) { select_namespaces(); },
                                     .on_delete = changed,
                                     .on_initial_add = [](const Json&) {}});
  select_namespaces();
  std::mutex mutex;
  std::condition_variable_any until_stop;
  std::unique_lock lock(mutex);
  until_stop.wait(lock, stop, [] { return false; });
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
  return get_or_create_locked(kind, options_for(kind));
}

std::shared_ptr<Informer> InformerCache::get_or_create_locked(const KindInfo& kind, InformerOptions options) {
  auto [it, inserted] = informers_.try_emplace(kind.gvk);
  if (inserted) {
    it->second = std::make_shared<Informer>(client_, kind, std::move(options));
    if (selected_ && selects_namespaces(kind)) it->second->set_namespaces(*selected_);  // no stream to stop yet
    if (started_ && !stopping_) launch_locked(it->second);
  }
  return it->second;
}

std::shared_ptr<Informer> InformerCache::metadata_informer(const KindInfo& kind) {
  std::lock_guard lock(mutex_);
  if (auto it = informers_.find(kind.gvk); it != informers_.end() && it->second->metadata_only()) {
    return it->second;
  }
  InformerOptions options = options_for(kind);
  if (options.metadata_only) return get_or_create_locked(kind, std::move(options));
  auto [it, inserted] = metadata_informers_.try_emplace(kind.gvk);
  if (inserted) {
    options.metadata_only = true;
    it->second = std::make_shared<Informer>(client_, kind, std::move(options));
    if (selected_ && selects_namespaces(kind)) it->second->set_namespaces(*selected_);
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
  if (namespace_informer_) threads_.emplace_back([this](std::stop_token s) { run_namespace_selection(std::move(s)); });
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
  if (namespace_informer_ && !selected_namespaces()) return false;
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
  if (namespace_informer_ && !namespace_informer_->wait_for_sync(stop, timeout)) return false;
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
  if (selects_namespaces(kind)) return selected_namespaces().value_or(std::vector<std::string>{});
  return cached_namespaces(options_, kind);
}

bool InformerCache::reads_namespace(const KindInfo& kind, std::string_view ns) const {
  const auto namespaces = namespaces_of(kind);
  if (namespaces.empty() && !selects_namespaces(kind)) return true;  // every namespace
  return std::binary_search(namespaces.begin(), namespaces.end(), ns);
}

Json InformerCache::get(const KindInfo& kind, const ObjectKey& key) {
  const bool selected = selects_namespaces(kind);
  if (!selected && !reads_namespace(kind, key.namespace_)) {
    throw CacheNamespaceError("unable to get: " + key.namespace_ + "/" + key.name +
                              " because of unknown namespace for the cache");
  }
  auto informer = synced_informer(kind);  // with a selector, also until the selection is made
  // A namespace not selected (now) is a miss: its objects left the cache as deletes.
  if (selected && !reads_namespace(kind, key.namespace_)) {
    throw ApiError(api_errors::not_found(kind.plural, kind.gvk.group, key.name));
  }
  ObjectKey lookup = key;
  if (!kind.namespaced()) lookup.namespace_.clear();
  if (auto object = informer->store().get_stored(lookup)) return object->copy();
  throw ApiError(api_errors::not_found(kind.plural, kind.gvk.group, key.name));
}

Json InformerCache::list(const KindInfo& kind, const ListOptions& opts) {
  // With a selector, a namespace not selected lists nothing (the store holds none of its objects).
  if (!opts.namespace_.empty() && !selects_namespaces(kind) && !reads_namespace(kind, opts.namespace_)) {
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
