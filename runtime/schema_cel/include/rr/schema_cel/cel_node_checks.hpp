// The CEL rules as rr::schema's NodeCheck: plug this factory into rr::schema::CompileOptions and
// the schema walk evaluates every node's x-kubernetes-validations, as the API server does.
#pragma once
#include "rr/schema/schema.hpp"
#include "rr/schema_cel/cel_rules.hpp"

namespace rr::schema {

// Each node's rules compiled with its cardinality (from the enclosing lists' and maps' bounds) and,
// when `tally` is given, their estimated costs added up there for the CRD's limit (the tally must
// outlive the compile; CostTally::check() then says whether the schema is over it).
NodeCheckFactory cel_node_checks(CostTally* tally = nullptr);

}  // namespace rr::schema
