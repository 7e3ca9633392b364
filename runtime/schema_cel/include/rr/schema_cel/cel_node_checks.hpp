// The CEL rules as rr::schema's NodeCheck: plug this factory into rr::schema::CompileOptions and
// the schema walk evaluates every node's x-kubernetes-validations, as the API server does.
#pragma once
#include "rr/schema/schema.hpp"

namespace rr::schema {

NodeCheckFactory cel_node_checks();

}  // namespace rr::schema
