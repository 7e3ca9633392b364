// The protobuf facts of the schema (x-rrgen-protobuf) as the model's PbField, and which structs
// get a protobuf codec: those whose every member has a field whose proto type fits its C++ type.
// A member that does not fit (apiextensions' JSONSchemaPropsOrBool, a Duration held as a string)
// leaves its struct, and every struct holding it, without one, rather than with wrong bytes.
#pragma once
#include <optional>

#include "load/schema.hpp"
#include "model/model.hpp"

namespace rrgen {

// The PbField of a member of C++ type `type` whose property is `prop` (null for none).
std::optional<PbField> protobuf_of(const Schema* prop, const TypeRef& type);

// Sets StructDef::protobuf on every struct of `model` that can have a codec (of the runtime's own
// types, the ones well_known_has_protobuf names have one).
void mark_protobuf_structs(Model& model);

}  // namespace rrgen
