// `rrgen openapi-facts`: the facts of Kubernetes' OpenAPI v3 documents without their prose, as
// one OpenAPI v3 document per group-version (docs/kubernetes-api-facts.md).
//
// In load/ because it works on the documents as written: located Node trees, which only load/ and
// sema/ may read (a backend sees only the model), written back with support/yaml_writer. It
// resolves nothing (no sema/): a definition goes out as its input says it, less the prose.
#pragma once
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "load/proto_reader.hpp"
#include "load/yaml_node.hpp"
#include "support/diagnostics.hpp"
#include "support/output.hpp"

namespace rrgen {

struct OpenApiFacts {
  OutputSet files;              // <group>-<version>.yaml (core-v1.yaml for the core group), apimachinery.yaml; by name
  std::size_t documents = 0;    // inputs read
  std::size_t definitions = 0;  // distinct definitions written
  std::size_t repeated = 0;     // further occurrences of a definition in other inputs, written once
};

// The file of the definitions no input's group-version owns (apimachinery's meta/v1, intstr, ...).
inline constexpr const char* kFactsSharedStem = "apimachinery";

// `documents`: the root of each input document, read in the byte order of their files' base names
// (so the output does not depend on the order given); each file is named, by its base name, in the
// header of the outputs it contributes to. Problems go to `diags` with their position; when it has
// errors the result is incomplete and must not be written.
// `protos` (resolve_proto_types), when not null: each property of a definition whose message it
// holds gets its field's facts as `x-rrgen-protobuf`; a property without a field, a field without a
// property and a definition without a message are warnings.
OpenApiFacts openapi_facts(const std::vector<const Node*>& documents, Diagnostics& diags,
                           const std::map<std::string, ProtoMessage>* protos = nullptr);

}  // namespace rrgen
