// libFuzzer target for rr::JsonReader. Arbitrary bytes must never crash the reader: the only
// exception allowed out is rr::DecodeError. It also cross-checks the reader against itself
// (skip(out) re-reads to the same DOM) and against nlohmann::json::parse (when both accept an
// input, the DOMs must be equal), and typed decode -> encode -> decode must be stable.
//
//   fuzz_json_reader -max_total_time=60 corpus_dir/ runtime/core/fuzz/seeds/
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rr/core/codec.hpp"
#include "rr/core/errors.hpp"
#include "rr/core/json.hpp"
#include "rr/core/unknown_fields.hpp"

namespace fuzz {

// A small struct-like sequence, decoded the way generated code decodes.
struct Item {
  std::int32_t id = 0;
  std::optional<std::string> name;
  std::optional<std::vector<double>> values;
  rr::UnknownFields unknown_fields;
  bool operator==(const Item&) const = default;
};

struct Doc {
  std::optional<std::string> kind;
  std::optional<std::int64_t> count;
  std::optional<bool> flag;
  std::optional<std::vector<Item>> items;
  std::optional<std::map<std::string, rr::IntOrString>> ports;
  std::optional<rr::Quantity> quantity;
  std::optional<rr::Time> at;
  rr::Nullable<std::string> nullable;
  std::optional<rr::Json> any;
  rr::UnknownFields unknown_fields;
  bool operator==(const Doc&) const = default;
};

void decode(rr::JsonReader& r, Item& v) {
  r.begin_object();
  bool has_id = false;
  while (r.next_key()) {
    const std::string_view k = r.key();
    if (k == "id") { decode(r, v.id); has_id = true; }
    else if (k == "name") { decode(r, v.name); }
    else if (k == "values") { decode(r, v.values); }
    else { r.capture_unknown(v.unknown_fields); }
  }
  if (!has_id) r.fail_missing("id");
}

void encode(rr::JsonWriter& w, const Item& v) {
  w.begin_object();
  w.key_literal("id"); encode(w, v.id);
  if (v.name) { w.key_literal("name"); encode(w, *v.name); }
  if (v.values) { w.key_literal("values"); encode(w, *v.values); }
  w.unknown(v.unknown_fields);
  w.end_object();
}

void decode(rr::JsonReader& r, Doc& v) {
  r.begin_object();
  while (r.next_key()) {
    const std::string_view k = r.key();
    if (k == "kind") { decode(r, v.kind); }
    else if (k == "count") { decode(r, v.count); }
    else if (k == "flag") { decode(r, v.flag); }
    else if (k == "items") { decode(r, v.items); }
    else if (k == "ports") { decode(r, v.ports); }
    else if (k == "quantity") { decode(r, v.quantity); }
    else if (k == "at") { decode(r, v.at); }
    else if (k == "nullable") { decode(r, v.nullable); }
    else if (k == "any") { decode(r, v.any); }
    else { r.capture_unknown(v.unknown_fields); }
  }
}

void encode(rr::JsonWriter& w, const Doc& v) {
  w.begin_object();
  if (v.kind) { w.key_literal("kind"); encode(w, *v.kind); }
  if (v.count) { w.key_literal("count"); encode(w, *v.count); }
  if (v.flag) { w.key_literal("flag"); encode(w, *v.flag); }
  if (v.items) { w.key_literal("items"); encode(w, *v.items); }
  if (v.ports) { w.key_literal("ports"); encode(w, *v.ports); }
  if (v.quantity) { w.key_literal("quantity"); encode(w, *v.quantity); }
  if (v.at) { w.key_literal("at"); encode(w, *v.at); }
  if (!v.nullable.is_absent()) { w.key_literal("nullable"); encode(w, v.nullable); }
  if (v.any) { w.key_literal("any"); encode(w, *v.any); }
  w.unknown(v.unknown_fields);
  w.end_object();
}

// Generic walk driven by peek(), choosing a different reading call per value.
void walk(rr::JsonReader& r, unsigned& choice) {
  ++choice;
  switch (r.peek()) {
    case rr::JsonKind::Object:
      if (choice % 5 == 0) { r.skip(); return; }
      r.begin_object();
      while (r.next_key()) {
        (void)r.pointer();
        if (r.key().size() % 3 == 0) {
          rr::UnknownFields u;
          r.capture_unknown(u);
        } else {
          walk(r, choice);
        }
      }
      return;
    case rr::JsonKind::Array:
      r.begin_array();
      while (r.next_item()) walk(r, choice);
      return;
    case rr::JsonKind::String: {
      std::string s;
      r.read(s);
      return;
    }
    case rr::JsonKind::Number:
      switch (choice % 4) {
        case 0: { double d; r.read(d); return; }
        case 1: { std::int64_t i; r.read(i); return; }
        case 2: { std::int32_t i; r.read(i); return; }
        default: (void)r.read_number_text(); return;
      }
    case rr::JsonKind::Bool: {
      bool b;
      r.read(b);
      return;
    }
    case rr::JsonKind::Null:
      if (!r.try_null()) r.fail("bad null");
      return;
  }
}

[[noreturn]] void die(const char* why) {
  (void)why;
  std::abort();
}

}  // namespace fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);

  // 1. Generic walk, at the default depth limit and at a tiny one.
  for (const std::size_t depth : {std::size_t{512}, std::size_t{4}}) {
    try {
      rr::JsonReader r(text, depth);
      unsigned choice = 0;
      fuzz::walk(r, choice);
      r.finish();
    } catch (const rr::DecodeError&) {
    }
  }

  // 2. skip() and skip(out).
  std::string minified;
  bool skip_ok = false;
  try {
    rr::JsonReader r(text);
    r.skip(minified);
    r.finish();
    skip_ok = true;
  } catch (const rr::DecodeError&) {
  }
  try {
    rr::JsonReader r(text);
    r.skip();
    r.finish();
    if (!skip_ok) fuzz::die("skip() accepted what skip(out) rejected");
  } catch (const rr::DecodeError&) {
    if (skip_ok) fuzz::die("skip(out) accepted what skip() rejected");
  }

  // 3. DOM.
  rr::Json dom;
  bool dom_ok = false;
  try {
    rr::JsonReader r(text);
    r.read(dom);
    r.finish();
    dom_ok = true;
  } catch (const rr::DecodeError&) {
  }
  if (dom_ok) {
    // The DOM rejects only a subset (numbers beyond double range) of what skip accepts.
    if (!skip_ok) fuzz::die("read(Json) accepted what skip() rejected");
    rr::JsonReader again(minified);
    rr::Json dom2;
    again.read(dom2);
    again.finish();
    if (!(dom == dom2)) fuzz::die("skip(out) text reads back differently");
    // The writer's output must read back to the same DOM.
    const std::string written = rr::encode_text(dom);
    if (!(rr::decode_text<rr::Json>(written) == dom)) fuzz::die("writer output reads back differently");
  }

  // 4. Agreement with nlohmann::json::parse when both accept.
  rr::Json reference;
  bool reference_ok = true;
  try {
    reference = rr::Json::parse(text);
  } catch (const rr::Json::exception&) {
    reference_ok = false;
  }
  if (reference_ok && dom_ok && !(reference == dom)) fuzz::die("DOM differs from nlohmann::json::parse");

  // 5. Typed decode; decode(encode(x)) == x.
  std::optional<fuzz::Doc> doc;
  try {
    doc = rr::decode_text<fuzz::Doc>(text);
  } catch (const rr::DecodeError&) {
  }
  if (doc) {
    const std::string out = rr::encode_text(*doc);
    try {
      if (!(rr::decode_text<fuzz::Doc>(out) == *doc)) fuzz::die("typed round trip changed the value");
    } catch (const rr::DecodeError&) {
      fuzz::die("typed encoder wrote text its decoder rejects");
    }
  }
  return 0;
}
