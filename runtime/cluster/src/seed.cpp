// Test setup: objects put in the store as given (controller-runtime's fake client defaults).
#include <charconv>
#include <stdexcept>

#include "object_meta.hpp"
#include "store.hpp"

namespace rr::cluster_detail {

Store::Store(ClusterOptions options) : options_(std::move(options)), random_(options_.seed) {}

void Store::seed(const KindInfo& kind, Json object) {
  auto found = kinds_.find(kind.gvk);
  if (found == kinds_.end()) {
    throw std::invalid_argument("seed: kind " + kind.gvk.api_version() + " " + kind.gvk.kind +
                                " is not registered (call register_kind first)");
  }
  KindEntry& entry = found->second;
  if (!object.is_object()) throw std::invalid_argument("seed: the object is not a JSON object");
  object["apiVersion"] = entry.info.gvk.api_version();
  object["kind"] = entry.info.gvk.kind;
  if (!entry.info.namespaced()) erase_meta(object, "namespace");
  const ObjectKey key = key_of(object);
  if (key.name.empty()) throw std::invalid_argument("seed: a " + entry.info.gvk.kind + " without metadata.name");
  if (is_terminating(object) && finalized(entry, object)) {
    // The API server would already have removed it (as the fake client's tracker refuses it).
    throw std::invalid_argument("seed: " + entry.info.gvk.kind + " " + key.str() +
                                " has a deletionTimestamp but no finalizers");
  }
  if (meta_string(object, "resourceVersion").empty()) set_meta(object, "resourceVersion", "999");
  if (meta_string(object, "uid").empty()) set_meta(object, "uid", next_uid());
  if (meta_string(object, "creationTimestamp").empty()) set_meta(object, "creationTimestamp", "1970-01-01T00:00:01Z");

  const std::string rv = meta_string(object, "resourceVersion");
  std::uint64_t numeric = 0;
  auto [end, ec] = std::from_chars(rv.data(), rv.data() + rv.size(), numeric);
  if (ec == std::errc() && end == rv.data() + rv.size() && numeric > resource_version_) resource_version_ = numeric;

  store_object(entry, key, std::move(object));  // a second seed of the same key replaces the first
}

}  // namespace rr::cluster_detail
