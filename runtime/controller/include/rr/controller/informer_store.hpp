// The store behind an informer: the objects of one kind by key (namespace/name), with indexes
// (client-go's cache.Indexer). Thread-safe: the informer writes, readers (the cache, the cached
// client) take shared locks.
//
// Memory: an object is kept as its compact JSON text, not as a nlohmann DOM (which takes 5–10×
// the text). A reader gets an immutable shared DOM, decoded from the text on first read and
// shared by every reader while one of them holds it; when the last reader lets go, only the
// text remains. A view stays valid (and unchanged) after the store replaces or drops the object.
#pragma once
#include <cstddef>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rr/client/object_key.hpp"
#include "rr/core/json.hpp"

namespace rr {

// The values an object is indexed under (none: not in the index). Must not throw.
using IndexFn = std::function<std::vector<std::string>(const Json& object)>;

// Built into every store: metadata.namespace ("" for cluster-scoped objects).
inline constexpr std::string_view namespace_index = "namespace";

// A read-only view of a stored object.
using SharedObject = std::shared_ptr<const Json>;

// A stored object for a reader that wants its own copy: the shared view if a reader held one,
// else the stored text, decoded by copy() straight into the copy (no shared view is made).
struct StoredObject {
  SharedObject view;
  std::shared_ptr<const std::string> text;

  Json copy() const { return view ? Json(*view) : Json::parse(*text); }
};

class ObjectStore {
 public:
  // Decoded views of the objects read last stay alive, up to `decoded_cache_bytes` of their JSON
  // text (first in, first out), so that a working set read again and again is decoded once.
  static constexpr std::size_t default_decoded_cache_bytes = std::size_t{1} << 20;
  explicit ObjectStore(std::size_t decoded_cache_bytes = default_decoded_cache_bytes);
  ObjectStore(const ObjectStore&) = delete;
  ObjectStore& operator=(const ObjectStore&) = delete;

  // Adds an index, built at once over the objects already stored. Throws std::invalid_argument
  // when the name is taken.
  void add_index(std::string name, IndexFn fn);
  bool has_index(std::string_view name) const;

  // Writers. Each returns the object previously stored under the key (nullptr if none).
  SharedObject upsert(Json object);
  SharedObject erase(const ObjectKey& key);

  // Readers.
  SharedObject get(const ObjectKey& key) const;
  std::vector<SharedObject> list() const;  // sorted by key
  // Objects indexed under `value`, sorted by key. Throws std::invalid_argument for an unknown index.
  std::vector<SharedObject> by_index(std::string_view index, std::string_view value) const;
  // The values present in an index (sorted).
  std::vector<std::string> index_values(std::string_view index) const;
  std::map<ObjectKey, SharedObject> snapshot() const;
  std::set<ObjectKey> keys() const;  // without decoding anything
  // The same reads for copies: the lock is held only to collect them, copy() decodes outside it.
  std::optional<StoredObject> get_stored(const ObjectKey& key) const;
  std::vector<StoredObject> list_stored() const;
  std::vector<StoredObject> by_index_stored(std::string_view index, std::string_view value) const;
  std::size_t size() const;
  // Bytes of JSON text the store keeps (the objects' compact serialisations).
  std::size_t text_bytes() const;

 private:
  struct Entry {
    std::shared_ptr<const std::string> text;                                     // compact JSON: what the store keeps
    mutable std::weak_ptr<const Json> decoded;                                   // the DOM while a reader holds it
    std::map<std::string, std::vector<std::string>, std::less<>> indexed_under;  // index → values
  };
  using Index = std::map<std::string, std::set<ObjectKey>, std::less<>>;  // value → keys

  void index_locked(const ObjectKey& key, const Json& object, Entry& entry);
  void unindex_locked(const ObjectKey& key, const Entry& entry);
  // The shared DOM of an entry, decoded if no reader holds one. Needs mutex_ (shared is enough).
  SharedObject view_locked(const Entry& entry) const;
  StoredObject stored_locked(const Entry& entry) const;
  const Index& index_named(std::string_view index) const;  // throws for an unknown name

  mutable std::shared_mutex mutex_;
  mutable std::mutex decoded_mutex_;  // guards every Entry::decoded (readers share mutex_)
  std::map<ObjectKey, Entry> objects_;
  std::map<std::string, IndexFn, std::less<>> index_fns_;
  std::map<std::string, Index, std::less<>> indexes_;
  std::size_t text_bytes_ = 0;
  // Views kept alive for later reads, oldest first, and the bytes of text they stand for.
  // Guarded by decoded_mutex_.
  const std::size_t decoded_cache_bytes_;
  mutable std::deque<std::pair<SharedObject, std::size_t>> recent_;
  mutable std::size_t recent_bytes_ = 0;
};

}  // namespace rr
