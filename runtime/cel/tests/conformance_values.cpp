// VALUE objects of the conformance files as CEL values (conformance_values.hpp).
#include "conformance_values.hpp"

#include <cmath>

#include "../src/base64.hpp"
#include "../src/time_util.hpp"
#include "rr/cel/json.hpp"

namespace rr::cel::conformance {

namespace {

// google.protobuf.Value in its JSON mapping: numbers are doubles.
Value from_struct_json(const rr::Json& j) {
  switch (j.type()) {
    case rr::Json::value_t::number_integer:
    case rr::Json::value_t::number_unsigned:
    case rr::Json::value_t::number_float: return Value(j.get<double>());
    case rr::Json::value_t::array: {
      std::vector<Value> items;
      for (const auto& e : j) items.push_back(from_struct_json(e));
      return Value::list(std::move(items));
    }
    case rr::Json::value_t::object: {
      std::vector<std::pair<Value, Value>> entries;
      for (auto it = j.begin(); it != j.end(); ++it)
        entries.emplace_back(Value(it.key()), from_struct_json(it.value()));
      return Value::map(std::move(entries));
    }
    default: return from_json(j);
  }
}

std::optional<Value> object_of(const rr::Json& object, std::string& why) {
  const std::string url = object.value("type_url", "");
  const std::string type = url.substr(url.rfind('/') + 1);
  if (!object.contains("json")) {
    why = "message " + type + " has no JSON form";
    return std::nullopt;
  }
  const rr::Json& j = object["json"];
  if (type == "google.protobuf.Duration" && j.is_string()) {
    if (auto d = parse_duration(j.get<std::string>())) return Value(*d);
  } else if (type == "google.protobuf.Timestamp" && j.is_string()) {
    if (auto t = parse_timestamp(j.get<std::string>())) return Value(*t);
  } else if (type == "google.protobuf.Int32Value" || type == "google.protobuf.Int64Value") {
    return Value(j.is_string() ? std::stoll(j.get<std::string>()) : j.get<std::int64_t>());
  } else if (type == "google.protobuf.UInt32Value" || type == "google.protobuf.UInt64Value") {
    return Value(
        static_cast<std::uint64_t>(j.is_string() ? std::stoull(j.get<std::string>()) : j.get<std::uint64_t>()));
  } else if (type == "google.protobuf.DoubleValue" || type == "google.protobuf.FloatValue") {
    return Value(j.get<double>());
  } else if (type == "google.protobuf.BoolValue") {
    return Value(j.get<bool>());
  } else if (type == "google.protobuf.StringValue") {
    return Value(j.get<std::string>());
  } else if (type == "google.protobuf.BytesValue") {
    if (auto b = base64_decode(j.get<std::string>())) return Value::bytes(*b);
  } else if (type == "google.protobuf.Value" || type == "google.protobuf.Struct" ||
             type == "google.protobuf.ListValue") {
    return from_struct_json(j);
  }
  why = "protobuf message " + type;
  return std::nullopt;
}

}  // namespace

std::optional<Value> value_of(const rr::Json& v, std::string& why) {
  if (!v.is_object() || v.size() != 1) {
    why = "malformed value";
    return std::nullopt;
  }
  const auto first = v.begin();  // the one member: its key names the kind
  const std::string key = first.key();
  const rr::Json& body = first.value();
  if (key == "null") return Value();
  if (key == "bool") return Value(body.get<bool>());
  if (key == "int64") return Value(static_cast<std::int64_t>(std::stoll(body.get<std::string>())));
  if (key == "uint64") return Value(static_cast<std::uint64_t>(std::stoull(body.get<std::string>())));
  if (key == "double") {
    if (body.is_string()) {
      const std::string s = body.get<std::string>();
      if (s == "NaN") return Value(std::nan(""));
      return Value(s == "Infinity" ? HUGE_VAL : -HUGE_VAL);
    }
    return Value(body.get<double>());
  }
  if (key == "string") return Value(body.get<std::string>());
  if (key == "bytes_b64") {
    if (auto b = base64_decode(body.get<std::string>())) return Value::bytes(*b);
    why = "bad base64";
    return std::nullopt;
  }
  if (key == "type") return Value(Type{body.get<std::string>()});
  if (key == "enum") return Value(body.value("value", std::int64_t{0}));
  if (key == "list") {
    std::vector<Value> items;
    for (const auto& e : body) {
      auto item = value_of(e, why);
      if (!item) return std::nullopt;
      items.push_back(std::move(*item));
    }
    return Value::list(std::move(items));
  }
  if (key == "map") {
    std::vector<std::pair<Value, Value>> entries;
    for (const auto& e : body) {
      auto k = value_of(e["key"], why);
      auto val = value_of(e["value"], why);
      if (!k || !val) return std::nullopt;
      entries.emplace_back(std::move(*k), std::move(*val));
    }
    return Value::map(std::move(entries));
  }
  if (key == "object") return object_of(body, why);
  why = "value kind " + key;
  return std::nullopt;
}

bool same_value(const Value& a, const Value& b) {
  if (a.kind() != b.kind()) return false;
  switch (a.kind()) {
    case Kind::Double: {
      const double x = a.as_double(), y = b.as_double();
      return (std::isnan(x) && std::isnan(y)) || x == y;
    }
    case Kind::List: {
      const auto& x = a.as_list().items;
      const auto& y = b.as_list().items;
      if (x.size() != y.size()) return false;
      for (std::size_t i = 0; i < x.size(); ++i)
        if (!same_value(x[i], y[i])) return false;
      return true;
    }
    case Kind::Map: {
      if (a.as_map().size() != b.as_map().size()) return false;
      for (const auto& [k, v] : a.as_map().entries()) {
        const Value* other = b.as_map().find(k);
        if (other == nullptr || !same_value(v, *other)) return false;
      }
      return true;
    }
    case Kind::Optional: {
      const Value* x = a.optional_value();
      const Value* y = b.optional_value();
      if (x == nullptr || y == nullptr) return x == y;
      return same_value(*x, *y);
    }
    case Kind::Error: return true;
    default: return equals(a, b);
  }
}

}  // namespace rr::cel::conformance
