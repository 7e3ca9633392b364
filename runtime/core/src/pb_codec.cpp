// The runtime's value types in the messages Kubernetes gives them (rr/core/pb_codec.hpp).
#include "rr/core/pb_codec.hpp"

#include <chrono>
#include <cstdio>

#include "rfc3339.hpp"
#include "rr/core/errors.hpp"
#include "rr/core/json.hpp"
#include "rr/core/json_reader.hpp"

namespace rr {
namespace {

// Field 1 of a message, the only field of Quantity, RawExtension, JSON and FieldsV1.
std::string_view only_field(PbReader& r) {
  PbReader m = r.read_message();
  std::string_view out;
  while (m.next()) {
    if (m.field() == 1) out = m.read_bytes();
    else m.skip();
  }
  return out;
}

void one_field_message(PbWriter& w, int field, std::string_view bytes) {
  const std::size_t mark = w.begin_message(field);
  w.bytes_field(1, bytes);
  w.end_message(mark);
}

}  // namespace

void pb_put(PbWriter& w, int field, const std::string& v, PbAs as) {
  if (as == PbAs::JsonMessage) one_field_message(w, field, v);
  else w.bytes_field(field, v);
}
void pb_get(PbReader& r, std::string& v, PbAs as) { v = as == PbAs::JsonMessage ? only_field(r) : r.read_bytes(); }

// resource.Quantity: {string string = 1}, the text as written.
void pb_put(PbWriter& w, int field, const Quantity& v, PbAs) { one_field_message(w, field, v.str()); }
void pb_get(PbReader& r, Quantity& v, PbAs) { v = Quantity(std::string(only_field(r))); }

// intstr.IntOrString: {int64 type = 1 (0 int, 1 string), int32 intVal = 2, string strVal = 3},
// all three always written, as Go's generated code does.
void pb_put(PbWriter& w, int field, const IntOrString& v, PbAs) {
  const std::size_t mark = w.begin_message(field);
  w.int64_field(1, v.is_int() ? 0 : 1);
  w.int32_field(2, v.is_int() ? static_cast<std::int32_t>(v.int_value()) : 0);
  w.bytes_field(3, v.is_int() ? std::string_view() : std::string_view(v.string_value()));
  w.end_message(mark);
}
void pb_get(PbReader& r, IntOrString& v, PbAs) {
  PbReader m = r.read_message();
  std::int64_t type = 0;
  std::int32_t int_val = 0;
  std::string str_val;
  while (m.next()) {
    if (m.field() == 1) type = m.read_int64();
    else if (m.field() == 2) int_val = m.read_int32();
    else if (m.field() == 3) str_val = m.read_bytes();
    else m.skip();
  }
  if (type == 1) v = IntOrString(std::move(str_val));
  else v = IntOrString(std::int64_t{int_val});
}

// meta/v1 Time and MicroTime: a Timestamp {int64 seconds = 1, int32 nanos = 2}, both always
// written; the zero time (empty text) is an empty message, as Go's Time.Marshal gives it.
void pb_put(PbWriter& w, int field, const Time& v, PbAs) {
  const std::size_t mark = w.begin_message(field);
  if (!v.str().empty()) {
    const auto t = detail::parse_rfc3339(v.str(), true);
    if (!t) throw DecodeError("", 0, "protobuf: time '" + v.str() + "' is not RFC 3339");
    w.int64_field(1, t->unix_seconds);
    w.int32_field(2, static_cast<std::int32_t>(t->nanos));
  }
  w.end_message(mark);
}
void pb_get(PbReader& r, Time& v, PbAs as) {
  PbReader m = r.read_message();
  if (m.done()) {  // an empty message: Go's zero time
    v = Time();
    return;
  }
  std::int64_t secs = 0;
  std::int32_t nanos = 0;
  while (m.next()) {
    if (m.field() == 1) secs = m.read_int64();
    else if (m.field() == 2) nanos = m.read_int32();
    else m.skip();
  }
  // What Time's text can say, within what the clock holds (about years 1678 to 2262).
  constexpr std::int64_t kMaxSeconds = 9'000'000'000;
  if (nanos < 0 || nanos > 999'999'999 || secs > kMaxSeconds || secs < -kMaxSeconds) m.fail("timestamp out of range");
  using namespace std::chrono;
  std::string text =
      Time::from(Time::clock::time_point(duration_cast<Time::clock::duration>(std::chrono::seconds(secs)))).str();
  if (as == PbAs::MicroTime) {  // metav1.RFC3339Micro: always six digits
    char frac[16];
    std::snprintf(frac, sizeof frac, ".%06dZ", nanos / 1000);
    text.replace(text.size() - 1, 1, frac);
  }
  v = Time(std::move(text));
}

// []byte: the bytes; rr::Bytes holds them as base64 text.
void pb_put(PbWriter& w, int field, const Bytes& v, PbAs) {
  const std::optional<std::string> raw = v.decode();
  if (!raw) throw DecodeError("", 0, "protobuf: bytes value is not base64");
  w.bytes_field(field, *raw);
}
void pb_get(PbReader& r, Bytes& v, PbAs) { v = Bytes::encode(r.read_bytes()); }

// Schemaless values: JSON text in field 1 of a message (RawExtension, JSON, FieldsV1). An
// EmptyMessage has no fields to write, and drops any it is given (unknown to it).
void pb_put_json(PbWriter& w, int field, const Json& v, PbAs as) {
  if (as == PbAs::EmptyMessage) w.end_message(w.begin_message(field));
  else one_field_message(w, field, v.dump());
}
void pb_get_json(PbReader& r, Json& v, PbAs as) {
  if (as == PbAs::EmptyMessage) {
    (void)r.read_message();
    v = Json::object();
    return;
  }
  const std::string_view text = only_field(r);
  if (text.empty()) {
    v = Json();
    return;
  }
  JsonReader j(text);  // depth-limited, unlike nlohmann's parser
  j.read(v);
  j.finish();
}

}  // namespace rr
