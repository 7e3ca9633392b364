// The cached client: reads from the informer cache, everything else through the API client.
#include "rr/controller/cached_client.hpp"

#include <algorithm>
#include <stdexcept>

namespace rr {

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
  return is_cached(kind.gvk) ? cache_->get(kind, key) : ForwardingClient::do_get(kind, key);
}

Json CachedClient::do_list(const KindInfo& kind, const ListOptions& opts) {
  return is_cached(kind.gvk) ? cache_->list(kind, opts) : ForwardingClient::do_list(kind, opts);
}

bool CachedClient::do_has_field_index(const KindInfo& kind, std::string_view field) const {
  return is_cached(kind.gvk) ? cache_->has_field_index(kind.gvk, field)
                             : ForwardingClient::do_has_field_index(kind, field);
}

}  // namespace rr
