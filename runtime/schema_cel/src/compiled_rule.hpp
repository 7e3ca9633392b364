// One x-kubernetes-validations entry compiled: the programs and what check() needs to word its error.
#pragma once
#include <optional>
#include <string>

#include "rr/cel/program.hpp"
#include "rr/core/errors.hpp"

namespace rr::schema {

struct CompiledRule {
  std::string rule;                                 // trimmed, for "failed rule: ..." and evaluation errors
  std::string message;                              // trimmed; empty when unset
  std::optional<rr::cel::Program> program;          // evaluates to a bool
  std::optional<rr::cel::Program> message_program;  // the messageExpression, when set
  FieldErrorType reason = FieldErrorType::Invalid;
  std::string field_path;          // resolved, relative to the node ("spec.replicas"); empty when unset
  bool uses_old_self = false;      // a transition rule
  bool optional_old_self = false;  // oldSelf is an optional; the rule also runs without an old value
  // cost: the estimated cost of each program (checked against the per-rule and per-CRD limits at
  // compile time) goes here once rr::cel has its estimator.
};

}  // namespace rr::schema
