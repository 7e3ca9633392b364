// Hash of rr::ObjectKey for the queue's unordered containers.
#pragma once
#include <functional>
#include <string>

#include "rr/client/object_key.hpp"

namespace rr {

struct ObjectKeyHash {
  std::size_t operator()(const ObjectKey& key) const noexcept {
    std::size_t h = std::hash<std::string>{}(key.namespace_);
    return h ^ (std::hash<std::string>{}(key.name) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2));
  }
};

}  // namespace rr
