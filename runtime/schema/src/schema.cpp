// Schema::validate: the walk from the root, then the NodeChecks' findings, which upstream withholds
// when a value has the wrong type (its CEL rules would see the wrong types).
#include "engine.hpp"

namespace rr::schema {

std::vector<FieldError> Schema::validate(const Json& object, const Json* old_object,
                                         const ValidateOptions& options) const {
  std::vector<FieldError> errors;
  Validator v;
  ValidationRun run;
  run.ratcheting = options.ratcheting;
  validate_value(*root_, object, old_object, v, run, errors);
  if (!run.type_error) {
    errors.insert(errors.end(), run.check_errors.begin(), run.check_errors.end());
  } else if (!run.check_errors.empty() || run.checks_ran) {
    errors.push_back(FieldError{"", FieldErrorType::Invalid,
                                "<nil>: Invalid value: \"null\": some validation rules were not checked because the "
                                "object was invalid; correct the existing errors to complete validation"});
  }
  return errors;
}

}  // namespace rr::schema
