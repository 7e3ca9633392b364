// The runtime cost of calls (cost_model.hpp): cel-go's CostTracker.costCall for the standard
// library, the Kubernetes library's CallCost for its functions, everything else one unit.
#include <string>
#include <unordered_map>

#include "cost_model.hpp"
#include "utf8.hpp"

namespace rr::cel::cost {

std::uint64_t actual_size(const Value& v) {
  switch (v.kind()) {
    case Kind::String: return code_point_count(v.as_string());
    case Kind::Bytes: return v.as_bytes().size();
    case Kind::List: return v.as_list().items.size();
    case Kind::Map: return v.as_map().size();
    default: return 1;
  }
}

// The regex length the Kubernetes format library charges each named format's validate() with
// (MaxRegexSize). The five strfmt formats use the length of third-party patterns upstream; they
// are given the library's longest pattern here, 60 (docs/runtime/26-cel.md#cost).
std::uint64_t format_regex_size(std::string_view name) {
  static const std::unordered_map<std::string_view, std::uint64_t> sizes = {
      {"dns1123Label", 30},           {"dns1123Subdomain", 60},   {"dns1035Label", 30},
      {"qualifiedName", 60},          {"portName", 20},           {"dns1123LabelPrefix", 30},
      {"dns1123SubdomainPrefix", 60}, {"dns1035LabelPrefix", 30}, {"labelValue", 40},
  };
  const auto it = sizes.find(name);
  return it == sizes.end() ? max_format_regex_size : it->second;
}

namespace {

std::uint64_t traverse(const Value& v) { return by_factor(actual_size(v), string_traversal_factor); }

// The Kubernetes library's traversalCost: a walk over the value's strings and elements (its
// factor truncates where the rest rounds up).
std::uint64_t traversal_cost(const Value& v) {
  switch (v.kind()) {
    case Kind::String:
      return static_cast<std::uint64_t>(static_cast<double>(v.as_string().size()) * string_traversal_factor);
    case Kind::Bytes:
      return static_cast<std::uint64_t>(static_cast<double>(v.as_bytes().size()) * string_traversal_factor);
    case Kind::List: {
      std::uint64_t sum = 0;
      for (const auto& item : v.as_list().items) sum = add(sum, traversal_cost(item));
      return sum;
    }
    case Kind::Map: {
      std::uint64_t sum = 0;
      for (const auto& [k, val] : v.as_map().entries()) sum = add(sum, add(traversal_cost(k), traversal_cost(val)));
      return sum;
    }
    default: return 1;
  }
}

std::uint64_t regex_cost(std::uint64_t text_size, std::uint64_t pattern_size) {
  return mul(by_factor(add(text_size, 1), string_traversal_factor), by_factor(pattern_size, regex_length_factor));
}

bool is_text(const Value& v) { return v.kind() == Kind::String || v.kind() == Kind::Bytes; }

std::uint64_t one(std::span<const Value>, const Value&) { return 1; }
std::uint64_t first_traversed(std::span<const Value> a, const Value&) { return traverse(a[0]); }
std::uint64_t first_traversed_twice(std::span<const Value> a, const Value&) {
  return by_factor(actual_size(a[0]), 2 * string_traversal_factor);
}
std::uint64_t first_walked(std::span<const Value> a, const Value&) { return traversal_cost(a[0]); }
std::uint64_t result_traversed_twice(std::span<const Value>, const Value& r) {
  return by_factor(actual_size(r), 2 * string_traversal_factor);
}
std::uint64_t text_converted(std::span<const Value> a, const Value&) { return is_text(a[0]) ? traverse(a[0]) : 1; }
// `cidr.ip()` reads a field; `ip(s)` parses s.
std::uint64_t ip(std::span<const Value> a, const Value&) { return a[0].kind() == Kind::String ? traverse(a[0]) : 1; }
// Comparing at most a CIDR's prefix (the CIDR value has size 1, as upstream's), plus parsing a
// string argument.
std::uint64_t contains_ip(std::span<const Value> a, const Value&) {
  std::uint64_t c = by_factor(2, string_traversal_factor);
  if (a[1].kind() == Kind::String) c = add(c, traverse(a[1]));
  return c;
}
std::uint64_t contains_cidr(std::span<const Value> a, const Value& r) {
  return add(contains_ip(a, r), by_factor(1, string_traversal_factor) + 1);
}
std::uint64_t find(std::span<const Value> a, const Value&) { return regex_cost(actual_size(a[0]), actual_size(a[1])); }
std::uint64_t validate(std::span<const Value> a, const Value&) {
  return regex_cost(actual_size(a[1]),
                    format_regex_size(a[0].kind() == Kind::Opaque ? a[0].as_opaque().to_string() : ""));
}
std::uint64_t in(std::span<const Value> a, const Value&) { return a[1].kind() == Kind::List ? actual_size(a[1]) : 1; }
// O(min(m, n)): comparing strings, bytes, or (for equality) any values.
std::uint64_t compare(std::span<const Value> a, const Value&) {
  return by_factor(std::min(actual_size(a[0]), actual_size(a[1])), string_traversal_factor);
}
std::uint64_t order(std::span<const Value> a, const Value& r) { return is_text(a[0]) ? compare(a, r) : 1; }
std::uint64_t plus(std::span<const Value> a, const Value&) {
  if (!is_text(a[0])) return 1;
  return by_factor(add(actual_size(a[0]), actual_size(a[1])), string_traversal_factor);
}
std::uint64_t contains(std::span<const Value> a, const Value&) {
  if (a[0].kind() != Kind::String) return 1;
  return mul(traverse(a[0]), traverse(a[1]));
}
// The lists extension's functions that build or walk a whole list: one unit per element of the
// result (or the receiver), so that lists.range(n) or flatten() cannot allocate for free.
std::uint64_t result_elements(std::span<const Value>, const Value& r) {
  return std::max<std::uint64_t>(1, actual_size(r));
}
std::uint64_t receiver_elements(std::span<const Value> a, const Value&) {
  return std::max<std::uint64_t>(1, actual_size(a[0]));
}

// cel-go's sets extension: every element of one list looked for in the other (twice for
// equivalence).
template <std::uint64_t Passes>
std::uint64_t sets(std::span<const Value> a, const Value&) {
  return add(1, mul(Passes, mul(actual_size(a[0]), actual_size(a[1]))));
}

const std::unordered_map<std::string_view, CallCostFn>& table() {
  static const std::unordered_map<std::string_view, CallCostFn> t = {
      // Kubernetes library (k8s.io/apiserver/pkg/cel/library/cost.go)
      {"isSorted", first_walked},
      {"sum", first_walked},
      {"max", first_walked},
      {"min", first_walked},
      {"indexOf", first_walked},
      {"lastIndexOf", first_walked},
      {"url", first_traversed},
      {"lowerAscii", first_traversed},
      {"upperAscii", first_traversed},
      {"substring", first_traversed},
      {"trim", first_traversed},
      {"replace", first_traversed_twice},
      {"split", first_traversed_twice},
      {"join", result_traversed_twice},
      {"find", find},
      {"findAll", find},
      {"cidr", first_traversed},
      {"isIP", first_traversed},
      {"isCIDR", first_traversed},
      {"ip", ip},
      {"ip.isCanonical", first_traversed_twice},
      {"containsIP", contains_ip},
      {"containsCIDR", contains_cidr},
      {"quantity", first_traversed},
      {"isQuantity", first_traversed},
      {"semver", first_traversed},
      {"isSemver", first_traversed},
      {"validate", validate},
      // cel-go's standard library (interpreter/runtimecost.go)
      {"startsWith", first_traversed},
      {"endsWith", first_traversed},
      {"string", text_converted},
      {"bytes", text_converted},
      {"@in", in},
      {"_==_", compare},
      {"_!=_", compare},
      {"_<_", order},
      {"_<=_", order},
      {"_>_", order},
      {"_>=_", order},
      {"_+_", plus},
      {"matches", find},
      {"contains", contains},
      // cel-go's strings extension: the quoted copy of the string
      {"strings.quote", first_traversed},
      {"sets.contains", sets<1>},
      {"sets.intersects", sets<1>},
      {"sets.equivalent", sets<2>},
      // the lists extension
      {"lists.range", result_elements},
      {"flatten", result_elements},
      {"distinct", receiver_elements},
      {"reverse", receiver_elements},
      {"slice", result_elements},
      {"sort", receiver_elements},
  };
  return t;
}

}  // namespace

CallCostFn call_cost_function(std::string_view function) {
  const auto& t = table();
  const auto it = t.find(function);
  return it == t.end() ? one : it->second;
}

}  // namespace rr::cel::cost
