// Numeric comparison, checked arithmetic and double rendering (numeric.hpp).
#include "numeric.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>

namespace rr::cel {

namespace {

constexpr double kTwo63 = 9223372036854775808.0;   // 2^63
constexpr double kTwo64 = 18446744073709551616.0;  // 2^64

// An integer against a double as cel-go compares them: beyond the integer's range by the bounds,
// within it by converting the integer to double (so 2^63 - 1 equals 2^63 as a double).
int compare_int_double(std::int64_t i, double d) {
  if (d < -kTwo63) return 1;
  if (d > kTwo63) return -1;
  const auto x = static_cast<double>(i);
  return x < d ? -1 : (x > d ? 1 : 0);
}

int compare_uint_double(std::uint64_t u, double d) {
  if (d < 0) return 1;
  if (d > kTwo64) return -1;
  const auto x = static_cast<double>(u);
  return x < d ? -1 : (x > d ? 1 : 0);
}

template <class T>
int cmp(T a, T b) {
  return a < b ? -1 : (a > b ? 1 : 0);
}

}  // namespace

std::optional<int> numeric_compare(const Value& a, const Value& b) {
  const Kind ka = a.kind(), kb = b.kind();
  if (ka == Kind::Double && std::isnan(a.as_double())) return std::nullopt;
  if (kb == Kind::Double && std::isnan(b.as_double())) return std::nullopt;
  switch (ka) {
    case Kind::Int:
      if (kb == Kind::Int) return cmp(a.as_int(), b.as_int());
      if (kb == Kind::Uint) return a.as_int() < 0 ? -1 : cmp(static_cast<std::uint64_t>(a.as_int()), b.as_uint());
      return compare_int_double(a.as_int(), b.as_double());
    case Kind::Uint:
      if (kb == Kind::Uint) return cmp(a.as_uint(), b.as_uint());
      if (kb == Kind::Int) return b.as_int() < 0 ? 1 : cmp(a.as_uint(), static_cast<std::uint64_t>(b.as_int()));
      return compare_uint_double(a.as_uint(), b.as_double());
    default:
      if (kb == Kind::Double) return cmp(a.as_double(), b.as_double());
      if (kb == Kind::Int) return -compare_int_double(b.as_int(), a.as_double());
      return -compare_uint_double(b.as_uint(), a.as_double());
  }
}

std::optional<std::int64_t> double_to_int(double d) {
  // cel-go refuses the two ends of the range as well (they do not round-trip).
  if (!std::isfinite(d) || d <= -kTwo63 || d >= kTwo63) return std::nullopt;
  return static_cast<std::int64_t>(d);
}

std::optional<std::uint64_t> double_to_uint(double d) {
  if (!std::isfinite(d) || d < 0 || d >= kTwo64) return std::nullopt;
  return static_cast<std::uint64_t>(d);
}

std::string format_double(double d) {
  if (std::isnan(d)) return "NaN";
  if (std::isinf(d)) return d > 0 ? "+Inf" : "-Inf";
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::scientific);
  std::string sci(buf, res.ptr);
  const auto e = sci.find('e');
  const int exp = std::atoi(sci.c_str() + e + 1);
  if (exp < -4 || exp >= 6) return sci;  // Go: shortest %g switches to %e at precision 6
  res = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::fixed);
  return std::string(buf, res.ptr);
}

}  // namespace rr::cel
