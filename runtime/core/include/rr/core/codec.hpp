// Decode/encode overloads for scalars and the container templates that generated .cpp files use.
// Included only by generated sources and the runtime, never by generated headers.
#pragma once
#include <concepts>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rr/core/box.hpp"
#include "rr/core/fwd.hpp"
#include "rr/core/int_or_string.hpp"
#include "rr/core/json_reader.hpp"
#include "rr/core/json_writer.hpp"
#include "rr/core/nullable.hpp"
#include "rr/core/open_enum.hpp"
#include "rr/core/optional.hpp"
#include "rr/core/quantity.hpp"
#include "rr/core/time.hpp"
#include "rr/core/unknown_fields.hpp"

namespace rr {

// Scalars and runtime value types.
inline void decode(JsonReader& r, std::string& v) { r.read(v); }
inline void decode(JsonReader& r, bool& v) { r.read(v); }
inline void decode(JsonReader& r, std::int32_t& v) { r.read(v); }
inline void decode(JsonReader& r, std::int64_t& v) { r.read(v); }
inline void decode(JsonReader& r, double& v) { r.read(v); }
inline void decode(JsonReader& r, Json& v) { r.read(v); }
void decode(JsonReader& r, IntOrString& v);
void decode(JsonReader& r, Quantity& v);
void decode(JsonReader& r, Time& v);
void decode(JsonReader& r, Bytes& v);

inline void encode(JsonWriter& w, const std::string& v) { w.value(v); }
inline void encode(JsonWriter& w, bool v) { w.value(v); }
inline void encode(JsonWriter& w, std::int32_t v) { w.value(v); }
inline void encode(JsonWriter& w, std::int64_t v) { w.value(v); }
inline void encode(JsonWriter& w, double v) { w.value(v); }
// Constrained to exactly Json: a plain `const Json&` overload would make overload resolution
// probe nlohmann's converting constructor for every generated type (its SFINAE traits were
// over half the compile time of large generated units).
template <class J>
  requires std::same_as<J, Json>
void encode(JsonWriter& w, const J& v) { w.value(v); }
void encode(JsonWriter& w, const IntOrString& v);
void encode(JsonWriter& w, const Quantity& v);
void encode(JsonWriter& w, const Time& v);
void encode(JsonWriter& w, const Bytes& v);

template <class E>
void decode(JsonReader& r, OpenEnum<E>& v) {
  std::string s;
  r.read(s);
  v = OpenEnum<E>::from_string(s);
}
template <class E>
void encode(JsonWriter& w, const OpenEnum<E>& v) { w.value(v.str()); }

// Generated structs expose their codec and schema hooks as members (rr_decode, rr_encode,
// rr_validate, rr_apply_defaults). Keeping them out of namespace scope keeps every overload set
// small: with ~200 same-named free functions per unit, overload resolution dominated compile time.
template <class T>
concept GeneratedType = requires(T& t, const T& ct, JsonReader& r, JsonWriter& w) {
  t.rr_decode(r);
  ct.rr_encode(w);
};
template <GeneratedType T>
void decode(JsonReader& r, T& v) { v.rr_decode(r); }
template <GeneratedType T>
void encode(JsonWriter& w, const T& v) { v.rr_encode(w); }

// Containers. A JSON null for a non-nullable optional member decodes as absent: the API server
// prunes such nulls before defaulting, so absent is what it would store.
template <AnyOptional O>
void decode(JsonReader& r, O& v) {
  if (r.try_null()) { v.reset(); return; }
  decode(r, v.emplace());
}
template <class T>
void decode(JsonReader& r, Nullable<T>& v) {
  if (r.try_null()) { v.set_null(); return; }
  decode(r, v.emplace());
}
template <class T>
void decode(JsonReader& r, Box<T>& v) {
  decode(r, v.get());
}
template <class T>
void decode(JsonReader& r, std::vector<T>& v) {
  v.clear();
  r.begin_array();
  while (r.next_item()) decode(r, v.emplace_back());
}
// std::vector<bool> hands out proxies, which the element overloads above cannot bind to.
inline void decode(JsonReader& r, std::vector<bool>& v) {
  v.clear();
  r.begin_array();
  while (r.next_item()) { bool b = false; r.read(b); v.push_back(b); }
}
template <class T>
void decode(JsonReader& r, std::map<std::string, T>& v) {
  v.clear();
  r.begin_object();
  while (r.next_key()) decode(r, v[std::string(r.key())]);
}

template <AnyOptional O>
void encode(JsonWriter& w, const O& v) {
  if (v) encode(w, *v); else w.null();
}
template <class T>
void encode(JsonWriter& w, const Nullable<T>& v) {
  if (v.has_value()) encode(w, *v); else w.null();
}
template <class T>
void encode(JsonWriter& w, const Box<T>& v) {
  encode(w, v.get());
}
template <class T>
void encode(JsonWriter& w, const std::vector<T>& v) {
  w.begin_array();
  for (const auto& e : v) encode(w, e);
  w.end_array();
}
inline void encode(JsonWriter& w, const std::vector<bool>& v) {
  w.begin_array();
  for (const bool e : v) w.value(e);
  w.end_array();
}
template <class T>
void encode(JsonWriter& w, const std::map<std::string, T>& v) {
  w.begin_object();
  for (const auto& [k, e] : v) { w.key(k); encode(w, e); }
  w.end_object();
}

// Sets an absent member to a schema default given as JSON text (the generator embeds defaults as
// JSON so that every type, however nested, is defaulted by the same decoder).
template <AnyOptional O>
void set_default(O& v, std::string_view json) {
  JsonReader r(json);
  decode(r, v.emplace());
}
template <class T>
void set_default(Nullable<T>& v, std::string_view json) {
  JsonReader r(json);
  decode(r, v);
}

// DOM bridges for nlohmann's ADL to_json/from_json, without a template instance per type.
void encode_to_dom(Json& out, void (*fn)(JsonWriter&, const void*), const void* value);
void decode_from_dom(const Json& in, void (*fn)(JsonReader&, void*), void* value);
std::string encode_to_text(void (*fn)(JsonWriter&, const void*), const void* value);
void decode_from_text(std::string_view in, void (*fn)(JsonReader&, void*), void* value);

// Whole documents: decode(reader) then finish(); encode to compact text.
template <class T>
T decode_text(std::string_view text) {
  T v{};
  JsonReader r(text);
  decode(r, v);
  r.finish();
  return v;
}
template <class T>
std::string encode_text(const T& v) {
  std::string out;
  JsonWriter w(out);
  encode(w, v);
  return out;
}

// Canonical JSON text of a value, used as identity for list-type set/map duplicate checks.
template <class T>
std::string canonical_text(const T& v) {
  std::string out;
  JsonWriter w(out);
  encode(w, v);
  return out;
}

}  // namespace rr
