// Type-erased entry points for one generated kind, so programs can dispatch on apiVersion/kind at
// run time (the corpus test, tools, the local cluster's admission of custom resources).
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "rr/core/errors.hpp"

namespace rr {

struct KindCodec {
  std::string_view api_version;
  std::string_view kind;
  // Decodes JSON text into the typed object and discards it (throws rr::DecodeError).
  void (*decode_only)(std::string_view json);
  // Decodes JSON text into the typed object and encodes it again (throws rr::DecodeError).
  std::string (*reencode)(std::string_view json);
  // Decodes, applies schema defaults and validates, as the API server does on a write.
  std::vector<FieldError> (*default_and_validate)(std::string_view json);
  // Decodes, applies schema defaults and encodes.
  std::string (*defaulted)(std::string_view json);
  // Protobuf, null for a kind without a protobuf codec (rr/core/pb_codec.hpp; throw
  // rr::DecodeError): a whole k8s envelope decoded (and discarded), decoded and encoded again, and
  // its object as JSON text.
  void (*pb_decode_only)(std::string_view envelope) = nullptr;
  std::string (*pb_reencode)(std::string_view envelope) = nullptr;
  std::string (*pb_to_json)(std::string_view envelope) = nullptr;
};

}  // namespace rr
