#include "load/yaml_node.hpp"

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

bool yaml11_true(std::string_view t);
bool yaml11_false(std::string_view t);
bool is_octal_text(std::string_view s);

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
  if (is_octal_text(s)) {
    long long v = 0;
    for (char c : s.substr(s[1] == 'o' ? 2 : 1)) v = v * 8 + (c - '0');
    return std::to_string(v);
  }
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
        case ScalarType::Bool: out += yaml11_true(n.text) ? "true" : "false"; return;
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

namespace {
// Kubernetes reads YAML with go-yaml v2 (via sigs.k8s.io/yaml), which resolves plain scalars by
// YAML 1.1 rules: yes/no/on/off are booleans and 0755 is octal. rrgen resolves them the same way,
// so a manifest means to rrgen what it means to kubectl.
bool yaml11_true(std::string_view t) {
  for (auto w : {"true", "True", "TRUE", "y", "Y", "yes", "Yes", "YES", "on", "On", "ON"})
    if (t == w) return true;
  return false;
}
bool yaml11_false(std::string_view t) {
  for (auto w : {"false", "False", "FALSE", "n", "N", "no", "No", "NO", "off", "Off", "OFF"})
    if (t == w) return true;
  return false;
}
bool is_octal_text(std::string_view s) {  // 0755 (YAML 1.1) or 0o755 (YAML 1.2)
  if (s.size() > 2 && s[0] == '0' && s[1] == 'o') s.remove_prefix(2);
  else if (s.size() > 1 && s[0] == '0') s.remove_prefix(1);
  else return false;
  for (char c : s)
    if (c < '0' || c > '7') return false;
  return !s.empty();
}
}  // namespace

ScalarType resolve_scalar(const Node& n) noexcept {
  if (!n.plain) return ScalarType::String;
  const std::string& t = n.text;
  if (n.is_null()) return ScalarType::Null;
  if (yaml11_true(t) || yaml11_false(t)) return ScalarType::Bool;
  if (is_octal_text(t)) return ScalarType::Int;
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
