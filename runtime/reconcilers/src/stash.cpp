// The per-request stash.
#include "rr/reconcilers/stash.hpp"

namespace rr {

const std::any* Stash::find(std::string_view key) const {
  auto it = values_.find(key);
  return it == values_.end() ? nullptr : &it->second;
}

std::any* Stash::find(std::string_view key) {
  auto it = values_.find(key);
  return it == values_.end() ? nullptr : &it->second;
}

std::any Stash::clear(std::string_view key) {
  auto it = values_.find(key);
  if (it == values_.end()) return {};
  std::any previous = std::move(it->second);
  values_.erase(it);
  return previous;
}

}  // namespace rr
