// Operators: arithmetic with overflow errors, equality and ordering (numbers compared across int,
// uint and double), `in`, indexing, logical not.
#include <cmath>

#include "functions.hpp"
#include "numeric.hpp"
#include "time_util.hpp"

namespace rr::cel {

namespace {

Value overflow() { return Value::error("integer overflow"); }

template <class T>
Value checked(const std::optional<T>& r) {
  return r ? Value(*r) : overflow();
}

Value concat_lists(const Value& a, const Value& b) {
  std::vector<Value> items = a.as_list().items;
  const auto& more = b.as_list().items;
  items.insert(items.end(), more.begin(), more.end());
  return Value::list(std::move(items));
}

Value add(std::span<const Value> a) {
  const Kind k0 = a[0].kind(), k1 = a[1].kind();
  if (k0 == k1) {
    switch (k0) {
      case Kind::Int: return checked(checked_add(a[0].as_int(), a[1].as_int()));
      case Kind::Uint: return checked(checked_add(a[0].as_uint(), a[1].as_uint()));
      case Kind::Double: return Value(a[0].as_double() + a[1].as_double());
      case Kind::String: return Value(a[0].as_string() + a[1].as_string());
      case Kind::Bytes: return Value::bytes(a[0].as_bytes() + a[1].as_bytes());
      case Kind::List: return concat_lists(a[0], a[1]);
      case Kind::Duration: {
        const auto r = rr::cel::add(a[0].as_duration(), a[1].as_duration());
        return r ? Value(*r) : Value::error("duration out of range");
      }
      default: break;
    }
  }
  if (k0 == Kind::Timestamp && k1 == Kind::Duration) {
    const auto r = rr::cel::add(a[0].as_timestamp(), a[1].as_duration());
    return r ? Value(*r) : Value::error("timestamp out of range");
  }
  if (k0 == Kind::Duration && k1 == Kind::Timestamp) {
    const auto r = rr::cel::add(a[1].as_timestamp(), a[0].as_duration());
    return r ? Value(*r) : Value::error("timestamp out of range");
  }
  return no_overload("_+_", a);
}

Value subtract(std::span<const Value> a) {
  const Kind k0 = a[0].kind(), k1 = a[1].kind();
  if (k0 == k1) {
    switch (k0) {
      case Kind::Int: return checked(checked_sub(a[0].as_int(), a[1].as_int()));
      case Kind::Uint: return checked(checked_sub(a[0].as_uint(), a[1].as_uint()));
      case Kind::Double: return Value(a[0].as_double() - a[1].as_double());
      case Kind::Duration: {
        const auto r = rr::cel::add(a[0].as_duration(), negate(a[1].as_duration()));
        return r ? Value(*r) : Value::error("duration out of range");
      }
      case Kind::Timestamp: {
        const auto r = rr::cel::subtract(a[0].as_timestamp(), a[1].as_timestamp());
        return r ? Value(*r) : Value::error("duration out of range");
      }
      default: break;
    }
  }
  if (k0 == Kind::Timestamp && k1 == Kind::Duration) {
    const auto r = rr::cel::add(a[0].as_timestamp(), negate(a[1].as_duration()));
    return r ? Value(*r) : Value::error("timestamp out of range");
  }
  return no_overload("_-_", a);
}

Value multiply(std::span<const Value> a) {
  if (a[0].kind() == a[1].kind()) {
    switch (a[0].kind()) {
      case Kind::Int: return checked(checked_mul(a[0].as_int(), a[1].as_int()));
      case Kind::Uint: return checked(checked_mul(a[0].as_uint(), a[1].as_uint()));
      case Kind::Double: return Value(a[0].as_double() * a[1].as_double());
      default: break;
    }
  }
  return no_overload("_*_", a);
}

Value divide(std::span<const Value> a) {
  if (a[0].kind() == a[1].kind()) {
    switch (a[0].kind()) {
      case Kind::Int: {
        const std::int64_t x = a[0].as_int(), y = a[1].as_int();
        if (y == 0) return Value::error("division by zero");
        if (x == INT64_MIN && y == -1) return overflow();
        return Value(x / y);
      }
      case Kind::Uint: {
        if (a[1].as_uint() == 0) return Value::error("division by zero");
        return Value(a[0].as_uint() / a[1].as_uint());
      }
      case Kind::Double: return Value(a[0].as_double() / a[1].as_double());
      default: break;
    }
  }
  return no_overload("_/_", a);
}

Value modulo(std::span<const Value> a) {
  if (a[0].kind() == a[1].kind()) {
    switch (a[0].kind()) {
      case Kind::Int: {
        const std::int64_t x = a[0].as_int(), y = a[1].as_int();
        if (y == 0) return Value::error("modulus by zero");
        if (x == INT64_MIN && y == -1) return overflow();
        return Value(x % y);
      }
      case Kind::Uint: {
        if (a[1].as_uint() == 0) return Value::error("modulus by zero");
        return Value(a[0].as_uint() % a[1].as_uint());
      }
      default: break;
    }
  }
  return no_overload("_%_", a);
}

Value negate_value(std::span<const Value> a) {
  if (a[0].kind() == Kind::Int) {
    if (a[0].as_int() == INT64_MIN) return overflow();
    return Value(-a[0].as_int());
  }
  if (a[0].kind() == Kind::Double) return Value(-a[0].as_double());
  return no_overload("-_", a);
}

Value logical_not(std::span<const Value> a) {
  if (a[0].kind() == Kind::Bool) return Value(!a[0].as_bool());
  return no_overload("!_", a);
}

Value equal(std::span<const Value> a) { return Value(equals(a[0], a[1])); }
Value not_equal(std::span<const Value> a) { return Value(!equals(a[0], a[1])); }

// -1/0/1, or nullopt when the two are not ordered (NaN) and an error value when they cannot be
// compared at all.
std::optional<int> order(std::span<const Value> a, const char* fn, Value& error) {
  const Kind k0 = a[0].kind(), k1 = a[1].kind();
  if (is_numeric(k0) && is_numeric(k1)) return numeric_compare(a[0], a[1]);
  if (k0 == k1) {
    switch (k0) {
      case Kind::Bool: return static_cast<int>(a[0].as_bool()) - static_cast<int>(a[1].as_bool());
      case Kind::String: {
        const int c = a[0].as_string().compare(a[1].as_string());
        return c < 0 ? -1 : (c > 0 ? 1 : 0);
      }
      case Kind::Bytes: {
        const int c = a[0].as_bytes().compare(a[1].as_bytes());
        return c < 0 ? -1 : (c > 0 ? 1 : 0);
      }
      case Kind::Duration: {
        const auto x = a[0].as_duration(), y = a[1].as_duration();
        return x < y ? -1 : (x > y ? 1 : 0);
      }
      case Kind::Timestamp: {
        const auto x = a[0].as_timestamp(), y = a[1].as_timestamp();
        return x < y ? -1 : (x > y ? 1 : 0);
      }
      default: break;
    }
  }
  error = no_overload(fn, a);
  return std::nullopt;
}

template <bool (*Test)(int)>
Value compare_with(std::span<const Value> a, const char* fn) {
  Value error;
  const auto c = order(a, fn, error);
  if (error.is_error()) return error;
  return Value(c.has_value() && Test(*c));
}

bool lt(int c) { return c < 0; }
bool le(int c) { return c <= 0; }
bool gt(int c) { return c > 0; }
bool ge(int c) { return c >= 0; }

Value less(std::span<const Value> a) { return compare_with<lt>(a, "_<_"); }
Value less_equal(std::span<const Value> a) { return compare_with<le>(a, "_<=_"); }
Value greater(std::span<const Value> a) { return compare_with<gt>(a, "_>_"); }
Value greater_equal(std::span<const Value> a) { return compare_with<ge>(a, "_>=_"); }

Value in(std::span<const Value> a) {
  if (a[1].kind() == Kind::List) {
    for (const auto& item : a[1].as_list().items)
      if (equals(item, a[0])) return Value(true);
    return Value(false);
  }
  if (a[1].kind() == Kind::Map) return Value(a[1].as_map().find(a[0]) != nullptr);
  return no_overload("@in", a);
}

// A list index: int, uint, or a double with an integral value.
std::optional<std::int64_t> list_index(const Value& v) {
  switch (v.kind()) {
    case Kind::Int: return v.as_int();
    case Kind::Uint:
      if (v.as_uint() > static_cast<std::uint64_t>(INT64_MAX)) return INT64_MAX;
      return static_cast<std::int64_t>(v.as_uint());
    case Kind::Double: {
      const double d = v.as_double();
      const auto i = double_to_int(d);
      if (!i || static_cast<double>(*i) != d) return std::nullopt;
      return i;
    }
    default: return std::nullopt;
  }
}

bool valid_map_key(const Value& k) {
  switch (k.kind()) {
    case Kind::Int:
    case Kind::Uint:
    case Kind::Bool:
    case Kind::String:
    case Kind::Double: return true;
    default: return false;
  }
}

// The element, nullptr when absent; `error` set when the index cannot apply at all.
const Value* lookup(std::span<const Value> a, const char* fn, Value& error) {
  if (a[0].kind() == Kind::List) {
    const auto i = list_index(a[1]);
    if (!i) {
      error = a[1].kind() == Kind::Double ? Value::error("unsupported index value") : no_overload(fn, a);
      return nullptr;
    }
    const auto& items = a[0].as_list().items;
    if (*i < 0 || static_cast<std::uint64_t>(*i) >= items.size()) {
      error = Value::error("index out of bounds: " + std::to_string(*i));
      return nullptr;
    }
    return &items[static_cast<std::size_t>(*i)];
  }
  if (a[0].kind() == Kind::Map) {
    if (!valid_map_key(a[1])) {
      error = no_overload(fn, a);
      return nullptr;
    }
    return a[0].as_map().find(a[1]);
  }
  error = no_overload(fn, a);
  return nullptr;
}

Value index(std::span<const Value> a) {
  if (a[0].kind() == Kind::Optional) {
    // Indexing an optional chains: none stays none, a value is indexed optionally.
    const Value* inner = a[0].optional_value();
    if (inner == nullptr) return a[0];
    const Value args[] = {*inner, a[1]};
    Value error;
    const Value* found = lookup(args, "_[_]", error);
    if (error.is_error()) return error;
    return found ? Value::optional_of(*found) : Value::optional_none();
  }
  Value error;
  const Value* found = lookup(a, "_[_]", error);
  if (error.is_error()) return error;
  if (found == nullptr) return Value::error("no such key: " + debug_string(a[1]));
  return *found;
}

Value optional_index(std::span<const Value> a) {
  if (a[0].kind() == Kind::Optional) {
    const Value* inner = a[0].optional_value();
    if (inner == nullptr) return a[0];
    const Value args[] = {*inner, a[1]};
    return optional_index(args);
  }
  Value error;
  const Value* found = lookup(a, "_[?_]", error);
  if (error.is_error()) {
    // An index past the end of a list is an absent value here, not an error.
    if (a[0].kind() == Kind::List && list_index(a[1])) return Value::optional_none();
    return error;
  }
  return found ? Value::optional_of(*found) : Value::optional_none();
}

}  // namespace

void register_operators(FunctionTable& t) {
  t.add("_+_", add, true, false);
  t.add("_-_", subtract, true, false);
  t.add("_*_", multiply, true, false);
  t.add("_/_", divide, true, false);
  t.add("_%_", modulo, true, false);
  t.add("-_", negate_value, true, false);
  t.add("!_", logical_not, true, false);
  t.add("_==_", equal, true, false);
  t.add("_!=_", not_equal, true, false);
  t.add("_<_", less, true, false);
  t.add("_<=_", less_equal, true, false);
  t.add("_>_", greater, true, false);
  t.add("_>=_", greater_equal, true, false);
  t.add("@in", in, true, false);
  t.add("_[_]", index, true, false);
  t.add("_[?_]", optional_index, true, false);
}

}  // namespace rr::cel
