// The strings extension (cel-go ext.Strings, in Kubernetes' CEL environment): charAt, indexOf,
// lastIndexOf, lowerAscii, upperAscii, replace, split, substring, trim, join, reverse,
// strings.quote. Indices count code points. format() is in fn_format.cpp.
#include <algorithm>
#include <vector>

#include "functions.hpp"
#include "utf8.hpp"

namespace rr::cel {

namespace {

std::vector<std::uint32_t> code_points(std::string_view s) {
  std::vector<std::uint32_t> out;
  std::size_t pos = 0;
  while (pos < s.size()) out.push_back(next_code_point(s, pos));
  return out;
}

std::string encode(const std::vector<std::uint32_t>& cps, std::size_t from, std::size_t to) {
  std::string out;
  for (std::size_t i = from; i < to; ++i) append_utf8(out, cps[i]);
  return out;
}

Value out_of_range(std::int64_t i) { return Value::error("index out of range: " + std::to_string(i)); }

bool is_string(const Value& v) { return v.kind() == Kind::String; }
bool is_int(const Value& v) { return v.kind() == Kind::Int; }

Value char_at(std::span<const Value> a) {
  if (a.size() != 2 || !is_string(a[0]) || !is_int(a[1])) return no_overload("charAt", a);
  const auto cps = code_points(a[0].as_string());
  const std::int64_t i = a[1].as_int();
  if (i < 0 || static_cast<std::uint64_t>(i) > cps.size()) return out_of_range(i);
  const auto at = static_cast<std::size_t>(i);
  return Value(at == cps.size() ? std::string() : encode(cps, at, at + 1));
}

bool match_at(const std::vector<std::uint32_t>& s, const std::vector<std::uint32_t>& sub, std::size_t i) {
  for (std::size_t j = 0; j < sub.size(); ++j)
    if (s[i + j] != sub[j]) return false;
  return true;
}

}  // namespace

Value string_index_of(std::span<const Value> a) {
  if (a.size() < 2 || a.size() > 3 || !is_string(a[0]) || !is_string(a[1]) || (a.size() == 3 && !is_int(a[2])))
    return no_overload("indexOf", a);
  const std::int64_t offset = a.size() == 3 ? a[2].as_int() : 0;
  if (a[1].as_string().empty()) return Value(offset);
  const auto s = code_points(a[0].as_string());
  const auto sub = code_points(a[1].as_string());
  if (offset < 0 || static_cast<std::uint64_t>(offset) >= s.size()) return out_of_range(offset);
  for (std::size_t i = static_cast<std::size_t>(offset); i + sub.size() <= s.size(); ++i)
    if (match_at(s, sub, i)) return Value(static_cast<std::int64_t>(i));
  return Value(std::int64_t{-1});
}

Value string_last_index_of(std::span<const Value> a) {
  if (a.size() < 2 || a.size() > 3 || !is_string(a[0]) || !is_string(a[1]) || (a.size() == 3 && !is_int(a[2])))
    return no_overload("lastIndexOf", a);
  const auto s = code_points(a[0].as_string());
  const auto sub = code_points(a[1].as_string());
  std::int64_t offset = a.size() == 3 ? a[2].as_int() : static_cast<std::int64_t>(s.size());
  if (sub.empty()) return Value(offset);
  if (a.size() == 3 && (offset < 0 || static_cast<std::uint64_t>(offset) >= s.size())) return out_of_range(offset);
  if (sub.size() > s.size()) return Value(std::int64_t{-1});
  offset = std::min(offset, static_cast<std::int64_t>(s.size() - sub.size()));
  for (std::int64_t i = offset; i >= 0; --i)
    if (match_at(s, sub, static_cast<std::size_t>(i))) return Value(i);
  return Value(std::int64_t{-1});
}

namespace {

template <bool Upper>
Value ascii_case(std::span<const Value> a) {
  if (a.size() != 1 || !is_string(a[0])) return no_overload(Upper ? "upperAscii" : "lowerAscii", a);
  std::string s = a[0].as_string();
  for (char& c : s) {
    if (Upper && c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    if (!Upper && c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return Value(std::move(s));
}

// Go's strings.Replace: at most n replacements (all when n < 0); an empty `from` matches before
// every code point and at the end.
std::string replace_n(const std::string& s, const std::string& from, const std::string& to, std::int64_t n) {
  if (n == 0) return s;
  std::string out;
  std::size_t pos = 0;
  std::int64_t done = 0;
  if (from.empty()) {
    while (pos <= s.size() && (n < 0 || done < n)) {
      out += to;
      ++done;
      if (pos == s.size()) return out;
      const std::size_t len = utf8_sequence_length(s, pos);
      out += s.substr(pos, len);
      pos += len;
    }
    return out + s.substr(std::min(pos, s.size()));
  }
  while (n < 0 || done < n) {
    const std::size_t at = s.find(from, pos);
    if (at == std::string::npos) break;
    out += s.substr(pos, at - pos) + to;
    pos = at + from.size();
    ++done;
  }
  return out + s.substr(pos);
}

Value replace(std::span<const Value> a) {
  if (a.size() < 3 || a.size() > 4 || !is_string(a[0]) || !is_string(a[1]) || !is_string(a[2]) ||
      (a.size() == 4 && !is_int(a[3])))
    return no_overload("replace", a);
  return Value(replace_n(a[0].as_string(), a[1].as_string(), a[2].as_string(), a.size() == 4 ? a[3].as_int() : -1));
}

// Go's strings.SplitN.
Value split(std::span<const Value> a) {
  if (a.size() < 2 || a.size() > 3 || !is_string(a[0]) || !is_string(a[1]) || (a.size() == 3 && !is_int(a[2])))
    return no_overload("split", a);
  const std::string& s = a[0].as_string();
  const std::string& sep = a[1].as_string();
  const std::int64_t n = a.size() == 3 ? a[2].as_int() : -1;
  std::vector<Value> parts;
  if (n == 0) return Value::list(std::move(parts));
  std::size_t pos = 0;
  if (sep.empty()) {
    while (pos < s.size()) {
      if (n > 0 && static_cast<std::int64_t>(parts.size()) == n - 1) {
        parts.emplace_back(s.substr(pos));
        return Value::list(std::move(parts));
      }
      const std::size_t len = utf8_sequence_length(s, pos);
      parts.emplace_back(s.substr(pos, len));
      pos += len;
    }
    return Value::list(std::move(parts));
  }
  while (n < 0 || static_cast<std::int64_t>(parts.size()) < n - 1) {
    const std::size_t at = s.find(sep, pos);
    if (at == std::string::npos) break;
    parts.emplace_back(s.substr(pos, at - pos));
    pos = at + sep.size();
  }
  parts.emplace_back(s.substr(pos));
  return Value::list(std::move(parts));
}

Value substring(std::span<const Value> a) {
  if (a.size() < 2 || a.size() > 3 || !is_string(a[0]) || !is_int(a[1]) || (a.size() == 3 && !is_int(a[2])))
    return no_overload("substring", a);
  const auto cps = code_points(a[0].as_string());
  const std::int64_t size = static_cast<std::int64_t>(cps.size());
  const std::int64_t start = a[1].as_int();
  const std::int64_t end = a.size() == 3 ? a[2].as_int() : size;
  if (start < 0 || start > size) return out_of_range(start);
  if (end < 0 || end > size) return out_of_range(end);
  if (start > end)
    return Value::error("invalid substring range. start: " + std::to_string(start) + ", end: " + std::to_string(end));
  return Value(encode(cps, static_cast<std::size_t>(start), static_cast<std::size_t>(end)));
}

// Unicode White_Space, as Go's unicode.IsSpace.
bool is_space(std::uint32_t c) {
  return (c >= 0x09 && c <= 0x0D) || c == 0x20 || c == 0x85 || c == 0xA0 || c == 0x1680 ||
         (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
}

Value trim(std::span<const Value> a) {
  if (a.size() != 1 || !is_string(a[0])) return no_overload("trim", a);
  const auto cps = code_points(a[0].as_string());
  std::size_t from = 0, to = cps.size();
  while (from < to && is_space(cps[from])) ++from;
  while (to > from && is_space(cps[to - 1])) --to;
  return Value(encode(cps, from, to));
}

Value join(std::span<const Value> a) {
  if (a.empty() || a.size() > 2 || a[0].kind() != Kind::List || (a.size() == 2 && !is_string(a[1])))
    return no_overload("join", a);
  const std::string sep = a.size() == 2 ? a[1].as_string() : std::string();
  std::string out;
  bool first = true;
  for (const auto& item : a[0].as_list().items) {
    if (!is_string(item)) return Value::error("join: list element is " + type_name(item) + ", not string");
    if (!first) out += sep;
    out += item.as_string();
    first = false;
  }
  return Value(std::move(out));
}

Value reverse(std::span<const Value> a) {
  if (a.size() == 1 && a[0].kind() == Kind::List) {  // the lists extension's reverse()
    std::vector<Value> items = a[0].as_list().items;
    std::reverse(items.begin(), items.end());
    return Value::list(std::move(items));
  }
  if (a.size() != 1 || !is_string(a[0])) return no_overload("reverse", a);
  auto cps = code_points(a[0].as_string());
  std::reverse(cps.begin(), cps.end());
  return Value(encode(cps, 0, cps.size()));
}

Value quote(std::span<const Value> a) {
  if (a.size() != 1 || !is_string(a[0])) return no_overload("strings.quote", a);
  const std::string& s = a[0].as_string();
  std::string out = "\"";
  std::size_t pos = 0;
  while (pos < s.size()) {
    const std::size_t len = utf8_sequence_length(s, pos);
    const std::string_view seq(s.data() + pos, len);
    pos += len;
    if (!valid_utf8(seq)) {
      out += "\xEF\xBF\xBD";  // U+FFFD for an invalid sequence
      continue;
    }
    switch (seq[0]) {
      case '\a': out += "\\a"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\v': out += "\\v"; break;
      case '\\': out += "\\\\"; break;
      case '"': out += "\\\""; break;
      default: out += seq;
    }
  }
  return Value(out + "\"");
}

}  // namespace

void register_strings_ext(FunctionTable& t) {
  t.add("charAt", char_at, false, true);
  t.add("lowerAscii", ascii_case<false>, false, true);
  t.add("upperAscii", ascii_case<true>, false, true);
  t.add("replace", replace, false, true);
  t.add("split", split, false, true);
  t.add("substring", substring, false, true);
  t.add("trim", trim, false, true);
  t.add("join", join, false, true);
  t.add("reverse", reverse, false, true);
  t.add("strings.quote", quote, true, false);
}

}  // namespace rr::cel
