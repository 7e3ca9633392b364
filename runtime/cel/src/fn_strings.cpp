// size() and the standard string functions: contains, startsWith, endsWith, matches; Kubernetes'
// regex library: find, findAll.
#include "functions.hpp"
#include "regex.hpp"
#include "utf8.hpp"

namespace rr::cel {

namespace {

Value size(std::span<const Value> a) {
  if (a.size() == 1) {
    switch (a[0].kind()) {
      case Kind::String: return Value(static_cast<std::int64_t>(code_point_count(a[0].as_string())));
      case Kind::Bytes: return Value(static_cast<std::int64_t>(a[0].as_bytes().size()));
      case Kind::List: return Value(static_cast<std::int64_t>(a[0].as_list().items.size()));
      case Kind::Map: return Value(static_cast<std::int64_t>(a[0].as_map().size()));
      default: break;
    }
  }
  return no_overload("size", a);
}

bool two_strings(std::span<const Value> a) {
  return a.size() >= 2 && a[0].kind() == Kind::String && a[1].kind() == Kind::String;
}

Value contains(std::span<const Value> a) {
  if (!two_strings(a)) return no_overload("contains", a);
  return Value(a[0].as_string().find(a[1].as_string()) != std::string::npos);
}

Value starts_with(std::span<const Value> a) {
  if (!two_strings(a)) return no_overload("startsWith", a);
  return Value(a[0].as_string().starts_with(a[1].as_string()));
}

Value ends_with(std::span<const Value> a) {
  if (!two_strings(a)) return no_overload("endsWith", a);
  return Value(a[0].as_string().ends_with(a[1].as_string()));
}

Value matches(std::span<const Value> a) {
  if (!two_strings(a)) return no_overload("matches", a);
  return regex_matches(a[0].as_string(), a[1].as_string());
}

// Kubernetes' regex library: the first match (or ""), and up to `limit` matches (all when negative).
Value find(std::span<const Value> a) {
  if (!two_strings(a)) return no_overload("find", a);
  return regex_find(a[0].as_string(), a[1].as_string(), 1, true);
}

Value find_all(std::span<const Value> a) {
  if (a.size() == 2 && two_strings(a)) return regex_find(a[0].as_string(), a[1].as_string(), -1, false);
  if (a.size() == 3 && two_strings(a.first(2)) && a[2].kind() == Kind::Int)
    return regex_find(a[0].as_string(), a[1].as_string(), a[2].as_int(), false);
  return no_overload("findAll", a);
}

}  // namespace

void register_strings(FunctionTable& t) {
  t.add("size", size, true, true);
  t.add("contains", contains, false, true);
  t.add("startsWith", starts_with, false, true);
  t.add("endsWith", ends_with, false, true);
  t.add("matches", matches, true, true);
  t.add("find", find, false, true);
  t.add("findAll", find_all, false, true);
}

}  // namespace rr::cel
