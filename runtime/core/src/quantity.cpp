// resource.Quantity's grammar and arithmetic, after k8s.io/apimachinery/pkg/api/resource
// (ParseQuantity, parseQuantityString, MilliValue, Value). Arithmetic is exact on decimal digit
// strings, so results match Go's inf.Dec path without a big-number library.
#include "rr/core/quantity.hpp"

#include <charconv>
#include <cmath>
#include <limits>
#include <system_error>

namespace rr {
namespace {

enum class QuantityFormat { DecimalSI, BinarySI, DecimalExponent };

struct Parsed {
  bool negative = false;
  std::string_view num;    // integer digits, leading zeros stripped (may be empty: zero)
  std::string_view denom;  // fraction digits
  int base = 10;
  std::int32_t exponent = 0;
  QuantityFormat format = QuantityFormat::DecimalSI;
};

inline bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }

bool interpret_suffix(std::string_view s, Parsed& p) {
  struct Entry {
    std::string_view suffix;
    int base;
    std::int32_t exp;
    QuantityFormat format;
  };
  static constexpr Entry kTable[] = {
      {"", 10, 0, QuantityFormat::DecimalSI},   {"n", 10, -9, QuantityFormat::DecimalSI},
      {"u", 10, -6, QuantityFormat::DecimalSI}, {"m", 10, -3, QuantityFormat::DecimalSI},
      {"k", 10, 3, QuantityFormat::DecimalSI},  {"M", 10, 6, QuantityFormat::DecimalSI},
      {"G", 10, 9, QuantityFormat::DecimalSI},  {"T", 10, 12, QuantityFormat::DecimalSI},
      {"P", 10, 15, QuantityFormat::DecimalSI}, {"E", 10, 18, QuantityFormat::DecimalSI},
      {"Ki", 2, 10, QuantityFormat::BinarySI},  {"Mi", 2, 20, QuantityFormat::BinarySI},
      {"Gi", 2, 30, QuantityFormat::BinarySI},  {"Ti", 2, 40, QuantityFormat::BinarySI},
      {"Pi", 2, 50, QuantityFormat::BinarySI},  {"Ei", 2, 60, QuantityFormat::BinarySI},
  };
  for (const auto& e : kTable) {
    if (e.suffix == s) {
      p.base = e.base;
      p.exponent = e.exp;
      p.format = e.format;
      return true;
    }
  }
  if (s.size() > 1 && (s[0] == 'e' || s[0] == 'E')) {
    // strconv.ParseInt(s[1:], 10, 64), then int32(...) as Go does.
    std::string_view rest = s.substr(1);
    bool neg = false;
    if (rest[0] == '+' || rest[0] == '-') {
      neg = rest[0] == '-';
      rest.remove_prefix(1);
    }
    if (rest.empty()) return false;
    std::uint64_t mag = 0;
    const auto r = std::from_chars(rest.data(), rest.data() + rest.size(), mag);
    if (r.ec != std::errc{} || r.ptr != rest.data() + rest.size()) return false;
    if (mag > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) + (neg ? 1 : 0)) return false;
    const std::uint64_t bits = neg ? 0 - mag : mag;
    p.base = 10;
    p.exponent = static_cast<std::int32_t>(static_cast<std::uint32_t>(bits));
    p.format = QuantityFormat::DecimalExponent;
    return true;
  }
  return false;
}

std::optional<Parsed> parse(std::string_view str) {
  if (str.empty()) return std::nullopt;
  Parsed p;
  const std::size_t end = str.size();
  std::size_t pos = 0;
  if (str[0] == '-') { p.negative = true; ++pos; }
  else if (str[0] == '+') { ++pos; }
  while (pos < end && str[pos] == '0') ++pos;
  if (pos >= end) return p;  // all zeros (or a bare sign): zero, as in Go
  const std::size_t nb = pos;
  while (pos < end && is_digit(str[pos])) ++pos;
  p.num = str.substr(nb, pos - nb);
  if (pos < end && str[pos] == '.') {
    const std::size_t db = ++pos;
    while (pos < end && is_digit(str[pos])) ++pos;
    p.denom = str.substr(db, pos - db);
  }
  const std::size_t suffix_start = pos;
  static constexpr std::string_view kSuffixChars = "eEinumkKMGTP";
  while (pos < end && kSuffixChars.find(str[pos]) != std::string_view::npos) ++pos;
  if (pos < end && (str[pos] == '-' || str[pos] == '+')) ++pos;
  while (pos < end && is_digit(str[pos])) ++pos;
  if (pos < end) return std::nullopt;
  if (!interpret_suffix(str.substr(suffix_start), p)) return std::nullopt;
  return p;
}

// Multiplies a decimal digit string in place by m (m < 2^24).
void multiply_digits(std::string& digits, std::uint32_t m) {
  std::uint64_t carry = 0;
  for (auto it = digits.rbegin(); it != digits.rend(); ++it) {
    const std::uint64_t x = static_cast<std::uint64_t>(*it - '0') * m + carry;
    *it = static_cast<char>('0' + x % 10);
    carry = x / 10;
  }
  std::string head;
  while (carry) {
    head.insert(head.begin(), static_cast<char>('0' + carry % 10));
    carry /= 10;
  }
  digits.insert(0, head);
}

void strip_leading_zeros(std::string& digits) {
  const auto nz = digits.find_first_not_of('0');
  digits.erase(0, nz == std::string::npos ? digits.size() : nz);
}

bool any_nonzero(std::string_view digits) { return digits.find_first_not_of('0') != std::string_view::npos; }

// The parsed amount as sign * digits * 10^scale, after Go's parse-time normalisation (round up to
// nano, cap at 2^63-1) where Go applies it.
struct Amount {
  bool negative = false;
  std::string digits;  // no leading zeros; empty means zero
  std::int64_t scale = 0;
};

constexpr std::string_view kMaxInt64 = "9223372036854775807";

// Compares two digit strings without leading zeros.
int compare_digits(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return a.size() < b.size() ? -1 : 1;
  return a.compare(b) < 0 ? -1 : (a.compare(b) > 0 ? 1 : 0);
}

Amount normalise(const Parsed& p) {
  Amount a;
  a.negative = p.negative;
  a.digits.reserve(p.num.size() + p.denom.size() + 20);
  a.digits.append(p.num);
  a.digits.append(p.denom);
  a.scale = -static_cast<std::int64_t>(p.denom.size());
  if (p.base == 10) {
    a.scale += p.exponent;
  } else {
    for (int e = p.exponent; e > 0; e -= 20) multiply_digits(a.digits, 1u << (e >= 20 ? 20 : e));
  }
  strip_leading_zeros(a.digits);
  if (a.digits.empty()) return a;

  // Go's fast path (int64Amount) keeps the exact value; otherwise the inf.Dec path rounds up to
  // nano and caps DecimalSI/BinarySI at the int64 maximum.
  const std::size_t num_len = p.num.empty() ? 1 : p.num.size();
  bool fast = false;
  if (p.format == QuantityFormat::BinarySI) {
    if (p.exponent >= 0 && p.denom.empty()) {
      const int precision = 15 - static_cast<int>(num_len) -
                            static_cast<int>(static_cast<float>(p.exponent) * 3 / 10) - 1;
      fast = precision >= 0 && compare_digits(a.digits, kMaxInt64) <= 0;
    }
  } else {
    const auto precision = 18 - static_cast<std::int64_t>(num_len + p.denom.size());
    fast = precision >= 0 && a.scale >= -9;
  }
  if (fast) return a;

  if (a.scale < -9) {
    const auto drop = static_cast<std::size_t>(-9 - a.scale);
    bool inexact;
    if (drop >= a.digits.size()) {
      inexact = true;  // digits non-empty, so non-zero
      a.digits.assign(1, '1');  // not = "1": GCC 12 -O3 -Wrestrict false positive
    } else {
      inexact = any_nonzero(std::string_view(a.digits).substr(a.digits.size() - drop));
      a.digits.resize(a.digits.size() - drop);
      if (inexact) {
        // add one (round away from zero)
        std::size_t i = a.digits.size();
        while (i > 0 && a.digits[i - 1] == '9') a.digits[--i] = '0';
        if (i == 0) a.digits.insert(a.digits.begin(), '1');
        else ++a.digits[i - 1];
      }
      strip_leading_zeros(a.digits);
      if (a.digits.empty()) a.digits.assign(1, '1');  // not = "1": GCC 12 -O3 -Wrestrict false positive
    }
    a.scale = -9;
  }
  if (p.format != QuantityFormat::DecimalExponent) {
    // amount > maxAllowed ?  (digits * 10^scale > 2^63-1)
    bool greater;
    if (a.scale >= 0) {
      greater = static_cast<std::int64_t>(a.digits.size()) + a.scale > 19 ||
                compare_digits(a.digits + std::string(static_cast<std::size_t>(a.scale), '0'), kMaxInt64) > 0;
    } else {
      const auto frac = static_cast<std::size_t>(-a.scale);
      const std::string_view whole = a.digits.size() > frac ? std::string_view(a.digits).substr(0, a.digits.size() - frac)
                                                            : std::string_view();
      const int c = compare_digits(whole, kMaxInt64);
      greater = c > 0 || (c == 0 && any_nonzero(std::string_view(a.digits).substr(whole.size())));
    }
    if (greater) {
      a.digits = std::string(kMaxInt64);
      a.scale = 0;
    }
  }
  return a;
}

// sign * ceil_away(digits * 10^(scale + shift)), or nullopt when it does not fit an int64.
std::optional<std::int64_t> scaled(const Amount& a, std::int64_t shift) {
  if (a.digits.empty()) return 0;
  const std::int64_t s = a.scale + shift;
  std::string whole;
  bool inexact = false;
  if (s >= 0) {
    if (static_cast<std::int64_t>(a.digits.size()) + s > 19) return std::nullopt;
    whole = a.digits;
    whole.append(static_cast<std::size_t>(s), '0');
  } else {
    const auto frac = static_cast<std::uint64_t>(-s);
    if (frac >= a.digits.size()) {
      inexact = true;
    } else {
      whole = a.digits.substr(0, a.digits.size() - static_cast<std::size_t>(frac));
      inexact = any_nonzero(std::string_view(a.digits).substr(whole.size()));
    }
    if (whole.size() > 19) return std::nullopt;
  }
  std::uint64_t v = 0;
  for (const char c : whole) v = v * 10 + static_cast<std::uint64_t>(c - '0');
  if (inexact) ++v;  // whole.size() <= 19 keeps this below 2^64
  constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  if (v > kMax + (a.negative ? 1 : 0)) return std::nullopt;
  return a.negative ? static_cast<std::int64_t>(0 - v) : static_cast<std::int64_t>(v);
}

}  // namespace

bool Quantity::valid() const noexcept { return parse(text_).has_value(); }

std::optional<std::int64_t> Quantity::milli_value() const noexcept {
  const auto p = parse(text_);
  if (!p) return std::nullopt;
  return scaled(normalise(*p), 3);
}

std::optional<std::int64_t> Quantity::value() const noexcept {
  const auto p = parse(text_);
  if (!p) return std::nullopt;
  return scaled(normalise(*p), 0);
}

std::optional<double> Quantity::as_double() const noexcept {
  const auto p = parse(text_);
  if (!p) return std::nullopt;
  const Amount a = normalise(*p);
  if (a.digits.empty()) return a.negative ? -0.0 : 0.0;
  std::string s = a.digits;
  s += 'e';
  s += std::to_string(a.scale);
  double d = 0;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), d);
  if (r.ec == std::errc::result_out_of_range) d = a.scale > 0 ? std::numeric_limits<double>::infinity() : 0.0;
  return a.negative ? -d : d;
}

}  // namespace rr
