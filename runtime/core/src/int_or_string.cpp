#include "rr/core/int_or_string.hpp"

#include <cmath>
#include <limits>

namespace rr {
namespace {

// Go's strconv.Atoi: optional sign, decimal digits, nothing else.
std::optional<std::int64_t> atoi_go(std::string_view s) {
  bool negative = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s.empty() || s.size() > 19) return std::nullopt;
  std::uint64_t acc = 0;
  for (const char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    acc = acc * 10 + static_cast<std::uint64_t>(c - '0');
  }
  constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  if (acc > kMax + (negative ? 1 : 0)) return std::nullopt;
  return negative ? static_cast<std::int64_t>(0 - acc) : static_cast<std::int64_t>(acc);
}

}  // namespace

std::string IntOrString::to_string() const {
  if (is_int()) return std::to_string(int_value());
  return string_value();
}

std::optional<std::int64_t> IntOrString::scaled_value(std::int64_t total, bool round_up) const {
  if (is_int()) return int_value();
  std::string_view s = string_value();
  const bool percent = !s.empty() && s.back() == '%';
  if (percent) s.remove_suffix(1);
  const auto v = atoi_go(s);
  if (!v) return std::nullopt;
  if (!percent) return v;
  // intstr.GetScaledValueFromIntOrPercent computes in float64, then rounds.
  const double x = static_cast<double>(*v) * static_cast<double>(total) / 100;
  const double r = round_up ? std::ceil(x) : std::floor(x);
  if (!(r >= -9.2233720368547758e18 && r < 9.2233720368547758e18)) return std::nullopt;
  return static_cast<std::int64_t>(r);
}

}  // namespace rr
