// Codecs for the runtime's value types and the DOM/text bridges behind generated to_json/from_json.
#include "rr/core/codec.hpp"

#include "rr/core/json.hpp"

namespace rr {

void decode(JsonReader& r, IntOrString& v) {
  switch (r.peek()) {
    case JsonKind::Number: {
      std::int64_t i = 0;
      r.read(i);  // must be integral and fit an int64
      v = IntOrString(i);
      return;
    }
    case JsonKind::String: {
      std::string s;
      r.read(s);
      v = IntOrString(std::move(s));
      return;
    }
    default:
      r.fail("expected integer or string");
  }
}

void encode(JsonWriter& w, const IntOrString& v) {
  if (v.is_int()) w.value(v.int_value());
  else w.value(v.string_value());
}

void decode(JsonReader& r, Quantity& v) {
  switch (r.peek()) {
    case JsonKind::String: {
      std::string s;
      r.read(s);
      v = Quantity(std::move(s));
      return;
    }
    case JsonKind::Number:
      v = Quantity::from_number(r.read_number_text());  // kept as written: 1.50 stays 1.50
      return;
    default:
      r.fail("expected a quantity (string or number)");
  }
}

void encode(JsonWriter& w, const Quantity& v) {
  if (v.was_number()) w.raw(v.str());
  else w.value(v.str());
}

// The text is kept byte for byte, so "" stays "". A null (Go's zero metav1.Time) decodes as the
// empty Time, which encodes as "": members that may be null are optional/Nullable and handle the
// null before reaching here.
void decode(JsonReader& r, Time& v) {
  if (r.try_null()) {
    v = Time();
    return;
  }
  if (r.peek() != JsonKind::String) r.fail("expected a date-time string");
  std::string s;
  r.read(s);
  v = Time(std::move(s));
}

// metav1.Time: the zero time is JSON null both ways (a map of times can hold one: a
// PodDisruptionBudget's status.disruptedPods); any text, even "", is kept as it was.
void encode(JsonWriter& w, const Time& v) {
  if (v.is_null()) w.null();
  else w.value(v.str());
}

// []byte: null decodes as empty.
void decode(JsonReader& r, Bytes& v) {
  if (r.try_null()) {
    v = Bytes();
    return;
  }
  if (r.peek() != JsonKind::String) r.fail("expected a base64 string");
  std::string s;
  r.read(s);
  v = Bytes(std::move(s));
}

void encode(JsonWriter& w, const Bytes& v) { w.value(v.str()); }

void encode_to_dom(Json& out, void (*fn)(JsonWriter&, const void*), const void* value) {
  const std::string text = encode_to_text(fn, value);
  JsonReader r(text);
  r.read(out);
  r.finish();
}

void decode_from_dom(const Json& in, void (*fn)(JsonReader&, void*), void* value) {
  const std::string text = in.dump(-1, ' ', false, Json::error_handler_t::replace);
  decode_from_text(text, fn, value);
}

std::string encode_to_text(void (*fn)(JsonWriter&, const void*), const void* value) {
  std::string out;
  JsonWriter w(out);
  fn(w, value);
  return out;
}

void decode_from_text(std::string_view in, void (*fn)(JsonReader&, void*), void* value) {
  JsonReader r(in);
  fn(r, value);
  r.finish();
}

}  // namespace rr
