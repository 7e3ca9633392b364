// The runtime's own types that schemas map onto instead of generated structs: shapes recognised
// by structure (a CRD's Condition), and definitions of the Kubernetes OpenAPI documents by name.
#pragma once
#include <optional>
#include <string>

#include "load/schema.hpp"
#include "model/model.hpp"

namespace rrgen {

// "rr::Condition", "rr::LabelSelector" ... for an object schema of exactly that shape.
std::optional<std::string> well_known(const Schema& s);
// The runtime's shapes that have a protobuf codec (rr_encode_pb/rr_decode_pb in rr/core/meta.hpp,
// generated from schemas/meta-v1.yaml's x-rrgen-protobuf facts).
bool well_known_has_protobuf(const std::string& cpp_type);
// The runtime type of an apimachinery/core definition ("io.k8s.apimachinery.pkg.apis.meta.v1.Time").
std::optional<TypeRef> well_known_definition(const std::string& name);

}  // namespace rrgen
