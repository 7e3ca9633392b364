// How a struct's codec and schema hooks are defined. Structs the types backend declares carry them
// as members (rr_decode ..., reached through rr/core/codec.hpp); structs declared by hand in the
// runtime (Unit::declared_in: rr/core/meta.hpp) promise free functions (decode ...) instead. One
// body serves both: it names the value `v`, which a member hook binds to *this.
#pragma once
#include <string>

#include "model/model.hpp"

namespace rrgen {

enum class Hook { Decode, Encode, Validate, ApplyDefaults, DecodePb, EncodePb };

inline bool hand_declared(const StructDef& s) { return s.unit && !s.unit->declared_in.empty(); }

inline bool const_hook(Hook h) { return h == Hook::Encode || h == Hook::Validate || h == Hook::EncodePb; }

// "void S::rr_decode(rr::JsonReader& r)" or "void decode(rr::JsonReader& r, S& v)"; with `named`
// false the parameters are unnamed, for an empty body. The protobuf hooks keep their rr_ prefix
// as free functions too (rr_decode_pb(r, v)), which rr/core/pb_codec.hpp looks for.
inline std::string hook_signature(const StructDef& s, Hook h, bool named = true) {
  static constexpr const char* kName[] = {"decode",         "encode",       "validate",
                                          "apply_defaults", "rr_decode_pb", "rr_encode_pb"};
  static constexpr const char* kParam[] = {"rr::JsonReader& r", "rr::JsonWriter& w", "rr::Validator& c", "",
                                           "rr::PbReader& r",   "rr::PbWriter& w"};
  const auto i = static_cast<int>(h);
  std::string param = kParam[i];
  if (!named && !param.empty()) param.resize(param.size() - 2);
  const std::string name = kName[i];
  if (!hand_declared(s))
    return "void " + s.name + "::" + (name.starts_with("rr_") ? "" : "rr_") + name + "(" + param + ")" +
           (const_hook(h) ? " const" : "");
  const std::string self = (const_hook(h) ? "const " : "") + s.name + (named ? "& v" : "&");
  return "void " + name + "(" + param + (param.empty() ? "" : ", ") + self + ")";
}

// A member hook's first line ("auto& v = *this;"); empty for a free function, whose parameter is v.
inline std::string hook_self(const StructDef& s, Hook h) {
  if (hand_declared(s)) return {};
  return const_hook(h) ? "const auto& v = *this;" : "auto& v = *this;";
}

}  // namespace rrgen
