// Decoding as the API server decodes a request body: what its strict JSON and YAML decoders
// (sigs.k8s.io/json, sigs.k8s.io/yaml) report before any validation runs. Unknown members of a
// built-in kind (found from the kind's OpenAPI definitions, the same facts the local cluster
// serves), duplicate keys in JSON or YAML text, and values of the wrong JSON type, each in the API
// server's words. The local cluster, the in-process cluster and `rrgen validate` call these.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rr/core/json.hpp"

namespace rr::validation {

struct GoDecoding {
  // Members the kind's Go types do not declare, as strict decoding names them
  // ("spec.contaners", "spec.containers[0].imagee"); removed from the object.
  std::vector<std::string> unknown_fields;
  // Why Go's decoder fails on the object ("json: cannot unmarshal object into Go struct field
  // PodSpec.spec.containers of type []v1.Container", a Quantity's format error); empty when it
  // decodes. The API server answers 400 with it and reports nothing else.
  std::string error;
};

// Decodes `object` against the definition `root` of `definitions` (OpenAPI components/schemas:
// definition name -> schema, the facts of schemas/kubernetes-1.35/) as Go's decoder does into the
// kind's types: unknown members are collected and pruned; places that take any JSON
// (x-kubernetes-preserve-unknown-fields, RawExtension, free-form objects) are not looked into.
GoDecoding decode_as_go(Json& object, const Json& definitions, std::string_view root);

// The name of the definition tagged with this group, version and kind
// (x-kubernetes-group-version-kind); nullopt when none is.
std::optional<std::string> kind_definition(const Json& definitions, std::string_view group, std::string_view version,
                                           std::string_view kind);

// The strict errors of duplicated members in JSON text, in the order met, each as the API server
// words it: `duplicate field "metadata.name"` (the path of the member, indexes as "[0]"). Empty for
// text without duplicates and for text that is not JSON (the parser reports that).
std::vector<std::string> duplicate_json_fields(std::string_view text);

// `fields` (member paths such as "spec.containers[0].imagee") reordered as their members are
// written in the JSON `text`: Go's strict decoder reports unknown fields in the order it meets
// them, where a parsed object has lost that order. Paths the text does not hold go last, as they
// were; text that is not JSON leaves the order as it is.
void order_as_written(std::vector<std::string>& fields, std::string_view text);

// The YAML strict decoder's error for duplicated keys in the first document of `text`
// ("yaml: unmarshal errors:\n  line 4: key \"name\" already set in map"); nullopt when none is
// duplicated or the text is not YAML (the parser reports that).
std::optional<std::string> duplicate_yaml_keys(std::string_view text);

// The strict errors of a YAML error as the API server turns them into warnings: one per line
// after "yaml: unmarshal errors:", trimmed.
std::vector<std::string> yaml_error_warnings(std::string_view error);

// The API server's 400 text for a body it cannot decode into a kind:
// `Pod in version "v1" cannot be handled as a Pod: <why>`.
std::string cannot_be_handled(std::string_view kind, std::string_view version, std::string_view why);

// `strict decoding error: <e1>, <e2>` (runtime.NewStrictDecodingError).
std::string strict_decoding_error(const std::vector<std::string>& errors);

}  // namespace rr::validation
