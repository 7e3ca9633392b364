#include "yaml_node.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace rrgen {

bool Node::is_null() const noexcept {
  return kind == Kind::Scalar && plain && (text.empty() || text == "null" || text == "Null" || text == "NULL" || text == "~");
}

const Node* Node::find(std::string_view key) const noexcept {
  if (kind != Kind::Mapping) return nullptr;
  for (std::size_t i = 0; i < keys.size(); ++i)
    if (keys[i] == key) return &children[i];
  return nullptr;
}

Location Node::key_location(std::string_view key) const noexcept {
  for (std::size_t i = 0; i < keys.size(); ++i)
    if (keys[i] == key) return key_locations[i];
  return location;
}

namespace {

bool is_int_text(std::string_view s) {
  if (s.empty()) return false;
  std::size_t i = (s[0] == '-' || s[0] == '+') ? 1 : 0;
  if (i == s.size()) return false;
  if (s.size() > i + 2 && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'o')) return false;  // keep simple: decimal only
  for (; i < s.size(); ++i)
    if (s[i] < '0' || s[i] > '9') return false;
  return true;
}

bool is_float_text(std::string_view s) {
  // [-+]? ( \. [0-9]+ | [0-9]+ ( \. [0-9]* )? ) ( [eE] [-+]? [0-9]+ )?
  std::size_t i = 0;
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
  std::size_t digits = 0;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, ++digits;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, ++digits;
  }
  if (digits == 0) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
    std::size_t exp = 0;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, ++exp;
    if (exp == 0) return false;
  }
  return i == s.size();
}

void append_json_string(std::string& out, std::string_view s) {
  out += '"';
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  out += '"';
}

std::string number_json(std::string_view s) {
  // JSON forbids a leading '+', leading zeros and bare '.5'; normalise through double/int64.
  if (is_int_text(s)) {
    std::string t(s[0] == '+' ? s.substr(1) : s);
    long long v = 0;
    auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (ec == std::errc() && p == t.data() + t.size()) return std::to_string(v);
    return t;  // out of int64 range: keep digits (valid JSON)
  }
  std::string t(s[0] == '+' ? s.substr(1) : s);
  double d = 0;
  auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), d);
  if (ec != std::errc() || !std::isfinite(d)) return "null";
  char buf[64];
  auto [e, ec2] = std::to_chars(buf, buf + sizeof buf, d);
  (void)ec2;
  return std::string(buf, e);
}

void write_json(std::string& out, const Node& n) {
  switch (n.kind) {
    case Node::Kind::Scalar:
      switch (resolve_scalar(n)) {
        case ScalarType::Null: out += "null"; return;
        case ScalarType::Bool: out += (n.text[0] == 't' || n.text[0] == 'T') ? "true" : "false"; return;
        case ScalarType::Int:
        case ScalarType::Float: out += number_json(n.text); return;
        case ScalarType::String: append_json_string(out, n.text); return;
      }
      return;
    case Node::Kind::Sequence:
      out += '[';
      for (std::size_t i = 0; i < n.children.size(); ++i) {
        if (i) out += ',';
        write_json(out, n.children[i]);
      }
      out += ']';
      return;
    case Node::Kind::Mapping:
      out += '{';
      for (std::size_t i = 0; i < n.children.size(); ++i) {
        if (i) out += ',';
        append_json_string(out, n.keys[i]);
        out += ':';
        write_json(out, n.children[i]);
      }
      out += '}';
      return;
  }
}

}  // namespace

ScalarType resolve_scalar(const Node& n) noexcept {
  if (!n.plain) return ScalarType::String;
  const std::string& t = n.text;
  if (n.is_null()) return ScalarType::Null;
  if (t == "true" || t == "True" || t == "TRUE" || t == "false" || t == "False" || t == "FALSE") return ScalarType::Bool;
  if (is_int_text(t)) return ScalarType::Int;
  if (is_float_text(t)) return ScalarType::Float;
  return ScalarType::String;
}

std::string to_json_text(const Node& n) {
  std::string out;
  write_json(out, n);
  return out;
}

std::string describe(const Node& n) {
  switch (n.kind) {
    case Node::Kind::Sequence: return "a sequence";
    case Node::Kind::Mapping: return "a mapping";
    case Node::Kind::Scalar:
      switch (resolve_scalar(n)) {
        case ScalarType::Null: return "null";
        case ScalarType::Bool: return "a boolean";
        case ScalarType::Int: return "an integer";
        case ScalarType::Float: return "a number";
        case ScalarType::String: return "a string";
      }
  }
  return "a value";
}

}  // namespace rrgen
