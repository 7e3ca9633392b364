// Hand-written types in the exact style the generator emits, used by several tests.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rr/core/codec.hpp"
#include "rr/core/validator.hpp"

namespace testgen {

struct Port {
  std::int32_t port = 0;
  std::optional<std::string> name;
  rr::UnknownFields unknown_fields;
  bool operator==(const Port&) const = default;
};

struct Spec {  // rr::Optional, as generated types hold; std::optional elsewhere (the codec takes both)
  rr::Optional<std::vector<Port>> ports;
  rr::Optional<std::int64_t> replicas;
  rr::Optional<rr::IntOrString> max_surge;
  rr::Optional<rr::Quantity> memory;
  rr::UnknownFields unknown_fields;
  bool operator==(const Spec&) const = default;
};

struct Widget {
  std::optional<std::string> api_version;
  std::optional<std::string> kind;
  std::optional<Spec> spec;
  rr::UnknownFields unknown_fields;
  bool operator==(const Widget&) const = default;
};

inline void decode(rr::JsonReader& r, Port& v) {
  r.begin_object();
  bool has_port = false;
  while (r.next_key()) {
    const std::string_view k = r.key();
    if (k == "port") { decode(r, v.port); has_port = true; }
    else if (k == "name") { decode(r, v.name); }
    else { r.capture_unknown(v.unknown_fields); }
  }
  if (!has_port) r.fail_missing("port");
}
inline void encode(rr::JsonWriter& w, const Port& v) {
  w.begin_object();
  w.key_literal("port"); encode(w, v.port);
  if (v.name) { w.key_literal("name"); encode(w, *v.name); }
  w.unknown(v.unknown_fields);
  w.end_object();
}

inline void decode(rr::JsonReader& r, Spec& v) {
  r.begin_object();
  while (r.next_key()) {
    const std::string_view k = r.key();
    if (k == "ports") { decode(r, v.ports); }
    else if (k == "replicas") { decode(r, v.replicas); }
    else if (k == "maxSurge") { decode(r, v.max_surge); }
    else if (k == "memory") { decode(r, v.memory); }
    else { r.capture_unknown(v.unknown_fields); }
  }
}
inline void encode(rr::JsonWriter& w, const Spec& v) {
  w.begin_object();
  if (v.ports) { w.key_literal("ports"); encode(w, *v.ports); }
  if (v.replicas) { w.key_literal("replicas"); encode(w, *v.replicas); }
  if (v.max_surge) { w.key_literal("maxSurge"); encode(w, *v.max_surge); }
  if (v.memory) { w.key_literal("memory"); encode(w, *v.memory); }
  w.unknown(v.unknown_fields);
  w.end_object();
}

inline void decode(rr::JsonReader& r, Widget& v) {
  r.begin_object();
  while (r.next_key()) {
    const std::string_view k = r.key();
    if (k == "apiVersion") { decode(r, v.api_version); }
    else if (k == "kind") { decode(r, v.kind); }
    else if (k == "spec") { decode(r, v.spec); }
    else { r.capture_unknown(v.unknown_fields); }
  }
}
inline void encode(rr::JsonWriter& w, const Widget& v) {
  w.begin_object();
  if (v.api_version) { w.key_literal("apiVersion"); encode(w, *v.api_version); }
  if (v.kind) { w.key_literal("kind"); encode(w, *v.kind); }
  if (v.spec) { w.key_literal("spec"); encode(w, *v.spec); }
  w.unknown(v.unknown_fields);
  w.end_object();
}

// A generated-style string enum.
enum class Mode { Fast, Slow };
inline std::span<const std::string_view> enum_values(Mode) {
  static constexpr std::string_view kNames[] = {"Fast", "Slow"};
  return kNames;
}

}  // namespace testgen
