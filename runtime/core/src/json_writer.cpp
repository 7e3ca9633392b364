#include "rr/core/json_writer.hpp"

#include <charconv>
#include <cmath>

#include "rr/core/json.hpp"
#include "rr/core/unknown_fields.hpp"
#include "text_util.hpp"

namespace rr {

inline void JsonWriter::comma() {
  if (need_comma_) out_->push_back(',');
}

void JsonWriter::begin_object() {
  comma();
  out_->push_back('{');
  need_comma_ = false;
}

void JsonWriter::end_object() {
  out_->push_back('}');
  need_comma_ = true;
}

void JsonWriter::begin_array() {
  comma();
  out_->push_back('[');
  need_comma_ = false;
}

void JsonWriter::end_array() {
  out_->push_back(']');
  need_comma_ = true;
}

void JsonWriter::key_literal(std::string_view key) {
  comma();
  std::string& o = *out_;
  o.push_back('"');
  o.append(key);
  o.append("\":", 2);
  need_comma_ = false;
}

void JsonWriter::key(std::string_view key) {
  comma();
  detail::append_json_string(*out_, key);
  out_->push_back(':');
  need_comma_ = false;
}

void JsonWriter::value(std::string_view v) {
  comma();
  detail::append_json_string(*out_, v);
  need_comma_ = true;
}

void JsonWriter::value(bool v) {
  comma();
  if (v) out_->append("true", 4);
  else out_->append("false", 5);
  need_comma_ = true;
}

void JsonWriter::value(std::int32_t v) { value(static_cast<std::int64_t>(v)); }

void JsonWriter::value(std::int64_t v) {
  comma();
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  out_->append(buf, static_cast<std::size_t>(r.ptr - buf));
  need_comma_ = true;
}

void JsonWriter::value(double v) {
  if (!std::isfinite(v)) {
    null();
    return;
  }
  comma();
  // Shortest text that reads back to the same double. Integral values print without a fraction
  // ("1", where nlohmann's dump() prints "1.0"); both read back identically.
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  out_->append(buf, static_cast<std::size_t>(r.ptr - buf));
  need_comma_ = true;
}

void JsonWriter::null() {
  comma();
  out_->append("null", 4);
  need_comma_ = true;
}

void JsonWriter::raw(std::string_view json) {
  comma();
  out_->append(json);
  need_comma_ = true;
}

void JsonWriter::value(const Json& v) {
  comma();
  // Invalid UTF-8 cannot come from our reader; replace rather than throw for hand-built DOMs.
  out_->append(v.dump(-1, ' ', false, Json::error_handler_t::replace));
  need_comma_ = true;
}

void JsonWriter::unknown(const UnknownFields& fields) {
  for (const auto& [k, v] : fields.entries()) {
    key(k);
    raw(v);
  }
}

}  // namespace rr
