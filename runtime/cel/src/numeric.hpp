// Numbers as CEL defines them: comparison across int, uint and double by value, checked integer
// arithmetic (overflow is an error, never a wrap), range-checked conversions, and the decimal
// rendering of doubles that string() and messages use.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "rr/cel/value.hpp"

namespace rr::cel {

inline bool is_numeric(Kind k) { return k == Kind::Int || k == Kind::Uint || k == Kind::Double; }

// -1, 0 or 1 comparing two numeric values by their mathematical value; nullopt when either is NaN.
std::optional<int> numeric_compare(const Value& a, const Value& b);

// Checked arithmetic on int64 or uint64: nullopt on overflow.
template <class T>
std::optional<T> checked_add(T a, T b) {
  T r;
  if (__builtin_add_overflow(a, b, &r)) return std::nullopt;
  return r;
}
template <class T>
std::optional<T> checked_sub(T a, T b) {
  T r;
  if (__builtin_sub_overflow(a, b, &r)) return std::nullopt;
  return r;
}
template <class T>
std::optional<T> checked_mul(T a, T b) {
  T r;
  if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
  return r;
}

// double -> int64 / uint64 when the value is in range (truncating toward zero), else nullopt.
std::optional<std::int64_t> double_to_int(double d);
std::optional<std::uint64_t> double_to_uint(double d);

// Go's %g with the shortest round-trip digits, as cel-go renders string(double): 1.5, 1e+06, NaN,
// +Inf, -Inf.
std::string format_double(double d);

}  // namespace rr::cel
