// What the sample's tables share: a copy-and-change helper (the C++ stand-in for reconciler.io's
// immutable factories), conditions, ConfigMaps.
#pragma once
#include <chrono>
#include <map>
#include <string>
#include <utility>

#include "k8s/core/v1/config_map.hpp"
#include "rr/core/meta.hpp"
#include "rr/core/time.hpp"

namespace fntest {

// A changed copy: with(base, [](T& t) { ... }) leaves `base` as it was.
template <class T, class F>
T with(T object, F&& change) {
  std::forward<F>(change)(object);
  return object;
}

// Comparisons ignore lastTransitionTime; it is set (to the epoch) only because a given object
// with an empty one fails the cluster's validation on its next write.
inline rr::Condition condition(std::string type, std::string status, std::string reason, std::string message = {}) {
  rr::Condition c;
  c.last_transition_time = rr::Time::from(std::chrono::system_clock::time_point{});
  c.type = std::move(type);
  c.status = std::move(status);
  c.reason = std::move(reason);
  c.message = std::move(message);
  return c;
}

inline k8s::core::v1::ConfigMap config_map(std::string namespace_, std::string name,
                                           std::map<std::string, std::string> data) {
  k8s::core::v1::ConfigMap c;
  c.metadata.namespace_ = std::move(namespace_);
  c.metadata.name = std::move(name);
  c.data = std::move(data);
  return c;
}

}  // namespace fntest
