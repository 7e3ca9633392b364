// Where every write lands: a new resourceVersion, the store, the watch history.
#include "object_meta.hpp"
#include "store.hpp"
#include "watch_channel.hpp"

namespace rr::cluster_detail {

Json Store::commit_create(KindEntry& entry, Json object) {
  set_meta(object, "resourceVersion", next_resource_version());
  store_object(entry, storage_key(entry, key_of(object)), object);
  record(Event{resource_version_, entry.info.gvk, WatchEventType::Added, object, nullptr});
  return object;
}

Json Store::commit_update(KindEntry& entry, const Json& previous, Json object) {
  if (is_terminating(object) && finalized(entry, object)) return remove_now(entry, std::move(object));
  set_meta(object, "resourceVersion", next_resource_version());
  store_object(entry, storage_key(entry, key_of(object)), object);
  record(Event{resource_version_, entry.info.gvk, WatchEventType::Modified, object, previous});
  return object;
}

Json Store::remove_now(KindEntry& entry, Json last_state) {
  erase_object(entry, storage_key(entry, key_of(last_state)));
  set_meta(last_state, "resourceVersion", next_resource_version());
  record(Event{resource_version_, entry.info.gvk, WatchEventType::Deleted, last_state, nullptr});
  const std::string uid = meta_string(last_state, "uid");
  removed_uids_.push_back(uid);
  removed_in_call_[uid] = last_state;
  return last_state;
}

void Store::record(Event event) {
  std::erase_if(watchers_, [&](const std::weak_ptr<WatchChannel>& weak) {
    auto channel = weak.lock();
    if (!channel || channel->stopped()) return true;
    channel->offer(event);
    return false;
  });
  history_.push_back(std::move(event));
  while (history_.size() > options_.watch_history) {
    history_floor_ = history_.front().resource_version;
    history_.pop_front();
  }
}

}  // namespace rr::cluster_detail
