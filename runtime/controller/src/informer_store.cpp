// The informer's indexed object store.
#include "rr/controller/informer_store.hpp"

#include <stdexcept>

#include "rr/client/client.hpp"  // key_of(Json)

namespace rr {

namespace {

std::vector<std::string> namespace_of(const Json& object) { return {key_of(object).namespace_}; }

std::shared_ptr<const std::string> compact_text(const Json& object) {
  std::string text = object.dump();
  text.shrink_to_fit();  // dump() grows its buffer by doubling: up to 2× the text otherwise
  return std::make_shared<const std::string>(std::move(text));
}

// What the read paths hand out, one per entry: the views (get/list/by_index) or the stored objects
// (the *_stored twins) of every entry, or of the entries an index lists under one value.
template <class Objects, class Read>
auto read_all(const Objects& objects, Read read) {
  std::vector<decltype(read(objects.begin()->second))> out;
  out.reserve(objects.size());
  for (const auto& [key, entry] : objects) out.push_back(read(entry));
  return out;
}

template <class Index, class Objects, class Read>
auto read_indexed(const Index& index, std::string_view value, const Objects& objects, Read read) {
  std::vector<decltype(read(objects.begin()->second))> out;
  auto keys = index.find(value);
  if (keys == index.end()) return out;
  out.reserve(keys->second.size());
  for (const auto& key : keys->second) out.push_back(read(objects.find(key)->second));
  return out;
}

}  // namespace

ObjectStore::ObjectStore(std::size_t decoded_cache_bytes) : decoded_cache_bytes_(decoded_cache_bytes) {
  index_fns_.emplace(std::string(namespace_index), namespace_of);
  indexes_.emplace(std::string(namespace_index), Index{});
}

SharedObject ObjectStore::view_locked(const Entry& entry) const {
  {
    std::lock_guard lock(decoded_mutex_);
    if (auto view = entry.decoded.lock()) return view;
  }
  // Two readers may both decode: each gets a correct view, the last one is remembered.
  auto view = std::make_shared<const Json>(Json::parse(*entry.text));
  std::lock_guard lock(decoded_mutex_);
  entry.decoded = view;
  const std::size_t bytes = entry.text->size();
  if (bytes <= decoded_cache_bytes_) {
    recent_.emplace_back(view, bytes);
    recent_bytes_ += bytes;
    while (recent_bytes_ > decoded_cache_bytes_) {
      recent_bytes_ -= recent_.front().second;
      recent_.pop_front();
    }
  }
  return view;
}

StoredObject ObjectStore::stored_locked(const Entry& entry) const {
  {
    std::lock_guard lock(decoded_mutex_);
    if (auto view = entry.decoded.lock()) return StoredObject{std::move(view), entry.text};
  }
  // With views kept for later reads, decode into one: the next read of the object is a copy.
  if (decoded_cache_bytes_ > 0) return StoredObject{view_locked(entry), entry.text};
  return StoredObject{nullptr, entry.text};
}

const ObjectStore::Index& ObjectStore::index_named(std::string_view index) const {
  auto idx = indexes_.find(index);
  if (idx == indexes_.end()) throw std::invalid_argument("no index named \"" + std::string(index) + "\"");
  return idx->second;
}

void ObjectStore::add_index(std::string name, IndexFn fn) {
  if (!fn) throw std::invalid_argument("index \"" + name + "\" has no function");
  std::unique_lock lock(mutex_);
  if (index_fns_.contains(name)) throw std::invalid_argument("index \"" + name + "\" already exists");
  Index& index = indexes_[name];
  for (auto& [key, entry] : objects_) {
    auto values = fn(*view_locked(entry));
    for (const auto& value : values) index[value].insert(key);
    entry.indexed_under[name] = std::move(values);
  }
  index_fns_.emplace(std::move(name), std::move(fn));
}

bool ObjectStore::has_index(std::string_view name) const {
  std::shared_lock lock(mutex_);
  return index_fns_.find(name) != index_fns_.end();
}

void ObjectStore::index_locked(const ObjectKey& key, const Json& object, Entry& entry) {
  for (const auto& [name, fn] : index_fns_) {
    auto values = fn(object);
    Index& index = indexes_.find(name)->second;
    for (const auto& value : values) index[value].insert(key);
    entry.indexed_under[name] = std::move(values);
  }
}

void ObjectStore::unindex_locked(const ObjectKey& key, const Entry& entry) {
  for (const auto& [name, values] : entry.indexed_under) {
    Index& index = indexes_.find(name)->second;
    for (const auto& value : values) {
      auto it = index.find(value);
      if (it == index.end()) continue;
      it->second.erase(key);
      if (it->second.empty()) index.erase(it);
    }
  }
}

SharedObject ObjectStore::upsert(Json object) {
  const ObjectKey key = key_of(object);
  Entry entry{compact_text(object), {}, {}};
  std::unique_lock lock(mutex_);
  SharedObject previous;
  if (auto it = objects_.find(key); it != objects_.end()) {
    previous = view_locked(it->second);
    unindex_locked(key, it->second);
    text_bytes_ -= it->second.text->size();
    objects_.erase(it);
  }
  index_locked(key, object, entry);
  text_bytes_ += entry.text->size();
  objects_.emplace(key, std::move(entry));
  return previous;
}

SharedObject ObjectStore::erase(const ObjectKey& key) {
  std::unique_lock lock(mutex_);
  auto it = objects_.find(key);
  if (it == objects_.end()) return nullptr;
  SharedObject previous = view_locked(it->second);
  unindex_locked(key, it->second);
  text_bytes_ -= it->second.text->size();
  objects_.erase(it);
  return previous;
}

SharedObject ObjectStore::get(const ObjectKey& key) const {
  std::shared_lock lock(mutex_);
  auto it = objects_.find(key);
  return it == objects_.end() ? nullptr : view_locked(it->second);
}

std::vector<SharedObject> ObjectStore::list() const {
  std::shared_lock lock(mutex_);
  return read_all(objects_, [this](const Entry& entry) { return view_locked(entry); });
}

std::vector<SharedObject> ObjectStore::by_index(std::string_view index, std::string_view value) const {
  std::shared_lock lock(mutex_);
  return read_indexed(index_named(index), value, objects_, [this](const Entry& entry) { return view_locked(entry); });
}

std::vector<std::string> ObjectStore::index_values(std::string_view index) const {
  std::shared_lock lock(mutex_);
  std::vector<std::string> out;
  for (const auto& [value, keys] : index_named(index)) out.push_back(value);
  return out;
}

std::map<ObjectKey, SharedObject> ObjectStore::snapshot() const {
  std::shared_lock lock(mutex_);
  std::map<ObjectKey, SharedObject> out;
  for (const auto& [key, entry] : objects_) out.emplace(key, view_locked(entry));
  return out;
}

std::optional<StoredObject> ObjectStore::get_stored(const ObjectKey& key) const {
  std::shared_lock lock(mutex_);
  auto it = objects_.find(key);
  if (it == objects_.end()) return std::nullopt;
  return stored_locked(it->second);
}

std::vector<StoredObject> ObjectStore::list_stored() const {
  std::shared_lock lock(mutex_);
  return read_all(objects_, [this](const Entry& entry) { return stored_locked(entry); });
}

std::vector<StoredObject> ObjectStore::by_index_stored(std::string_view index, std::string_view value) const {
  std::shared_lock lock(mutex_);
  return read_indexed(index_named(index), value, objects_, [this](const Entry& entry) { return stored_locked(entry); });
}

std::set<ObjectKey> ObjectStore::keys() const {
  std::shared_lock lock(mutex_);
  std::set<ObjectKey> out;
  for (const auto& entry : objects_) out.insert(out.end(), entry.first);
  return out;
}

std::size_t ObjectStore::size() const {
  std::shared_lock lock(mutex_);
  return objects_.size();
}

std::size_t ObjectStore::text_bytes() const {
  std::shared_lock lock(mutex_);
  return text_bytes_;
}

}  // namespace rr
