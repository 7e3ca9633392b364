// Kubernetes' quantity library (kubernetes.Quantity): quantity(), isQuantity(), sign(),
// isInteger(), asInteger(), asApproximateFloat(), add(), sub(), isGreaterThan(), isLessThan(),
// compareTo() (fn_compare.cpp). Values are exact in nano units (a 128-bit integer), as resource.Quantity's
// precision; quantities compare and are equal by value ("1k" == "1000").
#include <cmath>

#include "functions.hpp"
#include "rr/core/quantity.hpp"

namespace rr::cel {

namespace {

__extension__ typedef __int128 Int128;

constexpr Int128 kNano = 1000000000;
constexpr Int128 kLimit = static_cast<Int128>(1) << 120;

class QuantityValue final : public Opaque {
 public:
  QuantityValue(Int128 n, std::string t) : nanos(n), text(std::move(t)) {}
  std::string type_name() const override { return "kubernetes.Quantity"; }
  bool equals(const Opaque& other) const override { return nanos == static_cast<const QuantityValue&>(other).nanos; }
  std::string to_string() const override { return text; }
  std::optional<int> compare(const Opaque& other) const override {
    const Int128 o = static_cast<const QuantityValue&>(other).nanos;
    return nanos < o ? -1 : (nanos > o ? 1 : 0);
  }
  Int128 nanos;
  std::string text;
};

std::string int128_text(Int128 v) {
  if (v == 0) return "0";
  const bool negative = v < 0;
  std::string out;
  while (v != 0) {
    const int digit = static_cast<int>(v % 10);
    out += static_cast<char>('0' + (negative ? -digit : digit));
    v /= 10;
  }
  if (negative) out += '-';
  return {out.rbegin(), out.rend()};
}

// A computed quantity's text: the largest of "", m, u, n that keeps the value exact.
std::string canonical(Int128 nanos) {
  if (nanos % kNano == 0) return int128_text(nanos / kNano);
  if (nanos % 1000000 == 0) return int128_text(nanos / 1000000) + "m";
  if (nanos % 1000 == 0) return int128_text(nanos / 1000) + "u";
  return int128_text(nanos) + "n";
}

// The value of a valid quantity text in nanos (rounded up, as resource.Quantity rounds values
// below its precision), or nullopt when it is out of range.
std::optional<Int128> parse_nanos(const std::string& s) {
  std::size_t i = 0;
  bool negative = false;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
  Int128 digits = 0;
  int scale = 9;  // the power of ten to apply to `digits` to get nanos
  bool fraction = false;
  for (; i < s.size() && ((s[i] >= '0' && s[i] <= '9') || s[i] == '.'); ++i) {
    if (s[i] == '.') {
      fraction = true;
      continue;
    }
    if (digits > kLimit / 10) return std::nullopt;
    digits = digits * 10 + (s[i] - '0');
    if (fraction) --scale;
  }
  const std::string suffix = s.substr(i);
  int binary = 0;
  if (suffix.size() == 2 && suffix[1] == 'i') {
    static constexpr std::string_view kBinary = "KMGTPE";
    binary = 10 * (static_cast<int>(kBinary.find(suffix[0])) + 1);
  } else if (!suffix.empty() && (suffix[0] == 'e' || suffix[0] == 'E')) {
    scale += std::stoi(suffix.substr(1));
  } else if (!suffix.empty()) {
    static constexpr std::pair<char, int> kDecimal[] = {{'n', -9}, {'u', -6}, {'m', -3}, {'k', 3}, {'M', 6},
                                                        {'G', 9},  {'T', 12}, {'P', 15}, {'E', 18}};
    for (const auto& d : kDecimal)
      if (suffix[0] == d.first) scale += d.second;
  }
  Int128 v = digits;
  for (; scale > 0; --scale) {
    if (v > kLimit / 10) return std::nullopt;
    v *= 10;
  }
  for (; scale < 0; ++scale) v = v / 10 + (v % 10 != 0 ? 1 : 0);
  for (; binary > 0; --binary) {
    if (v > kLimit / 2) return std::nullopt;
    v *= 2;
  }
  return negative ? -v : v;
}

Value make(Int128 nanos, std::string text) {
  return Value(std::shared_ptr<const Opaque>(std::make_shared<QuantityValue>(nanos, std::move(text))));
}

std::optional<Value> parse(const std::string& s) {
  if (!rr::Quantity(s).valid()) return std::nullopt;
  const auto nanos = parse_nanos(s);
  if (!nanos) return std::nullopt;
  return make(*nanos, s);
}

const QuantityValue* as_quantity(const Value& v) {
  return v.kind() == Kind::Opaque && v.as_opaque().type_name() == "kubernetes.Quantity"
             ? &static_cast<const QuantityValue&>(v.as_opaque())
             : nullptr;
}

Value quantity(std::span<const Value> a) {
  if (a.size() != 1 || a[0].kind() != Kind::String) return no_overload("quantity", a);
  if (auto q = parse(a[0].as_string())) return *q;
  return Value::error("quantities must match the regular expression "
                      "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
}

Value is_quantity(std::span<const Value> a) {
  if (a.size() != 1 || a[0].kind() != Kind::String) return no_overload("isQuantity", a);
  return Value(parse(a[0].as_string()).has_value());
}

enum class Unary { Sign, IsInteger, AsInteger, AsFloat };

template <Unary U>
Value unary(std::span<const Value> a) {
  static constexpr const char* kNames[] = {"sign", "isInteger", "asInteger", "asApproximateFloat"};
  const QuantityValue* q = a.size() == 1 ? as_quantity(a[0]) : nullptr;
  if (q == nullptr) return no_overload(kNames[static_cast<int>(U)], a);
  const bool integral = q->nanos % kNano == 0 && q->nanos / kNano <= INT64_MAX && q->nanos / kNano >= INT64_MIN;
  switch (U) {
    case Unary::Sign: return Value(std::int64_t{(q->nanos > 0) - (q->nanos < 0)});
    case Unary::IsInteger: return Value(integral);
    case Unary::AsInteger:
      if (!integral) return Value::error("cannot convert value to integer");
      return Value(static_cast<std::int64_t>(q->nanos / kNano));
    case Unary::AsFloat: return Value(static_cast<double>(q->nanos) / 1e9);
  }
  return no_overload(kNames[static_cast<int>(U)], a);
}

// The other operand in nanos: a quantity, or an int for add/sub.
std::optional<Int128> operand(const Value& v, bool allow_int) {
  if (const QuantityValue* q = as_quantity(v)) return q->nanos;
  if (allow_int && v.kind() == Kind::Int) return static_cast<Int128>(v.as_int()) * kNano;
  return std::nullopt;
}

template <bool Add>
Value add_sub(std::span<const Value> a) {
  const QuantityValue* q = a.size() == 2 ? as_quantity(a[0]) : nullptr;
  const auto other = a.size() == 2 ? operand(a[1], true) : std::nullopt;
  if (q == nullptr || !other) return no_overload(Add ? "add" : "sub", a);
  const Int128 r = Add ? q->nanos + *other : q->nanos - *other;
  if (r > kLimit || r < -kLimit) return Value::error("quantity out of range");
  return make(r, canonical(r));
}

}  // namespace

void register_quantity(FunctionTable& t) {
  t.add("quantity", quantity, true, false);
  t.add("isQuantity", is_quantity, true, false);
  t.add("isInteger", unary<Unary::IsInteger>, false, true);
  t.add("asInteger", unary<Unary::AsInteger>, false, true);
  t.add("asApproximateFloat", unary<Unary::AsFloat>, false, true);
  t.add("add", add_sub<true>, false, true);
  t.add("sub", add_sub<false>, false, true);
  t.add("sign", unary<Unary::Sign>, false, true);
}

}  // namespace rr::cel
