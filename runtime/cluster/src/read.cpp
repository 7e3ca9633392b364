// GET and LIST.
#include "continue_token.hpp"
#include "errors.hpp"
#include "object_filter.hpp"
#include "rr/client/resource_version.hpp"
#include "store.hpp"

namespace rr::cluster_detail {

Json Store::get(const KindInfo& kind, const ObjectKey& key) const {
  const KindEntry& entry = served(kind);
  auto it = entry.objects.find(storage_key(entry, key));
  if (it == entry.objects.end()) fail(not_found(entry.info, key.name));
  return it->second;
}

Json Store::list(const KindInfo& kind, const ListOptions& opts) const {
  const KindEntry& entry = served(kind);
  // Any state satisfies a well-formed version (the newest one is served); a malformed one fails.
  if (const ParsedResourceVersion rv = parse_resource_version(opts.resource_version); !rv.error.empty()) {
    fail(api_errors::malformed_query_resource_version(opts.resource_version, rv));
  }
  const ObjectFilter filter = ObjectFilter::from(entry, opts);
  // Objects are sorted by namespace then name: a namespaced list reads only its namespace's range
  // (a controller lists one namespace per reconcile; a full scan would make that O(cluster)).
  const bool one_namespace = entry.info.namespaced() && !opts.namespace_.empty();
  auto from = one_namespace ? entry.objects.lower_bound(ObjectKey{opts.namespace_, ""}) : entry.objects.begin();
  if (!opts.continue_.empty()) {
    auto token = ContinueToken::decode(opts.continue_);
    if (!token) fail(api_errors::bad_request("continue key is not valid: " + opts.continue_));
    // Later pages read the current state after the last key (no snapshot of the first page's version).
    auto after = entry.objects.upper_bound(token->last);
    if (!one_namespace || after == entry.objects.end() ||
        (from != entry.objects.end() && !(after->first < from->first))) {
      from = after;
    }
  }

  Json items = Json::array();
  std::optional<ObjectKey> last;
  std::int64_t remaining = 0;
  for (auto it = from; it != entry.objects.end(); ++it) {
    if (one_namespace && it->first.namespace_ != opts.namespace_) break;
    if (!filter.matches(it->second)) continue;
    if (opts.limit > 0 && static_cast<std::int64_t>(items.size()) >= opts.limit) {
      ++remaining;
      continue;
    }
    items.push_back(it->second);
    last = it->first;
  }

  Json meta = {{"resourceVersion", resource_version()}};
  if (remaining > 0 && last) {
    meta["continue"] = ContinueToken{resource_version_, *last}.encode();
    meta["remainingItemCount"] = remaining;
  }
  return Json{{"apiVersion", entry.info.gvk.api_version()},
              {"kind", entry.info.list_kind},
              {"metadata", std::move(meta)},
              {"items", std::move(items)}};
}

}  // namespace rr::cluster_detail
