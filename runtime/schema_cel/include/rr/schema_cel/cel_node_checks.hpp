// The CEL rules as rr::schema's NodeCheck: plug this factory into rr::schema::CompileOptions and
// the schema walk evaluates every node's x-kubernetes-validations, as the API server does.
#pragma once
#include <string>
#include <variant>
#include <vector>

#include "rr/schema/schema.hpp"
#include "rr/schema_cel/cel_rules.hpp"

namespace rr::schema {

// Each node's rules compiled with its cardinality (from the enclosing lists' and maps' bounds) and,
// when `tally` is given, their estimated costs added up there for the CRD's limit (the tally must
// outlive the compile; CostTally::check() then says whether the schema is over it).
NodeCheckFactory cel_node_checks(CostTally* tally = nullptr);

// A CRD version's openAPIV3Schema compiled as the API server compiles it when the CRD is written:
// the schema's checks, its rules (cel_node_checks) and the CRD's total estimated rule cost, whose
// errors follow the schema's. `schema_path` prefixes the errors' paths.
std::variant<Schema, std::vector<FieldError>> compile_crd_schema(const Json& openapi_v3_schema,
                                                                 const std::string& schema_path);

}  // namespace rr::schema
