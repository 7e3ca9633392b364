// Type-erased entry points for one generated kind, so programs can dispatch on apiVersion/kind at
// run time (the corpus test, tools, the local cluster's admission and its protobuf bodies).
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "rr/core/errors.hpp"

namespace rr {

// What a kind is as an API resource (as discovery lists it); `plural` is empty for a kind that is
// not one (a List, Scale, DeleteOptions).
struct KindResource {
  std::string_view plural;
  std::string_view singular;
  bool namespaced = false;
  bool has_status = false;  // the status subresource
  bool has_scale = false;   // the scale subresource (autoscaling/v1 Scale)
  std::string_view verbs;   // sorted, space-separated: "create delete deletecollection get list ..."
};

struct KindCodec {
  std::string_view api_version;
  std::string_view kind;
  // Decodes JSON text into the typed object and discards it (throws rr::DecodeError).
  void (*decode_only)(std::string_view json);
  // Decodes JSON text into the typed object and encodes it again (throws rr::DecodeError).
  std::string (*reencode)(std::string_view json);
  // Decodes, applies schema defaults and validates, as the API server does on a write (a kind
  // with CEL rules or junctors through its validate(), which evaluates them).
  std::vector<FieldError> (*default_and_validate)(std::string_view json);
  // Decodes, applies schema defaults and encodes.
  std::string (*defaulted)(std::string_view json);
  // Protobuf, null for a kind without a protobuf codec (rr/core/pb_codec.hpp; throw
  // rr::DecodeError): a whole k8s envelope decoded (and discarded), decoded and encoded again, and
  // its object as JSON text (as Go writes it: empty optional strings omitted).
  void (*pb_decode_only)(std::string_view envelope) = nullptr;
  std::string (*pb_reencode)(std::string_view envelope) = nullptr;
  std::string (*pb_to_json)(std::string_view envelope) = nullptr;
  // JSON text to a k8s envelope (this row's apiVersion and kind on it).
  std::string (*pb_from_json)(std::string_view json) = nullptr;
  // Decodes, applies schema defaults, validates and encodes the defaulted object into `defaulted`:
  // the API server's admission of a write in one pass.
  std::vector<FieldError> (*admit)(std::string_view json, std::string& defaulted) = nullptr;
  KindResource resource{};
};

}  // namespace rr
