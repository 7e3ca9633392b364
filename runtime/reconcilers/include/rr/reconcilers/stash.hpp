// The per-request stash: values shared between sub-reconcilers of one request, and Stasher<T>,
// a typed handle on one key.
#pragma once
#include <any>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace rr {

class StashError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Stash {
 public:
  void store(std::string key, std::any value) { values_[std::move(key)] = std::move(value); }
  bool has(std::string_view key) const { return values_.find(key) != values_.end(); }
  // nullptr when missing.
  const std::any* find(std::string_view key) const;
  std::any* find(std::string_view key);
  // Removes the key and returns what was stored (empty std::any when missing).
  std::any clear(std::string_view key);
  const std::map<std::string, std::any, std::less<>>& values() const noexcept { return values_; }

 private:
  std::map<std::string, std::any, std::less<>> values_;
};

class Context;

// Typed access to one stash key (reconciler.io's Stasher[T]).
template <class T>
class Stasher {
 public:
  explicit Stasher(std::string key) : key_(std::move(key)) {}
  const std::string& key() const noexcept { return key_; }
  void store(Context& ctx, T value) const;
  void clear(Context& ctx) const;
  bool has(const Context& ctx) const;
  // Throws StashError naming the key: "missing" or "holds another type".
  T& retrieve_or_die(Context& ctx) const;
  // nullopt when missing; throws StashError when the stored value has another type.
  std::optional<T> retrieve(const Context& ctx) const;
  T retrieve_or_empty(const Context& ctx) const { return retrieve(ctx).value_or(T{}); }

 private:
  std::string key_;
};

}  // namespace rr
