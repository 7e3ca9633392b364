// The component schemas the local cluster's OpenAPI v3 documents carry (what `kubectl explain`
// reads): the built-in definitions from the embedded 1.35 facts, and a custom resource's from its
// CRD. Facts carry no descriptions, so explain prints field names and types only.
#pragma once
#include <string>
#include <vector>

#include "rr/core/json.hpp"

namespace rr::apiserver_detail {

// The definitions of a built-in group-version's facts file ("" group: core), by name, with every
// definition they reference (from any facts file); empty when there is no such file.
Json builtin_component_schemas(const std::string& group, const std::string& version);

// Every definition of the embedded facts, by name, with only what a built-in kind's body is decoded
// against (rr::validation::decode_as_go): members, types, formats, items, map values, references,
// kind tags (derived at build time; parsed on first use, in a few ms).
const Json& builtin_definitions();

// A CRD version's schema as the API server publishes it, under its name ("dev.rrgen.example.web.v1.WebApp"
// for web.example.rrgen.dev/v1 WebApp): the openAPIV3Schema with apiVersion, kind and metadata
// (ObjectMeta) filled in and tagged with x-kubernetes-group-version-kind. Adds what it references
// (ObjectMeta and its parts) to `schemas`. False when the version has no schema.
bool add_crd_schema(const Json& crd, const std::string& version, Json& schemas);

// "web.example.rrgen.dev", "v1", "WebApp" -> "dev.rrgen.example.web.v1.WebApp".
std::string crd_schema_name(const std::string& group, const std::string& version, const std::string& kind);

}  // namespace rr::apiserver_detail
