// Tri-state value for schema properties marked `nullable: true`: absent, null, or a value.
// Only those properties use it; everywhere else rr::Optional<T> (absent or value) suffices,
// because the API server prunes a null for a non-nullable field before defaulting.
#pragma once
#include <utility>

#include "rr/core/optional.hpp"

namespace rr {

template <class T>
class Nullable {
 public:
  Nullable() = default;
  Nullable(T value) : value_(std::move(value)), present_(true) {}  // NOLINT: implicit like optional
  static Nullable null() { Nullable n; n.present_ = true; return n; }

  bool is_absent() const noexcept { return !present_; }
  bool is_null() const noexcept { return present_ && !value_; }
  bool has_value() const noexcept { return value_.has_value(); }
  explicit operator bool() const noexcept { return has_value(); }
  T& value() { return value_.value(); }
  const T& value() const { return value_.value(); }
  T& operator*() { return *value_; }
  const T& operator*() const { return *value_; }
  T* operator->() { return &*value_; }
  const T* operator->() const { return &*value_; }
  T& emplace() { present_ = true; return value_.emplace(); }
  void set_null() { value_.reset(); present_ = true; }
  void reset() { value_.reset(); present_ = false; }
  bool operator==(const Nullable&) const = default;

 private:
  Optional<T> value_;
  bool present_ = false;
};

}  // namespace rr
