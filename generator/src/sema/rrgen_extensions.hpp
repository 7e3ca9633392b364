// Where the x-rrgen-* extensions may appear (docs/runtime-schemas.md): a definition carries
// cpp-type, go-json and unknown-fields; its direct properties carry cpp-name, go-pointer,
// json-text and protobuf. Anywhere else they would be silently meaningless, so they are errors.
#pragma once
#include "load/inputs.hpp"
#include "support/diagnostics.hpp"

namespace rrgen {

void check_rrgen_extensions(const OpenApiDefinition& def, Diagnostics& diags);

}  // namespace rrgen
