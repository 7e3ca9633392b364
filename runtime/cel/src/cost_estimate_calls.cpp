// The estimated cost of each call (cost_estimate.hpp): the Kubernetes library's
// EstimateCallCost first, then cel-go's functionCost for the standard library; one unit for the
// rest. Where upstream charges by an argument's size, the same size is charged here.
#include <algorithm>
#include <utility>

#include "cost_estimate.hpp"

namespace rr::cel::cost {

namespace {

using K = CelType::Kind;

constexpr double traversal = string_traversal_factor;

bool is_text(const CelType& t) { return t.kind() == K::String || t.kind() == K::Bytes; }

// The size of one element of a list typed `list`, or of the string itself.
Range element_size(const CelType& list) { return type_size(list.kind() == K::List ? list.elem() : list); }

// cel-go's regex estimate: (text + 1) characters times a term per 4 pattern characters.
Range regex(Range text, Range pattern) {
  return (text + Range::fixed(1)).times(traversal) * pattern.times(regex_length_factor);
}

// One end of replace()'s result size as {replacements, characters kept}, for a receiver of s
// characters and a replaced text of `from`: an empty one surrounds every character; when the
// replacement does not change the length (toward this end) the receiver's length stands; else
// as many replacements as fit.
std::pair<std::uint64_t, std::uint64_t> replace_end(std::uint64_t s, std::uint64_t from, bool length_kept) {
  if (from == 0) return {s < saturated ? s + 1 : s, s};
  if (length_kept) return {0, s};
  return {s / from + (s % from != 0 ? 1 : 0), 0};
}

// strings' replace(): the result's size range, cel-go's reasoning on the longest and shortest
// replacements.
Range replaced_size(Range s, Range from, Range to) {
  const auto [most, most_kept] = replace_end(s.max, from.min, to.max <= from.min);
  const auto [fewest, fewest_kept] = replace_end(s.min, from.max, from.max <= to.min);
  return Range{fewest, most} * to + Range{fewest_kept, most_kept};
}

std::optional<CallEstimate> kubernetes(const Operands& o, std::string_view fn, bool member,
                                       std::span<const Expr* const> x) {
  const std::size_t n = x.size();
  if (member &&
      (fn == "isSorted" || fn == "sum" || fn == "max" || fn == "min" || fn == "indexOf" || fn == "lastIndexOf")) {
    const CelType& target = o.type(*x[0]);
    if (target.kind() != K::List) return CallEstimate{o.size(*x[0]).times(traversal), {}};
    Range each = Range::fixed(1);  // a comparison per element, plus its characters for strings
    if (is_text(target.elem())) each = each + type_size(target.elem()).times(traversal);
    return CallEstimate{o.size(*x[0]) * each, {}};
  }
  if (!member && fn == "url" && n == 1) return CallEstimate{o.size(*x[0]).times(traversal), {}};
  if (member && (fn == "lowerAscii" || fn == "upperAscii" || fn == "substring" || fn == "trim"))
    return CallEstimate{o.size(*x[0]).times(traversal), o.size(*x[0])};
  if (member && fn == "replace" && n >= 3) {
    const Range s = o.size(*x[0]);
    return CallEstimate{s.times(2 * traversal), replaced_size(s, o.size(*x[1]), o.size(*x[2]))};
  }
  if (member && fn == "split") {
    const Range s = o.size(*x[0]);
    std::uint64_t most = s.max;  // every character its own element (an empty separator)
    if (n > 2)
      if (const auto* limit = std::get_if<ConstantExpr>(&x[2]->node); limit && limit->value.kind() == Kind::Int)
        most = static_cast<std::uint64_t>(limit->value.as_int());
    return CallEstimate{s.times(2 * traversal), Range{0, most}};
  }
  if (member && fn == "join") {
    const Range count = o.size(*x[0]);
    Range chars = count * element_size(o.type(*x[0]));
    if (n > 1) {
      const Range separators{count.min > 0 ? count.min - 1 : 0, count.max > 0 ? count.max - 1 : 0};
      chars = chars + o.size(*x[1]) * separators;
    }
    return CallEstimate{chars.times(traversal), chars};
  }
  if (member && (fn == "find" || fn == "findAll") && n >= 2)
    return CallEstimate{regex(o.size(*x[0]), o.size(*x[1])), Range{0, o.size(*x[0]).max}};
  if (fn == "masked" || fn == "prefixLength" || fn == "family" || fn == "isUnspecified" || fn == "isLoopback" ||
      fn == "isLinkLocalMulticast" || fn == "isLinkLocalUnicast" || (member && fn == "ip"))
    return CallEstimate{Range::fixed(1), {}};
  if (member && (fn == "containsIP" || fn == "containsCIDR") && n >= 2) {
    const Range address{4, 16};  // IPv4 or IPv6 bytes
    Range c = (address + address).times(traversal);
    if (fn == "containsCIDR") c = c + address.times(traversal) + Range::fixed(1);
    if (o.type(*x[1]).kind() == K::String) c = c + o.size(*x[1]).times(traversal);
    return CallEstimate{c, {}};
  }
  if (member && fn == "validate" && n >= 2)  // a named format's pattern, the longest when unknown
    return CallEstimate{regex(o.size(*x[1]), Range::fixed(max_format_regex_size)), {}};
  if (fn == "sign" || fn == "asInteger" || fn == "isInteger" || fn == "asApproximateFloat" || fn == "isGreaterThan" ||
      fn == "isLessThan" || fn == "compareTo" || fn == "add" || fn == "sub")
    return CallEstimate{Range::fixed(1), {}};
  return std::nullopt;
}

std::optional<CallEstimate> standard(const Operands& o, std::string_view fn, bool member,
                                     std::span<const Expr* const> x) {
  const std::size_t n = x.size();
  if (member && fn == "format" && n == 2)
    return CallEstimate{o.size(*x[0]).times(traversal), o.size(*x[0]) + o.size(*x[1])};
  if (!member && n == 1 && fn == "bytes" && o.type(*x[0]).kind() == K::String) {
    const Range s = o.size(*x[0]);
    return CallEstimate{s.times(traversal), Range{s.min, mul(s.max, 4)}};  // 4 bytes a character at most
  }
  if (!member && n == 1 && fn == "string" && o.type(*x[0]).kind() == K::Bytes) {
    const Range s = o.size(*x[0]);
    return CallEstimate{s.times(traversal), Range{s.min / 4, s.max}};
  }
  if (!member && n == 1 && fn == "strings.quote") {
    const Range s = o.size(*x[0]);
    return CallEstimate{s.times(traversal), Range{add(s.min, 2), add(mul(s.max, 2), 2)}};
  }
  if (member && n == 2 && (fn == "startsWith" || fn == "endsWith"))
    return CallEstimate{o.size(*x[1]).times(traversal), {}};
  if (!member && n == 2 && fn == "@in" && o.type(*x[1]).kind() != K::Map) return CallEstimate{o.size(*x[1]), {}};
  if (n == 2 && fn == "matches") return CallEstimate{regex(o.size(*x[0]), o.size(*x[1])), {}};
  if (member && n == 2 && fn == "contains" && o.type(*x[0]).kind() == K::String)
    return CallEstimate{o.size(*x[0]).times(traversal) * o.size(*x[1]).times(traversal), {}};
  if (!member && n == 2 && fn == "_+_") {
    const CelType& t = o.type(*x[0]);
    const Range total = o.size(*x[0]) + o.size(*x[1]);
    if (is_text(t)) return CallEstimate{total.times(traversal), total};
    if (t.kind() == K::List) return CallEstimate{Range::fixed(1), total};  // concatenation is O(1)
    return std::nullopt;
  }
  const bool ordering = fn == "_<_" || fn == "_<=_" || fn == "_>_" || fn == "_>=_";
  if (!member && n == 2 && (fn == "_==_" || fn == "_!=_" || (ordering && is_text(o.type(*x[0]))))) {
    const std::uint64_t smallest = std::min(o.size(*x[0]).max, o.size(*x[1]).max);
    return CallEstimate{Range{smallest > 0 ? 1u : 0u, smallest}.times(traversal), {}};
  }
  return std::nullopt;
}

// cel-go's sets extension, and the lists extension's functions that build or walk a whole list
// (runtime: cost_runtime.cpp).
std::optional<CallEstimate> lists(const Operands& o, std::string_view fn, bool member, std::span<const Expr* const> x) {
  if (!member && fn == "lists.range" && x.size() == 1) {
    const auto* c = std::get_if<ConstantExpr>(&x[0]->node);
    const std::uint64_t count = c && c->value.kind() == Kind::Int && c->value.as_int() > 0
                                    ? static_cast<std::uint64_t>(c->value.as_int())
                                    : unbounded_max_size(CelType::list(CelType::int_type()));
    return CallEstimate{Range{1, std::max<std::uint64_t>(1, count)}, Range{0, count}};
  }
  if (!member && x.size() == 2 && (fn == "sets.contains" || fn == "sets.intersects" || fn == "sets.equivalent")) {
    const Range pairs = o.size(*x[0]) * o.size(*x[1]);
    return CallEstimate{(fn == "sets.equivalent" ? pairs * Range::fixed(2) : pairs) + Range::fixed(1), {}};
  }
  if (member && (fn == "flatten" || fn == "distinct" || fn == "reverse" || fn == "slice" || fn == "sort")) {
    const Range s = o.size(*x[0]);
    return CallEstimate{Range{1, std::max<std::uint64_t>(1, s.max)}, s};
  }
  return std::nullopt;
}

}  // namespace

Range type_size(const CelType& t) {
  switch (t.kind()) {
    case K::Bool:
    case K::Int:
    case K::Uint:
    case K::Double:
    case K::Duration:
    case K::Timestamp:
    case K::Null:
    case K::Type:
    case K::Opaque: return Range::fixed(1);
    case K::Optional: return type_size(t.elem());
    default: return Range{0, t.max_size() ? *t.max_size() : unbounded_max_size(t)};
  }
}

CallEstimate estimate_call(const Operands& sizes, std::string_view function, bool member,
                           std::span<const Expr* const> operands) {
  if (auto k = kubernetes(sizes, function, member, operands)) return *k;
  if (auto s = standard(sizes, function, member, operands)) return *s;
  if (auto l = lists(sizes, function, member, operands)) return *l;
  return CallEstimate{Range::fixed(1), {}};
}

}  // namespace rr::cel::cost
