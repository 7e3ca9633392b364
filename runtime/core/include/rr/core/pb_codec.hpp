// Protobuf encode/decode of members, for the generated rr_encode_pb/rr_decode_pb hooks: scalars,
// the runtime's value types in the messages Kubernetes gives them (resource.Quantity,
// intstr.IntOrString, meta/v1 Time and MicroTime, RawExtension ...), and the containers.
// Included only by generated sources and the runtime, never by generated headers.
#pragma once
#include <concepts>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "rr/core/box.hpp"
#include "rr/core/fwd.hpp"
#include "rr/core/int_or_string.hpp"
#include "rr/core/nullable.hpp"
#include "rr/core/open_enum.hpp"
#include "rr/core/optional.hpp"
#include "rr/core/protobuf.hpp"
#include "rr/core/quantity.hpp"
#include "rr/core/time.hpp"
#include "rr/core/unknown_fields.hpp"

namespace rr {

// How a value is held on the wire where its C++ type does not say it: a MicroTime (six digits of
// fraction in JSON), JSON bytes in a message's field 1 (RawExtension, apiextensions' JSON,
// FieldsV1), a list in a message's `repeated items = 1` (authentication's ExtraValue), or an
// empty object (rr::Json) as a message without fields (a Go struct with no members).
enum class PbAs : std::uint8_t { Plain, MicroTime, JsonMessage, ItemsMessage, EmptyMessage };

void pb_put(PbWriter& w, int field, const std::string& v, PbAs as = PbAs::Plain);
inline void pb_put(PbWriter& w, int field, bool v, PbAs = PbAs::Plain) { w.bool_field(field, v); }
inline void pb_put(PbWriter& w, int field, std::int32_t v, PbAs = PbAs::Plain) { w.int32_field(field, v); }
inline void pb_put(PbWriter& w, int field, std::int64_t v, PbAs = PbAs::Plain) { w.int64_field(field, v); }
inline void pb_put(PbWriter& w, int field, double v, PbAs = PbAs::Plain) { w.double_field(field, v); }
void pb_put(PbWriter& w, int field, const Quantity& v, PbAs = PbAs::Plain);
void pb_put(PbWriter& w, int field, const IntOrString& v, PbAs = PbAs::Plain);
void pb_put(PbWriter& w, int field, const Time& v, PbAs = PbAs::Plain);
void pb_put(PbWriter& w, int field, const Bytes& v, PbAs = PbAs::Plain);
template <class J>
  requires std::same_as<J, Json>
void pb_put(PbWriter& w, int field, const J& v, PbAs as = PbAs::JsonMessage) { pb_put_json(w, field, v, as); }
void pb_put_json(PbWriter& w, int field, const Json& v, PbAs as);

void pb_get(PbReader& r, std::string& v, PbAs as = PbAs::Plain);
inline void pb_get(PbReader& r, bool& v, PbAs = PbAs::Plain) { v = r.read_bool(); }
inline void pb_get(PbReader& r, std::int32_t& v, PbAs = PbAs::Plain) { v = r.read_int32(); }
inline void pb_get(PbReader& r, std::int64_t& v, PbAs = PbAs::Plain) { v = r.read_int64(); }
inline void pb_get(PbReader& r, double& v, PbAs = PbAs::Plain) { v = r.read_double(); }
void pb_get(PbReader& r, Quantity& v, PbAs = PbAs::Plain);
void pb_get(PbReader& r, IntOrString& v, PbAs = PbAs::Plain);
void pb_get(PbReader& r, Time& v, PbAs as = PbAs::Plain);
void pb_get(PbReader& r, Bytes& v, PbAs = PbAs::Plain);
template <class J>
  requires std::same_as<J, Json>
void pb_get(PbReader& r, J& v, PbAs as = PbAs::JsonMessage) { pb_get_json(r, v, as); }
void pb_get_json(PbReader& r, Json& v, PbAs as);

template <class E>
void pb_put(PbWriter& w, int field, const OpenEnum<E>& v, PbAs = PbAs::Plain) {
  w.bytes_field(field, v.str());
}
template <class E>
void pb_get(PbReader& r, OpenEnum<E>& v, PbAs = PbAs::Plain) {
  v = OpenEnum<E>::from_string(std::string(r.read_bytes()));
}

// Generated structs: a nested message through their rr_encode_pb/rr_decode_pb members.
template <class T>
concept GeneratedPbType = requires(T& t, const T& ct, PbReader& r, PbWriter& w) {
  t.rr_decode_pb(r);
  ct.rr_encode_pb(w);
};
template <GeneratedPbType T>
void pb_put(PbWriter& w, int field, const T& v, PbAs = PbAs::Plain) {
  const std::size_t mark = w.begin_message(field);
  v.rr_encode_pb(w);
  w.end_message(mark);
}
template <GeneratedPbType T>
void pb_get(PbReader& r, T& v, PbAs = PbAs::Plain) {
  PbReader m = r.read_message();
  v.rr_decode_pb(m);
}

// The runtime's hand-declared shapes (rr/core/meta.hpp): free functions of the same names.
template <class T>
concept HandDeclaredPbType = requires(T& t, const T& ct, PbReader& r, PbWriter& w) {
  rr_decode_pb(r, t);
  rr_encode_pb(w, ct);
};
template <HandDeclaredPbType T>
void pb_put(PbWriter& w, int field, const T& v, PbAs = PbAs::Plain) {
  const std::size_t mark = w.begin_message(field);
  rr_encode_pb(w, v);
  w.end_message(mark);
}
template <HandDeclaredPbType T>
void pb_get(PbReader& r, T& v, PbAs = PbAs::Plain) {
  PbReader m = r.read_message();
  rr_decode_pb(m, v);
}

// Members the schema does not declare: kept as their bytes, written back at the end.
inline void pb_keep_unknown(PbReader& r, UnknownFields& u) { u.append_protobuf(r.skip_raw()); }
inline void pb_put_unknown(PbWriter& w, const UnknownFields& u) { w.raw(u.protobuf()); }

// Containers. A repeated field is one field per element (proto2: never packed), so decoding
// appends; a map is one {1: key, 2: value} message per entry, in key order (as Go sorts them).
template <AnyOptional O>
void pb_put(PbWriter& w, int field, const O& v, PbAs as = PbAs::Plain) {
  if (v) pb_put(w, field, *v, as);
}
template <class T>
void pb_put(PbWriter& w, int field, const Nullable<T>& v, PbAs as = PbAs::Plain) {
  if (v.has_value()) pb_put(w, field, *v, as);
}
template <class T>
void pb_put(PbWriter& w, int field, const Box<T>& v, PbAs as = PbAs::Plain) {
  pb_put(w, field, v.get(), as);
}
template <class T>
void pb_put(PbWriter& w, int field, const std::vector<T>& v, PbAs as = PbAs::Plain) {
  if (as == PbAs::ItemsMessage) {
    const std::size_t mark = w.begin_message(field);
    for (const auto& e : v) pb_put(w, 1, e);
    w.end_message(mark);
    return;
  }
  for (const auto& e : v) pb_put(w, field, e, as);
}
inline void pb_put(PbWriter& w, int field, const std::vector<bool>& v, PbAs = PbAs::Plain) {
  for (const bool e : v) w.bool_field(field, e);
}
template <class T>
void pb_put(PbWriter& w, int field, const std::map<std::string, T>& v, PbAs as = PbAs::Plain) {
  for (const auto& [k, e] : v) {
    const std::size_t mark = w.begin_message(field);
    w.bytes_field(1, k);
    pb_put(w, 2, e, as);
    w.end_message(mark);
  }
}

template <AnyOptional O>
void pb_get(PbReader& r, O& v, PbAs as = PbAs::Plain) {
  if (!v) v.emplace();
  pb_get(r, *v, as);
  if constexpr (std::is_same_v<typename O::value_type, std::string>) {
    if (r.omit_empty_strings() && v->empty()) v.reset();
  }
}
template <class T>
void pb_get(PbReader& r, Nullable<T>& v, PbAs as = PbAs::Plain) {
  if (!v.has_value()) v.emplace();
  pb_get(r, *v, as);
}
template <class T>
void pb_get(PbReader& r, Box<T>& v, PbAs as = PbAs::Plain) {
  pb_get(r, v.get(), as);
}
template <class T>
void pb_get(PbReader& r, std::vector<T>& v, PbAs as = PbAs::Plain) {
  if (as == PbAs::ItemsMessage) {
    PbReader m = r.read_message();
    while (m.next()) {
      if (m.field() == 1) pb_get(m, v.emplace_back());
      else m.skip();
    }
    return;
  }
  pb_get(r, v.emplace_back(), as);
}
inline void pb_get(PbReader& r, std::vector<bool>& v, PbAs = PbAs::Plain) { v.push_back(r.read_bool()); }
template <class T>
void pb_get(PbReader& r, std::map<std::string, T>& v, PbAs as = PbAs::Plain) {
  PbReader m = r.read_message();
  std::string key;
  T value{};
  while (m.next()) {
    if (m.field() == 1) key = m.read_bytes();
    else if (m.field() == 2) pb_get(m, value, as);
    else m.skip();
  }
  v.insert_or_assign(std::move(key), std::move(value));
}

// Whole objects: the message of a generated type, and the k8s envelope around it. The envelope's
// apiVersion and kind are not checked against T: what it says is kept as it says it.
template <GeneratedPbType T>
T decode_pb(std::string_view message, bool omit_empty_strings = false) {
  T v{};
  PbReader r(message);
  r.set_omit_empty_strings(omit_empty_strings);
  v.rr_decode_pb(r);
  return v;
}
template <GeneratedPbType T>
std::string encode_pb(const T& v) {
  std::string out;
  PbWriter w(out);
  v.rr_encode_pb(w);
  return out;
}

// A whole object: its message carries no apiVersion or kind (they have no field), the envelope
// does, so they are taken from it, as a JSON document's are from its members.
template <GeneratedPbType T>
T decode_envelope_object(std::string_view envelope, bool omit_empty_strings = false) {
  PbEnvelope e = decode_envelope(envelope);
  T v = decode_pb<T>(e.raw, omit_empty_strings);
  if constexpr (requires {
                  v.api_version = std::move(e.api_version);
                  v.kind = std::move(e.kind);
                }) {
    v.api_version = std::move(e.api_version);
    v.kind = std::move(e.kind);
  }
  return v;
}
template <GeneratedPbType T>
std::string encode_envelope_object(const T& v, std::string_view api_version, std::string_view kind) {
  PbEnvelope e;
  e.api_version = api_version;
  e.kind = kind;
  e.raw = encode_pb(v);
  return encode_envelope(e);
}
template <GeneratedPbType T>
std::string reencode_envelope(std::string_view envelope) {
  PbEnvelope e = decode_envelope(envelope);
  e.raw = encode_pb(decode_pb<T>(e.raw));
  return encode_envelope(e);
}

}  // namespace rr
