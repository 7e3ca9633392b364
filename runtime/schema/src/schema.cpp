// Schema's validate(), over the walk: the schema's findings, then the NodeChecks', which upstream
// withholds when the schema's findings include a wrong type, format, enum, size or required member.
#include <algorithm>

#include "engine.hpp"
#include "listtype.hpp"
#include "walk.hpp"

namespace rr::schema {

bool blocks_checks(const FieldError& e) {
  return e.type == FieldErrorType::NotSupported || e.type == FieldErrorType::Required ||
         e.type == FieldErrorType::TooLong || e.type == FieldErrorType::TooMany;
}

std::vector<FieldError> validate_tree(const Node& node, const Json& value, const Json* old,
                                      const ValidateOptions& options, const std::string& root, bool list_types) {
  std::vector<FieldError> errors;
  Validator v(root);
  ValidationRun run;
  run.ratcheting = options.ratcheting;
  run.warnings = options.warnings;
  validate_value(node, value, old, v, run, errors);
  // strategy.go's order: the schema's findings, the embedded resources', then list-type
  // uniqueness, which an update checks only when the old object had no such finding.
  errors.insert(errors.end(), run.embedded_errors.begin(), run.embedded_errors.end());
  std::vector<FieldError> old_list_errors;
  if (list_types && old) list_type_errors(node, *old, root, old_list_errors);
  if (list_types && old_list_errors.empty()) list_type_errors(node, value, root, errors);
  // strategy.go's hasBlockingErr: these findings mean the object lacks the shape the rules expect.
  const bool blocked = options.caller_blocks_checks || run.type_invalid ||
                       std::any_of(errors.begin(), errors.end(), blocks_checks);
  // The caller's own checks report the schema's findings; only the junctors' are kept.
  if (options.checks_and_junctors_only) errors = std::move(run.junctor_errors);
  if (!blocked) {
    errors.insert(errors.end(), run.check_errors.begin(), run.check_errors.end());
  } else if (run.checks_ran) {
    errors.push_back(FieldError{"", FieldErrorType::Invalid,
                                "<nil>: Invalid value: \"null\": some validation rules were not checked because the "
                                "object was invalid; correct the existing errors to complete validation"});
  }
  return errors;
}

std::vector<FieldError> Schema::validate(const Json& object, const Json* old_object,
                                         const ValidateOptions& options) const {
  return validate_tree(*root_, object, old_object, options);
}

}  // namespace rr::schema
