// Optional values: optional.of, optional.none, optional.ofNonZeroValue, hasValue, value, or,
// orValue.
#include "functions.hpp"

namespace rr::cel {

namespace {

bool is_zero(const Value& v) {
  switch (v.kind()) {
    case Kind::Null: return true;
    case Kind::Bool: return !v.as_bool();
    case Kind::Int: return v.as_int() == 0;
    case Kind::Uint: return v.as_uint() == 0;
    case Kind::Double: return v.as_double() == 0;
    case Kind::String: return v.as_string().empty();
    case Kind::Bytes: return v.as_bytes().empty();
    case Kind::List: return v.as_list().items.empty();
    case Kind::Map: return v.as_map().size() == 0;
    case Kind::Duration: return v.as_duration() == Duration{};
    case Kind::Timestamp: return v.as_timestamp() == Timestamp{};
    case Kind::Optional: return v.optional_value() == nullptr;
    default: return false;
  }
}

Value of(std::span<const Value> a) {
  if (a.size() != 1) return no_overload("optional.of", a);
  return Value::optional_of(a[0]);
}

Value of_non_zero(std::span<const Value> a) {
  if (a.size() != 1) return no_overload("optional.ofNonZeroValue", a);
  return is_zero(a[0]) ? Value::optional_none() : Value::optional_of(a[0]);
}

Value none(std::span<const Value> a) {
  if (!a.empty()) return no_overload("optional.none", a);
  return Value::optional_none();
}

Value has_value(std::span<const Value> a) {
  if (a.size() != 1 || a[0].kind() != Kind::Optional) return no_overload("hasValue", a);
  return Value(a[0].optional_value() != nullptr);
}

Value value(std::span<const Value> a) {
  if (a.size() != 1 || a[0].kind() != Kind::Optional) return no_overload("value", a);
  if (a[0].optional_value() == nullptr) return Value::error("optional.none() dereference");
  return *a[0].optional_value();
}

Value or_optional(std::span<const Value> a) {
  if (a.size() != 2 || a[0].kind() != Kind::Optional || a[1].kind() != Kind::Optional) return no_overload("or", a);
  return a[0].optional_value() != nullptr ? a[0] : a[1];
}

Value or_value(std::span<const Value> a) {
  if (a.size() != 2 || a[0].kind() != Kind::Optional) return no_overload("orValue", a);
  return a[0].optional_value() != nullptr ? *a[0].optional_value() : a[1];
}

}  // namespace

void register_optionals(FunctionTable& t) {
  t.add("optional.of", of, true, false);
  t.add("optional.ofNonZeroValue", of_non_zero, true, false);
  t.add("optional.none", none, true, false);
  t.add("hasValue", has_value, false, true);
  t.add("value", value, false, true);
  t.add("or", or_optional, false, true);
  t.add("orValue", or_value, false, true);
}

}  // namespace rr::cel
