// rr/controller/sources.hpp: predicates per watch and the channel source.
#include "rr/controller/sources.hpp"

#include <set>
#include <stdexcept>
#include <utility>

#include "rr/client/client.hpp"
#include "rr/core/json.hpp"
#include "rr/core/meta.hpp"

namespace rr {

ObjectMeta object_metadata(const Json& object) {
  ObjectMeta metadata;
  if (object.is_object() && object.contains("metadata")) from_json(object["metadata"], metadata);
  return metadata;
}

WatchPredicates WatchPredicates::for_kind(std::vector<Predicate> predicates) {
  return WatchPredicates{WatchRequest::Mode::For, {}, std::move(predicates)};
}
WatchPredicates WatchPredicates::owns(GroupVersionKind kind, std::vector<Predicate> predicates) {
  return WatchPredicates{WatchRequest::Mode::Owns, std::move(kind), std::move(predicates)};
}
WatchPredicates WatchPredicates::tracked(GroupVersionKind kind, std::vector<Predicate> predicates) {
  return WatchPredicates{WatchRequest::Mode::Tracked, std::move(kind), std::move(predicates)};
}

ChannelSource::ChannelSource(ChannelSourceOptions options) : options_(std::move(options)) {}
ChannelSource::~ChannelSource() = default;

bool ChannelSource::push(const Json& object) {
  std::lock_guard lock(mutex_);
  if (closed_) return false;
  if (!bound_) {
    if (waiting_.size() >= options_.buffer) return false;
    waiting_.push_back(object);
    return true;
  }
  deliver_locked(object);
  return true;
}

std::size_t ChannelSource::pending() const {
  std::lock_guard lock(mutex_);
  return waiting_.size();
}

bool ChannelSource::closed() const {
  std::lock_guard lock(mutex_);
  return closed_;
}

void ChannelSource::bind(Sink sink) {
  if (!sink) throw std::invalid_argument("rr::ChannelSource::bind needs a sink");
  std::lock_guard lock(mutex_);
  if (bound_) throw std::logic_error("an rr::ChannelSource feeds one controller, once");
  bound_ = true;
  if (closed_) return;
  sink_ = std::move(sink);
  for (const Json& object : waiting_) deliver_locked(object);
  waiting_.clear();
}

void ChannelSource::close() {
  std::lock_guard lock(mutex_);
  closed_ = true;
  sink_ = nullptr;
  waiting_.clear();
}

// Under the lock, so that close() returning means no key is delivered after it.
void ChannelSource::deliver_locked(const Json& object) {
  if (!all_pass(options_.predicates, PredicateEvent{EventType::Generic, nullptr, object})) return;
  if (!options_.map) {
    sink_(key_of(object));
    return;
  }
  std::set<ObjectKey> keys;  // each once
  for (ObjectKey& key : options_.map(object)) keys.insert(std::move(key));
  for (const ObjectKey& key : keys) sink_(key);
}

}  // namespace rr
