// One x-kubernetes-validations entry as written, the CRD-time checks the API server makes on it
// before compiling, and the Go rendering its compile errors show it in.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "rr/core/errors.hpp"
#include "rr/core/json.hpp"

namespace rr::schema::detail {

struct RuleSpec {
  std::string rule;
  std::string message;
  std::string message_expression;
  std::optional<std::string> reason;
  std::string field_path;
  std::optional<bool> optional_old_self;
};

RuleSpec read_rule_spec(const rr::Json& entry);

// The rule as Go's %#v prints apiextensions.ValidationRule, the value of the API server's compile
// errors. A set pointer prints as its value here (Go prints a process address).
std::string go_rule_value(const RuleSpec& rule);
std::string trim_space(const std::string& s);

// A finding worded as k8s.io/apimachinery's field.Error: "<path>: <Type>[: <value>][: <detail>]".
// `shown_value` is the value as Go prints it (already quoted); Required and Forbidden hide it.
FieldError field_error(const std::string& path, FieldErrorType type, const std::string& shown_value,
                       const std::string& detail);

// The checks the API server makes on an entry before compiling it (message, messageExpression,
// reason and fieldPath as written); `at` is "<schema path>.x-kubernetes-validations[i]". The
// fieldPath's resolution against the schema is checked by the caller.
void check_rule_spec(const RuleSpec& rule, const std::string& at, std::vector<FieldError>& errors);

// The reason's field error type (FieldValueInvalid when unset).
FieldErrorType reason_type(const std::optional<std::string>& reason);

}  // namespace rr::schema::detail
