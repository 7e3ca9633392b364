// Kubernetes' lists library (isSorted, sum, min, max, indexOf, lastIndexOf on lists), cel-go's
// lists extension (slice, flatten, distinct, sort, first, last, lists.range; sortBy is a macro,
// comprehension.cpp) and sets extension (sets.contains, sets.equivalent, sets.intersects).
#include <algorithm>

#include "functions.hpp"
#include "numeric.hpp"
#include "time_util.hpp"

namespace rr::cel {

namespace {

bool is_list(const Value& v) { return v.kind() == Kind::List; }

// -1, 0, 1 for two values of one comparable kind (numbers compare across kinds); nullopt otherwise.
std::optional<int> compare(const Value& a, const Value& b) {
  if (is_numeric(a.kind()) && is_numeric(b.kind())) return numeric_compare(a, b);
  if (a.kind() != b.kind()) return std::nullopt;
  auto sign = [](auto x, auto y) { return x < y ? -1 : (y < x ? 1 : 0); };
  switch (a.kind()) {
    case Kind::Bool: return sign(a.as_bool(), b.as_bool());
    case Kind::String: return sign(a.as_string(), b.as_string());
    case Kind::Bytes: return sign(a.as_bytes(), b.as_bytes());
    case Kind::Duration: return sign(a.as_duration(), b.as_duration());
    case Kind::Timestamp: return sign(a.as_timestamp(), b.as_timestamp());
    default: return std::nullopt;
  }
}

Value is_sorted(std::span<const Value> a) {
  if (a.size() != 1 || !is_list(a[0])) return no_overload("isSorted", a);
  const auto& items = a[0].as_list().items;
  for (std::size_t i = 1; i < items.size(); ++i) {
    const auto c = compare(items[i - 1], items[i]);
    if (!c) return Value::error("isSorted: elements of type " + type_name(items[i]) + " are not comparable");
    if (*c > 0) return Value(false);
  }
  return Value(true);
}

template <int Want>
Value extreme(std::span<const Value> a, const char* name) {
  if (a.size() != 1 || !is_list(a[0])) return no_overload(name, a);
  const auto& items = a[0].as_list().items;
  if (items.empty()) return Value::error(std::string(name) + " called on empty list");
  const Value* best = &items[0];
  for (const auto& v : items) {
    const auto c = compare(v, *best);
    if (!c) return Value::error(std::string(name) + ": elements of type " + type_name(v) + " are not comparable");
    if (*c == Want) best = &v;
  }
  return *best;
}

Value min(std::span<const Value> a) { return extreme<-1>(a, "min"); }
Value max(std::span<const Value> a) { return extreme<1>(a, "max"); }

Value sum(std::span<const Value> a) {
  if (a.size() != 1 || !is_list(a[0])) return no_overload("sum", a);
  const auto& items = a[0].as_list().items;
  if (items.empty()) return Value(std::int64_t{0});
  Value total = items[0];
  for (std::size_t i = 1; i < items.size(); ++i) {
    const Value& v = items[i];
    if (v.kind() != total.kind())
      return Value::error("sum: mixed element types " + type_name(total) + " and " + type_name(v));
    switch (v.kind()) {
      case Kind::Int: {
        const auto r = checked_add(total.as_int(), v.as_int());
        if (!r) return Value::error("integer overflow");
        total = Value(*r);
        break;
      }
      case Kind::Uint: {
        const auto r = checked_add(total.as_uint(), v.as_uint());
        if (!r) return Value::error("integer overflow");
        total = Value(*r);
        break;
      }
      case Kind::Double: total = Value(total.as_double() + v.as_double()); break;
      case Kind::Duration: {
        const auto r = add(total.as_duration(), v.as_duration());
        if (!r) return Value::error("duration out of range");
        total = Value(*r);
        break;
      }
      default: return Value::error("sum: elements of type " + type_name(v) + " cannot be added");
    }
  }
  if (!is_numeric(total.kind()) && total.kind() != Kind::Duration)
    return Value::error("sum: elements of type " + type_name(total) + " cannot be added");
  return total;
}

// indexOf/lastIndexOf on a list; strings go to the strings extension.
Value list_index_of(std::span<const Value> a, bool last, FunctionImpl string_version) {
  if (a.size() == 2 && is_list(a[0])) {
    const auto& items = a[0].as_list().items;
    for (std::size_t k = 0; k < items.size(); ++k) {
      const std::size_t i = last ? items.size() - 1 - k : k;
      if (equals(items[i], a[1])) return Value(static_cast<std::int64_t>(i));
    }
    return Value(std::int64_t{-1});
  }
  return string_version(a);
}

Value index_of(std::span<const Value> a) { return list_index_of(a, false, string_index_of); }
Value last_index_of(std::span<const Value> a) { return list_index_of(a, true, string_last_index_of); }

Value slice(std::span<const Value> a) {
  if (a.size() != 3 || !is_list(a[0]) || a[1].kind() != Kind::Int || a[2].kind() != Kind::Int)
    return no_overload("slice", a);
  const auto& items = a[0].as_list().items;
  const std::int64_t start = a[1].as_int(), end = a[2].as_int();
  if (start < 0 || end < 0)
    return Value::error("cannot slice(" + std::to_string(start) + ", " + std::to_string(end) +
                        "), negative indexes not supported");
  if (start > end)
    return Value::error("cannot slice(" + std::to_string(start) + ", " + std::to_string(end) +
                        "), start index must be less than or equal to end index");
  if (static_cast<std::uint64_t>(end) > items.size())
    return Value::error("cannot slice(" + std::to_string(start) + ", " + std::to_string(end) + "), list is length " +
                        std::to_string(items.size()));
  return Value::list(std::vector<Value>(items.begin() + start, items.begin() + end));
}

void flatten_into(const Value& list, std::int64_t depth, std::vector<Value>& out) {
  for (const auto& item : list.as_list().items) {
    if (item.kind() == Kind::List && depth > 0) flatten_into(item, depth - 1, out);
    else out.push_back(item);
  }
}

Value flatten(std::span<const Value> a) {
  if (a.empty() || a.size() > 2 || !is_list(a[0]) || (a.size() == 2 && a[1].kind() != Kind::Int))
    return no_overload("flatten", a);
  const std::int64_t depth = a.size() == 2 ? a[1].as_int() : 1;
  if (depth < 0) return Value::error("level must be non-negative");
  std::vector<Value> out;
  flatten_into(a[0], depth, out);
  return Value::list(std::move(out));
}

Value distinct(std::span<const Value> a) {
  if (a.size() != 1 || !is_list(a[0])) return no_overload("distinct", a);
  std::vector<Value> out;
  for (const auto& item : a[0].as_list().items) {
    bool seen = false;
    for (const auto& kept : out) seen = seen || equals(kept, item);
    if (!seen) out.push_back(item);
  }
  return Value::list(std::move(out));
}

Value first_or_last(std::span<const Value> a, bool last) {
  if (a.size() != 1 || !is_list(a[0])) return no_overload(last ? "last" : "first", a);
  const auto& items = a[0].as_list().items;
  if (items.empty()) return Value::optional_none();
  return Value::optional_of(last ? items.back() : items.front());
}

Value first(std::span<const Value> a) { return first_or_last(a, false); }
Value last(std::span<const Value> a) { return first_or_last(a, true); }

Value range(std::span<const Value> a) {
  if (a.size() != 1 || a[0].kind() != Kind::Int) return no_overload("lists.range", a);
  std::vector<Value> out;
  for (std::int64_t i = 0; i < a[0].as_int(); ++i) out.emplace_back(i);
  return Value::list(std::move(out));
}

bool contains_all(const Value& list, const Value& sub) {
  for (const auto& x : sub.as_list().items) {
    bool found = false;
    for (const auto& y : list.as_list().items)
      if (equals(x, y)) {
        found = true;
        break;
      }
    if (!found) return false;
  }
  return true;
}

}  // namespace

Value sort_by_keys(const std::vector<Value>& items, const std::vector<Value>& keys) {
  if (!keys.empty()) {
    const Kind kind = keys[0].kind();
    for (const auto& k : keys)
      if (k.kind() != kind || !compare(k, keys[0]))
        return Value::error("list elements must have the same comparable type (int, uint, double, bool, duration, "
                            "timestamp, string or bytes), got " +
                            type_name(k));
  }
  std::vector<std::size_t> order(items.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t x, std::size_t y) { return *compare(keys[x], keys[y]) < 0; });
  std::vector<Value> out;
  out.reserve(items.size());
  for (const std::size_t i : order) out.push_back(items[i]);
  return Value::list(std::move(out));
}

namespace {

Value sort(std::span<const Value> a) {
  if (a.size() != 1 || !is_list(a[0])) return no_overload("sort", a);
  return sort_by_keys(a[0].as_list().items, a[0].as_list().items);
}

Value sets_contains(std::span<const Value> a) {
  if (a.size() != 2 || !is_list(a[0]) || !is_list(a[1])) return no_overload("sets.contains", a);
  return Value(contains_all(a[0], a[1]));
}

Value sets_equivalent(std::span<const Value> a) {
  if (a.size() != 2 || !is_list(a[0]) || !is_list(a[1])) return no_overload("sets.equivalent", a);
  return Value(contains_all(a[0], a[1]) && contains_all(a[1], a[0]));
}

Value sets_intersects(std::span<const Value> a) {
  if (a.size() != 2 || !is_list(a[0]) || !is_list(a[1])) return no_overload("sets.intersects", a);
  for (const auto& x : a[0].as_list().items)
    for (const auto& y : a[1].as_list().items)
      if (equals(x, y)) return Value(true);
  return Value(false);
}

}  // namespace

void register_lists(FunctionTable& t) {
  // indexOf and lastIndexOf serve lists and, through the strings extension, strings.
  t.add("indexOf", index_of, false, true);
  t.add("lastIndexOf", last_index_of, false, true);
  t.add("isSorted", is_sorted, false, true);
  t.add("sum", sum, false, true);
  t.add("min", min, false, true);
  t.add("max", max, false, true);
  t.add("slice", slice, false, true);
  t.add("flatten", flatten, false, true);
  t.add("distinct", distinct, false, true);
  t.add("sort", sort, false, true);
  t.add("first", first, false, true);
  t.add("last", last, false, true);
  t.add("lists.range", range, true, false);
  t.add("sets.contains", sets_contains, true, false);
  t.add("sets.equivalent", sets_equivalent, true, false);
  t.add("sets.intersects", sets_intersects, true, false);
}

}  // namespace rr::cel
