#include "soak_observer.hpp"

#include <chrono>
#include <stdexcept>

#include "rr/cluster/cluster.hpp"
#include "rr/controller/informer.hpp"

namespace rr::e2e {

StoreObserver::StoreObserver(std::shared_ptr<Cluster> cluster, const KindInfo& kind, Predicate matches, Predicate select)
    : matches_(std::move(matches)), select_(std::move(select)) {
  informer_ = std::make_shared<Informer>(std::make_shared<ClusterClient>(std::move(cluster)), kind);
  informer_->add_handlers({
      .on_add = [this](const Json& object) { put(object); },
      .on_update = [this](const Json&, const Json& object) { put(object); },
      .on_delete = [this](const Json& object) { erase(object); },
  });
  thread_ = std::jthread([informer = informer_](std::stop_token stop) { informer->run(stop); });
  if (!informer_->wait_for_sync(thread_.get_stop_token(), std::chrono::seconds(30))) {
    throw std::runtime_error("the store observer of " + kind.gvk.kind + " did not sync");
  }
}

StoreObserver::~StoreObserver() {
  thread_.request_stop();
  if (thread_.joinable()) thread_.join();
}

void StoreObserver::put(const Json& object) {
  if (select_ && !select_(object)) return;
  const bool match = matches_ ? matches_(object) : true;
  const std::lock_guard lock(mutex_);
  objects_[key_of(object).str()] = match;
}

void StoreObserver::erase(const Json& object) {
  const std::lock_guard lock(mutex_);
  objects_.erase(key_of(object).str());
}

std::size_t StoreObserver::size() const {
  const std::lock_guard lock(mutex_);
  return objects_.size();
}

std::size_t StoreObserver::matching() const {
  const std::lock_guard lock(mutex_);
  std::size_t n = 0;
  for (const auto& [key, match] : objects_) n += match ? 1 : 0;
  return n;
}

std::vector<std::string> StoreObserver::not_matching(std::size_t n) const {
  const std::lock_guard lock(mutex_);
  std::vector<std::string> keys;
  for (const auto& [key, match] : objects_) {
    if (keys.size() >= n) break;
    if (!match) keys.push_back(key);
  }
  return keys;
}

}  // namespace rr::e2e
