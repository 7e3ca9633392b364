// The cached client: reads from the informer cache, everything else through the API client.
#include "rr/controller/cached_client.hpp"

#include <algorithm>
#include <stdexcept>

namespace rr {

CachedClient::CachedClient(std::shared_ptr<Client> api, std::shared_ptr<InformerCache> cache,
                           CachedClientOptions options)
    : api_(std::move(api)), cache_(std::move(cache)), options_(std::move(options)) {
  if (!api_ || !cache_) throw std::invalid_argument("rr::CachedClient needs an API client and a cache");
}

bool CachedClient::is_cached(const GroupVersionKind& gvk) const {
  return std::find(options_.uncached.begin(), options_.uncached.end(), gvk) == options_.uncached.end();
}

KindInfo CachedClient::kind_info(const GroupVersionKind& gvk) const { return api_->kind_info(gvk); }

Json CachedClient::get(const KindInfo& kind, const ObjectKey& key) {
  return is_cached(kind.gvk) ? cache_->get(kind, key) : api_->get(kind, key);
}

Json CachedClient::list(const KindInfo& kind, const ListOptions& opts) {
  return is_cached(kind.gvk) ? cache_->list(kind, opts) : api_->list(kind, opts);
}

Json CachedClient::create(const KindInfo& kind, const Json& object, const WriteOptions& opts) {
  return api_->create(kind, object, opts);
}

Json CachedClient::update(const KindInfo& kind, const Json& object, const WriteOptions& opts) {
  return api_->update(kind, object, opts);
}

Json CachedClient::update_status(const KindInfo& kind, const Json& object, const WriteOptions& opts) {
  return api_->update_status(kind, object, opts);
}

Json CachedClient::patch(const KindInfo& kind, const ObjectKey& key, PatchType type, std::string_view body,
                         std::string_view subresource, const WriteOptions& opts) {
  return api_->patch(kind, key, type, body, subresource, opts);
}

Json CachedClient::remove(const KindInfo& kind, const ObjectKey& key, const DeleteOptions& opts) {
  return api_->remove(kind, key, opts);
}

void CachedClient::remove_collection(const KindInfo& kind, const ListOptions& list, const DeleteOptions& opts) {
  api_->remove_collection(kind, list, opts);
}

std::unique_ptr<Watch> CachedClient::watch(const KindInfo& kind, const ListOptions& opts) {
  return api_->watch(kind, opts);
}

}  // namespace rr
