// string.format(list): cel-go's formatting clauses %s %d %f %e %b %o %x %X %% with an optional
// precision (`%.3f`), and its error messages.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "functions.hpp"
#include "numeric.hpp"
#include "time_util.hpp"

namespace rr::cel {

namespace {

struct FormatError {
  std::string message;
};

[[noreturn]] void fail(const std::string& what) { throw FormatError{"error during formatting: " + what}; }

std::string special_double(double d) {
  if (std::isnan(d)) return "NaN";
  return d > 0 ? "Infinity" : "-Infinity";
}

std::string as_string(const Value& v) {
  switch (v.kind()) {
    case Kind::String: return v.as_string();
    case Kind::Bytes: return v.as_bytes();
    case Kind::Null: return "null";
    case Kind::Bool: return v.as_bool() ? "true" : "false";
    case Kind::Int: return std::to_string(v.as_int());
    case Kind::Uint: return std::to_string(v.as_uint());
    case Kind::Double:
      return std::isfinite(v.as_double()) ? format_double(v.as_double()) : special_double(v.as_double());
    case Kind::Type: return v.as_type().name;
    case Kind::Duration: return format_duration(v.as_duration());
    case Kind::Timestamp: return format_timestamp(v.as_timestamp());
    case Kind::List: {
      std::string out = "[";
      bool first = true;
      for (const auto& item : v.as_list().items) {
        out += (first ? "" : ", ") + as_string(item);
        first = false;
      }
      return out + "]";
    }
    case Kind::Map: {
      std::vector<std::pair<std::string, std::string>> entries;
      for (const auto& e : v.as_map().entries()) entries.emplace_back(as_string(e.first), as_string(e.second));
      std::sort(entries.begin(), entries.end());
      std::string out = "{";
      bool first = true;
      for (const auto& e : entries) {
        out += (first ? "" : ", ") + e.first + ": " + e.second;
        first = false;
      }
      return out + "}";
    }
    default:
      fail("string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, "
           "and timestamps, was given " +
           type_name(v));
  }
}

std::string in_base(std::uint64_t u, unsigned base, bool upper) {
  if (u == 0) return "0";
  const char* digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
  std::string out;
  while (u > 0) {
    out += digits[u % base];
    u /= base;
  }
  std::reverse(out.begin(), out.end());
  return out;
}

// An int or uint in a base, with Go's sign for negative ints.
std::string integer_in_base(const Value& v, unsigned base, bool upper) {
  if (v.kind() == Kind::Uint) return in_base(v.as_uint(), base, upper);
  const std::int64_t i = v.as_int();
  const std::uint64_t magnitude = i < 0 ? 0 - static_cast<std::uint64_t>(i) : static_cast<std::uint64_t>(i);
  return (i < 0 ? "-" : "") + in_base(magnitude, base, upper);
}

bool is_integer(const Value& v) { return v.kind() == Kind::Int || v.kind() == Kind::Uint; }

double to_double_for(const Value& v, const char* clause) {
  if (v.kind() == Kind::Double) return v.as_double();
  if (v.kind() == Kind::Int) return static_cast<double>(v.as_int());
  if (v.kind() == Kind::Uint) return static_cast<double>(v.as_uint());
  fail(std::string(clause) + " clause can only be used on doubles, was given " + type_name(v));
}

std::string printf_double(double d, char conversion, int precision) {
  if (!std::isfinite(d)) return special_double(d);
  char buf[512];
  const char spec[] = {'%', '.', '*', conversion, '\0'};
  std::snprintf(buf, sizeof buf, spec, precision, d);
  return buf;
}

std::string format_clause(char verb, int precision, const Value& v) {
  switch (verb) {
    case 's': return as_string(v);
    case 'd':
      if (is_integer(v)) return integer_in_base(v, 10, false);
      if (v.kind() == Kind::Double && !std::isfinite(v.as_double())) return special_double(v.as_double());
      fail("decimal clause can only be used on integers, was given " + type_name(v));
    case 'f': return printf_double(to_double_for(v, "fixed-point"), 'f', precision < 0 ? 6 : precision);
    case 'e': return printf_double(to_double_for(v, "scientific"), 'e', precision < 0 ? 6 : precision);
    case 'b':
      if (v.kind() == Kind::Bool) return v.as_bool() ? "1" : "0";
      if (is_integer(v)) return integer_in_base(v, 2, false);
      fail("only integers and bools can be formatted as binary, was given " + type_name(v));
    case 'o':
      if (is_integer(v)) return integer_in_base(v, 8, false);
      fail("octal clause can only be used on integers, was given " + type_name(v));
    case 'x':
    case 'X': {
      const bool upper = verb == 'X';
      if (is_integer(v)) return integer_in_base(v, 16, upper);
      if (v.kind() == Kind::String || v.kind() == Kind::Bytes) {
        const std::string& s = v.kind() == Kind::String ? v.as_string() : v.as_bytes();
        std::string out;
        for (const char c : s) {
          const std::string h = in_base(static_cast<unsigned char>(c), 16, upper);
          out += (h.size() == 1 ? "0" : "") + h;
        }
        return out;
      }
      fail("only integers, byte buffers, and strings can be formatted as hex, was given " + type_name(v));
    }
    default: break;
  }
  throw FormatError{std::string("could not parse formatting clause: unrecognized formatting clause \"") + verb + "\""};
}

Value format(std::span<const Value> a) {
  if (a.size() != 2 || a[0].kind() != Kind::String || a[1].kind() != Kind::List) return no_overload("format", a);
  const std::string& f = a[0].as_string();
  const auto& args = a[1].as_list().items;
  std::string out;
  std::size_t next = 0;
  try {
    for (std::size_t i = 0; i < f.size(); ++i) {
      if (f[i] != '%') {
        out += f[i];
        continue;
      }
      if (++i >= f.size()) throw FormatError{"could not parse formatting clause: unexpected end of string"};
      if (f[i] == '%') {
        out += '%';
        continue;
      }
      int precision = -1;
      if (f[i] == '.') {
        precision = 0;
        while (++i < f.size() && f[i] >= '0' && f[i] <= '9') precision = precision * 10 + (f[i] - '0');
        if (i >= f.size()) throw FormatError{"could not parse formatting clause: unexpected end of string"};
      }
      if (next >= args.size()) throw FormatError{"index " + std::to_string(next) + " out of range"};
      out += format_clause(f[i], precision, args[next++]);
    }
  } catch (const FormatError& e) {
    return Value::error(e.message);
  }
  return Value(std::move(out));
}

}  // namespace

void register_format(FunctionTable& t) { t.add("format", format, false, true); }

}  // namespace rr::cel
