// The protobuf codec of a struct with StructDef::protobuf: rr_encode_pb writes its members in
// ascending field number, as gogo-protobuf's Go code does (the members of an embedded Go struct
// inside their own message field), then the unknown fields it kept; rr_decode_pb reads any order.
#pragma once
#include "model/model.hpp"
#include "support/printer.hpp"

namespace rrgen {

// The member declarations of the hooks, for a struct the backend declares.
inline constexpr std::string_view kPbHookDecls = R"gen(void rr_decode_pb(rr::PbReader& r);
void rr_encode_pb(rr::PbWriter& w) const;)gen";

void emit_pb_codec(Printer& p, const StructDef& s);

}  // namespace rrgen
