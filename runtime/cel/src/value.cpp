// Value construction, map lookup, type names, equality and debug rendering.
#include "rr/cel/value.hpp"

#include <cmath>
#include <cstdio>

#include "k8s_escaping.hpp"
#include "numeric.hpp"
#include "time_util.hpp"

namespace rr::cel {

Value Value::list(std::vector<Value> items) {
  return Value(std::shared_ptr<const List>(std::make_shared<List>(List{std::move(items)})));
}

Value Value::map(std::vector<std::pair<Value, Value>> entries) {
  return Value(std::shared_ptr<const Map>(std::make_shared<Map>(std::move(entries))));
}

Value Value::object(std::vector<std::pair<Value, Value>> entries) {
  return Value(std::shared_ptr<const Map>(std::make_shared<Map>(std::move(entries), true)));
}

Map::Map(std::vector<std::pair<Value, Value>> entries, bool kubernetes_object)
    : entries_(std::move(entries)), kubernetes_object_(kubernetes_object) {
  if (entries_.size() > 8) {
    by_string_.reserve(entries_.size());
    for (std::size_t i = 0; i < entries_.size(); ++i)
      if (entries_[i].first.kind() == Kind::String) by_string_.emplace(entries_[i].first.as_string(), i);
  }
}

const Value* Map::find(std::string_view key) const {
  if (!by_string_.empty()) {
    const auto it = by_string_.find(key);
    return it == by_string_.end() ? nullptr : &entries_[it->second].second;
  }
  for (const auto& e : entries_)
    if (e.first.kind() == Kind::String && e.first.as_string() == key) return &e.second;
  return nullptr;
}

const Value* Map::select(std::string_view name) const {
  if (const Value* v = find(name)) return v;
  if (!kubernetes_object_ || name.find("__") == std::string_view::npos) return nullptr;
  const std::string property = unescape_property(name);
  return property == name ? nullptr : find(std::string_view(property));
}

const Value* Map::find(const Value& key) const {
  if (key.kind() == Kind::String) return find(std::string_view(key.as_string()));
  const bool numeric = is_numeric(key.kind());
  for (const auto& e : entries_) {
    if (numeric ? (is_numeric(e.first.kind()) && numeric_compare(e.first, key) == 0)
                : (e.first.kind() == key.kind() && equals(e.first, key)))
      return &e.second;
  }
  return nullptr;
}

std::string type_name(const Value& v) {
  switch (v.kind()) {
    case Kind::Null: return "null_type";
    case Kind::Bool: return "bool";
    case Kind::Int: return "int";
    case Kind::Uint: return "uint";
    case Kind::Double: return "double";
    case Kind::String: return "string";
    case Kind::Bytes: return "bytes";
    case Kind::List: return "list";
    case Kind::Map: return "map";
    case Kind::Type: return "type";
    case Kind::Duration: return "google.protobuf.Duration";
    case Kind::Timestamp: return "google.protobuf.Timestamp";
    case Kind::Optional: return "optional_type";
    case Kind::Opaque: return v.as_opaque().type_name();
    case Kind::Error: return "error";
  }
  return "unknown";
}

Type type_of(const Value& v) { return Type{type_name(v)}; }

bool equals(const Value& a, const Value& b) {
  const Kind ka = a.kind(), kb = b.kind();
  if (is_numeric(ka) && is_numeric(kb)) {
    const auto c = numeric_compare(a, b);
    return c.has_value() && *c == 0;
  }
  if (ka != kb) return false;
  switch (ka) {
    case Kind::Null: return true;
    case Kind::Bool: return a.as_bool() == b.as_bool();
    case Kind::String: return a.as_string() == b.as_string();
    case Kind::Bytes: return a.as_bytes() == b.as_bytes();
    case Kind::Type: return a.as_type() == b.as_type();
    case Kind::Duration: return a.as_duration() == b.as_duration();
    case Kind::Timestamp: return a.as_timestamp() == b.as_timestamp();
    case Kind::List: {
      const auto& x = a.as_list().items;
      const auto& y = b.as_list().items;
      if (x.size() != y.size()) return false;
      for (std::size_t i = 0; i < x.size(); ++i)
        if (!equals(x[i], y[i])) return false;
      return true;
    }
    case Kind::Map: {
      const Map& x = a.as_map();
      const Map& y = b.as_map();
      if (x.size() != y.size()) return false;
      for (const auto& e : x.entries()) {
        const Value* other = y.find(e.first);
        if (other == nullptr || !equals(e.second, *other)) return false;
      }
      return true;
    }
    case Kind::Optional: {
      const Value* x = a.optional_value();
      const Value* y = b.optional_value();
      if (x == nullptr || y == nullptr) return x == y;
      return equals(*x, *y);
    }
    case Kind::Opaque:
      return a.as_opaque().type_name() == b.as_opaque().type_name() && a.as_opaque().equals(b.as_opaque());
    default: return false;
  }
}

namespace {

std::string quote(const std::string& s, bool bytes) {
  std::string out = bytes ? "b\"" : "\"";
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (u < 0x20 || u == 0x7f || (bytes && u >= 0x80)) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", u);
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

}  // namespace

std::string debug_string(const Value& v) {
  switch (v.kind()) {
    case Kind::Null: return "null";
    case Kind::Bool: return v.as_bool() ? "true" : "false";
    case Kind::Int: return std::to_string(v.as_int());
    case Kind::Uint: return std::to_string(v.as_uint()) + "u";
    case Kind::Double: return format_double(v.as_double());
    case Kind::String: return quote(v.as_string(), false);
    case Kind::Bytes: return quote(v.as_bytes(), true);
    case Kind::Type: return v.as_type().name;
    case Kind::Duration: return "duration(\"" + format_duration(v.as_duration()) + "\")";
    case Kind::Timestamp: return "timestamp(\"" + format_timestamp(v.as_timestamp()) + "\")";
    case Kind::Error: return "error(" + quote(v.error_message(), false) + ")";
    case Kind::Opaque: return v.as_opaque().type_name() + "(" + quote(v.as_opaque().to_string(), false) + ")";
    case Kind::Optional:
      return v.optional_value() == nullptr ? "optional.none()"
                                           : "optional.of(" + debug_string(*v.optional_value()) + ")";
    case Kind::List: {
      std::string out = "[";
      const auto& items = v.as_list().items;
      for (std::size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + debug_string(items[i]);
      return out + "]";
    }
    case Kind::Map: {
      std::string out = "{";
      bool first = true;
      for (const auto& e : v.as_map().entries()) {
        out += (first ? "" : ", ") + debug_string(e.first) + ": " + debug_string(e.second);
        first = false;
      }
      return out + "}";
    }
  }
  return "?";
}

}  // namespace rr::cel
