// The math extension (cel-go ext.Math): math.greatest, math.least (variadic or one list, numbers
// compared across int, uint and double), abs, sign, ceil, floor, round, trunc, isInf, isNaN,
// isFinite, and the bit operations.
#include <cmath>

#include "functions.hpp"
#include "numeric.hpp"

namespace rr::cel {

namespace {

template <int Want>
Value numeric_extreme(std::span<const Value> a, const char* name) {
  std::span<const Value> values = a;
  if (a.size() == 1 && a[0].kind() == Kind::List) values = a[0].as_list().items;
  if (values.empty()) return Value::error(std::string(name) + "(): list must not be empty");
  const Value* best = nullptr;
  for (const auto& v : values) {
    if (!is_numeric(v.kind())) return Value::error(std::string(name) + "(): no such overload for " + type_name(v));
    if (best == nullptr) {
      best = &v;
      continue;
    }
    const auto c = numeric_compare(v, *best);
    if (c && *c == Want) best = &v;
  }
  return *best;
}

Value greatest(std::span<const Value> a) { return numeric_extreme<1>(a, "math.greatest"); }
Value least(std::span<const Value> a) { return numeric_extreme<-1>(a, "math.least"); }

Value abs(std::span<const Value> a) {
  if (a.size() == 1) {
    switch (a[0].kind()) {
      case Kind::Int:
        if (a[0].as_int() == INT64_MIN) return Value::error("integer overflow");
        return Value(a[0].as_int() < 0 ? -a[0].as_int() : a[0].as_int());
      case Kind::Uint: return a[0];
      case Kind::Double: return Value(std::fabs(a[0].as_double()));
      default: break;
    }
  }
  return no_overload("math.abs", a);
}

Value sign(std::span<const Value> a) {
  if (a.size() == 1) {
    switch (a[0].kind()) {
      case Kind::Int: return Value(std::int64_t{(a[0].as_int() > 0) - (a[0].as_int() < 0)});
      case Kind::Uint: return Value(std::uint64_t{a[0].as_uint() > 0 ? 1u : 0u});
      case Kind::Double: {
        const double d = a[0].as_double();
        if (std::isnan(d)) return a[0];
        return Value(d > 0 ? 1.0 : (d < 0 ? -1.0 : 0.0));
      }
      default: break;
    }
  }
  return no_overload("math.sign", a);
}

template <double (*F)(double)>
Value on_double(std::span<const Value> a, const char* name) {
  if (a.size() != 1 || a[0].kind() != Kind::Double) return no_overload(name, a);
  return Value(F(a[0].as_double()));
}

double ceil_d(double d) { return std::ceil(d); }
double floor_d(double d) { return std::floor(d); }
double round_d(double d) { return std::round(d); }  // half away from zero, as Go's math.Round
double trunc_d(double d) { return std::trunc(d); }

Value ceil(std::span<const Value> a) { return on_double<ceil_d>(a, "math.ceil"); }
Value floor(std::span<const Value> a) { return on_double<floor_d>(a, "math.floor"); }
Value round(std::span<const Value> a) { return on_double<round_d>(a, "math.round"); }
Value trunc(std::span<const Value> a) { return on_double<trunc_d>(a, "math.trunc"); }

template <bool (*Test)(double)>
Value test_double(std::span<const Value> a, const char* name) {
  if (a.size() != 1 || a[0].kind() != Kind::Double) return no_overload(name, a);
  return Value(Test(a[0].as_double()));
}

bool is_inf(double d) { return std::isinf(d); }
bool is_nan(double d) { return std::isnan(d); }
bool is_finite(double d) { return std::isfinite(d); }

Value is_inf_fn(std::span<const Value> a) { return test_double<is_inf>(a, "math.isInf"); }
Value is_nan_fn(std::span<const Value> a) { return test_double<is_nan>(a, "math.isNaN"); }
Value is_finite_fn(std::span<const Value> a) { return test_double<is_finite>(a, "math.isFinite"); }

enum class BitOp { And, Or, Xor };

template <BitOp Op>
Value bits(std::span<const Value> a, const char* name) {
  if (a.size() == 2 && a[0].kind() == a[1].kind()) {
    auto apply = [](auto x, auto y) { return Op == BitOp::And ? (x & y) : (Op == BitOp::Or ? (x | y) : (x ^ y)); };
    if (a[0].kind() == Kind::Int) return Value(static_cast<std::int64_t>(apply(a[0].as_int(), a[1].as_int())));
    if (a[0].kind() == Kind::Uint) return Value(static_cast<std::uint64_t>(apply(a[0].as_uint(), a[1].as_uint())));
  }
  return no_overload(name, a);
}

Value bit_and(std::span<const Value> a) { return bits<BitOp::And>(a, "math.bitAnd"); }
Value bit_or(std::span<const Value> a) { return bits<BitOp::Or>(a, "math.bitOr"); }
Value bit_xor(std::span<const Value> a) { return bits<BitOp::Xor>(a, "math.bitXor"); }

Value bit_not(std::span<const Value> a) {
  if (a.size() == 1 && a[0].kind() == Kind::Int) return Value(~a[0].as_int());
  if (a.size() == 1 && a[0].kind() == Kind::Uint) return Value(~a[0].as_uint());
  return no_overload("math.bitNot", a);
}

// Shifts of 64 or more give 0 (-1 for a negative int shifted right); a negative count is an error.
template <bool Left>
Value shift(std::span<const Value> a) {
  const char* name = Left ? "math.bitShiftLeft" : "math.bitShiftRight";
  if (a.size() != 2 || a[1].kind() != Kind::Int || (a[0].kind() != Kind::Int && a[0].kind() != Kind::Uint))
    return no_overload(name, a);
  const std::int64_t n = a[1].as_int();
  if (n < 0) return Value::error(std::string(name) + "() negative offset: " + std::to_string(n));
  if (a[0].kind() == Kind::Uint) {
    if (n >= 64) return Value(std::uint64_t{0});
    return Value(Left ? a[0].as_uint() << n : a[0].as_uint() >> n);
  }
  const auto u = static_cast<std::uint64_t>(a[0].as_int());
  if (n >= 64) return Value(std::int64_t{0});
  return Value(static_cast<std::int64_t>(Left ? u << n : u >> n));
}

}  // namespace

void register_math(FunctionTable& t) {
  t.add("math.greatest", greatest, true, false);
  t.add("math.least", least, true, false);
  t.add("math.abs", abs, true, false);
  t.add("math.sign", sign, true, false);
  t.add("math.ceil", ceil, true, false);
  t.add("math.floor", floor, true, false);
  t.add("math.round", round, true, false);
  t.add("math.trunc", trunc, true, false);
  t.add("math.isInf", is_inf_fn, true, false);
  t.add("math.isNaN", is_nan_fn, true, false);
  t.add("math.isFinite", is_finite_fn, true, false);
  t.add("math.bitAnd", bit_and, true, false);
  t.add("math.bitOr", bit_or, true, false);
  t.add("math.bitXor", bit_xor, true, false);
  t.add("math.bitNot", bit_not, true, false);
  t.add("math.bitShiftLeft", shift<true>, true, false);
  t.add("math.bitShiftRight", shift<false>, true, false);
}

}  // namespace rr::cel
