// CEL values from and to JSON (json.hpp).
#include <cmath>

#include "base64.hpp"
#include "rr/cel/json.hpp"
#include "time_util.hpp"

namespace rr::cel {

Value from_json(const rr::Json& j) {
  switch (j.type()) {
    case rr::Json::value_t::null: return Value();
    case rr::Json::value_t::boolean: return Value(j.get<bool>());
    case rr::Json::value_t::number_integer: return Value(j.get<std::int64_t>());
    case rr::Json::value_t::number_unsigned: {
      const auto u = j.get<std::uint64_t>();
      if (u <= static_cast<std::uint64_t>(INT64_MAX)) return Value(static_cast<std::int64_t>(u));
      return Value(u);
    }
    case rr::Json::value_t::number_float: return Value(j.get<double>());
    case rr::Json::value_t::string: return Value(j.get<std::string>());
    case rr::Json::value_t::array: {
      std::vector<Value> items;
      items.reserve(j.size());
      for (const auto& item : j) items.push_back(from_json(item));
      return Value::list(std::move(items));
    }
    case rr::Json::value_t::object: {
      std::vector<std::pair<Value, Value>> entries;
      entries.reserve(j.size());
      for (auto it = j.begin(); it != j.end(); ++it) entries.emplace_back(Value(it.key()), from_json(it.value()));
      return Value::object(std::move(entries));
    }
    case rr::Json::value_t::binary: {
      const auto& b = j.get_binary();
      return Value::bytes(std::string(b.begin(), b.end()));
    }
    case rr::Json::value_t::discarded: break;
  }
  return Value();
}

std::optional<rr::Json> to_json(const Value& v) {
  switch (v.kind()) {
    case Kind::Null: return rr::Json(nullptr);
    case Kind::Bool: return rr::Json(v.as_bool());
    case Kind::Int: return rr::Json(v.as_int());
    case Kind::Uint: return rr::Json(v.as_uint());
    case Kind::Double:
      if (!std::isfinite(v.as_double())) return std::nullopt;
      return rr::Json(v.as_double());
    case Kind::String: return rr::Json(v.as_string());
    case Kind::Bytes: return rr::Json(base64_encode(v.as_bytes()));
    case Kind::Duration: return rr::Json(format_duration(v.as_duration()));
    case Kind::Timestamp: return rr::Json(format_timestamp(v.as_timestamp()));
    case Kind::List: {
      rr::Json out = rr::Json::array();
      for (const auto& item : v.as_list().items) {
        auto j = to_json(item);
        if (!j) return std::nullopt;
        out.push_back(std::move(*j));
      }
      return out;
    }
    case Kind::Map: {
      rr::Json out = rr::Json::object();
      for (const auto& [k, val] : v.as_map().entries()) {
        if (k.kind() != Kind::String) return std::nullopt;
        auto j = to_json(val);
        if (!j) return std::nullopt;
        out[k.as_string()] = std::move(*j);
      }
      return out;
    }
    case Kind::Opaque: return rr::Json(v.as_opaque().to_string());
    case Kind::Optional:
      if (v.optional_value() == nullptr) return std::nullopt;
      return to_json(*v.optional_value());
    default: return std::nullopt;
  }
}

}  // namespace rr::cel
