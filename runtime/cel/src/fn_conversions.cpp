// Type conversions: int(), uint(), double(), string(), bytes(), bool(), type(), dyn(),
// duration(), timestamp().
#include <charconv>
#include <cmath>
#include <cstdlib>

#include "functions.hpp"
#include "numeric.hpp"
#include "time_util.hpp"
#include "utf8.hpp"

namespace rr::cel {

namespace {

Value range_error() { return Value::error("range error"); }

template <class T>
std::optional<T> parse_integer(const std::string& s) {
  T v{};
  const char* first = s.data();
  const char* last = s.data() + s.size();
  if (first != last && *first == '+') ++first;
  if (first == last) return std::nullopt;
  const auto r = std::from_chars(first, last, v, 10);
  if (r.ec != std::errc{} || r.ptr != last) return std::nullopt;
  return v;
}

Value to_int(std::span<const Value> a) {
  if (a.size() != 1) return no_overload("int", a);
  const Value& v = a[0];
  switch (v.kind()) {
    case Kind::Int: return v;
    case Kind::Uint:
      if (v.as_uint() > static_cast<std::uint64_t>(INT64_MAX)) return range_error();
      return Value(static_cast<std::int64_t>(v.as_uint()));
    case Kind::Double: {
      const auto i = double_to_int(v.as_double());
      return i ? Value(*i) : range_error();
    }
    case Kind::String: {
      const auto i = parse_integer<std::int64_t>(v.as_string());
      return i ? Value(*i) : Value::error("cannot convert string to int: " + v.as_string());
    }
    case Kind::Timestamp: return Value(v.as_timestamp().seconds);
    case Kind::Duration: {
      const auto n = total_nanos(v.as_duration());
      return n ? Value(*n) : range_error();
    }
    default: return no_overload("int", a);
  }
}

Value to_uint(std::span<const Value> a) {
  if (a.size() != 1) return no_overload("uint", a);
  const Value& v = a[0];
  switch (v.kind()) {
    case Kind::Uint: return v;
    case Kind::Int:
      if (v.as_int() < 0) return range_error();
      return Value(static_cast<std::uint64_t>(v.as_int()));
    case Kind::Double: {
      const auto u = double_to_uint(v.as_double());
      return u ? Value(*u) : range_error();
    }
    case Kind::String: {
      const std::string& s = v.as_string();
      if (!s.empty() && s[0] == '-') return Value::error("cannot convert string to uint: " + s);
      const auto u = parse_integer<std::uint64_t>(s);
      return u ? Value(*u) : Value::error("cannot convert string to uint: " + s);
    }
    default: return no_overload("uint", a);
  }
}

std::optional<double> parse_double(std::string s) {
  // Go's strconv.ParseFloat: an optional sign, decimal or "inf"/"infinity"/"nan" in any case.
  if (s.empty()) return std::nullopt;
  for (const char c : s)
    if (c == ' ' || c == '\t' || c == '\n') return std::nullopt;
  char* end = nullptr;
  const double d = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size()) return std::nullopt;
  if (s.find('x') != std::string::npos || s.find('X') != std::string::npos) return std::nullopt;
  return d;
}

Value to_double(std::span<const Value> a) {
  if (a.size() != 1) return no_overload("double", a);
  const Value& v = a[0];
  switch (v.kind()) {
    case Kind::Double: return v;
    case Kind::Int: return Value(static_cast<double>(v.as_int()));
    case Kind::Uint: return Value(static_cast<double>(v.as_uint()));
    case Kind::String: {
      const auto d = parse_double(v.as_string());
      return d ? Value(*d) : Value::error("cannot convert string to double: " + v.as_string());
    }
    default: return no_overload("double", a);
  }
}

Value to_string(std::span<const Value> a) {
  if (a.size() != 1) return no_overload("string", a);
  const Value& v = a[0];
  switch (v.kind()) {
    case Kind::String: return v;
    case Kind::Int: return Value(std::to_string(v.as_int()));
    case Kind::Uint: return Value(std::to_string(v.as_uint()));
    case Kind::Double: return Value(format_double(v.as_double()));
    case Kind::Bool: return Value(v.as_bool() ? "true" : "false");
    case Kind::Bytes:
      if (!valid_utf8(v.as_bytes())) return Value::error("invalid UTF-8 in bytes, cannot convert to string");
      return Value(v.as_bytes());
    case Kind::Timestamp: return Value(format_timestamp(v.as_timestamp()));
    case Kind::Duration: return Value(format_duration(v.as_duration()));
    case Kind::Type: return Value(v.as_type().name);
    case Kind::Opaque: return Value(v.as_opaque().to_string());
    default: return no_overload("string", a);
  }
}

Value to_bytes(std::span<const Value> a) {
  if (a.size() == 1 && a[0].kind() == Kind::Bytes) return a[0];
  if (a.size() == 1 && a[0].kind() == Kind::String) return Value::bytes(a[0].as_string());
  return no_overload("bytes", a);
}

Value to_bool(std::span<const Value> a) {
  if (a.size() == 1 && a[0].kind() == Kind::Bool) return a[0];
  if (a.size() == 1 && a[0].kind() == Kind::String) {
    const std::string& s = a[0].as_string();
    if (s == "1" || s == "t" || s == "T" || s == "true" || s == "TRUE" || s == "True") return Value(true);
    if (s == "0" || s == "f" || s == "F" || s == "false" || s == "FALSE" || s == "False") return Value(false);
    return Value::error("Type conversion error from 'string' to 'bool': " + s);
  }
  return no_overload("bool", a);
}

Value to_type(std::span<const Value> a) {
  if (a.size() != 1) return no_overload("type", a);
  return Value(type_of(a[0]));
}

Value dyn(std::span<const Value> a) {
  if (a.size() != 1) return no_overload("dyn", a);
  return a[0];
}

Value to_duration(std::span<const Value> a) {
  if (a.size() != 1) return no_overload("duration", a);
  switch (a[0].kind()) {
    case Kind::Duration: return a[0];
    case Kind::String: {
      const auto d = parse_duration(a[0].as_string());
      return d ? Value(*d) : Value::error("invalid duration: " + a[0].as_string() + " (or out of range)");
    }
    case Kind::Int: {
      const std::int64_t n = a[0].as_int();
      std::int64_t s = n / 1000000000;
      auto ns = static_cast<std::int32_t>(n % 1000000000);
      if (ns < 0) {
        ns += 1000000000;
        --s;
      }
      return Value(Duration{s, ns});
    }
    default: return no_overload("duration", a);
  }
}

Value to_timestamp(std::span<const Value> a) {
  if (a.size() != 1) return no_overload("timestamp", a);
  switch (a[0].kind()) {
    case Kind::Timestamp: return a[0];
    case Kind::String: {
      const auto t = parse_timestamp(a[0].as_string());
      return t ? Value(*t) : Value::error("invalid timestamp (or out of range): " + a[0].as_string());
    }
    case Kind::Int: {
      const Timestamp t{a[0].as_int(), 0};
      return in_range(t) ? Value(t) : Value::error("timestamp out of range");
    }
    default: return no_overload("timestamp", a);
  }
}

}  // namespace

void register_conversions(FunctionTable& t) {
  t.add("int", to_int, true, false);
  t.add("uint", to_uint, true, false);
  t.add("double", to_double, true, false);
  t.add("string", to_string, true, false);
  t.add("bytes", to_bytes, true, false);
  t.add("bool", to_bool, true, false);
  t.add("type", to_type, true, false);
  t.add("dyn", dyn, true, false);
  t.add("duration", to_duration, true, false);
  t.add("timestamp", to_timestamp, true, false);
}

}  // namespace rr::cel
