// x-kubernetes-validations entries as written (rule_spec.hpp).
#include "rule_spec.hpp"

#include <algorithm>
#include <array>
#include <string_view>

#include "rr/core/go_quote.hpp"
#include "rr/core/validator.hpp"
#include "schema_members.hpp"

namespace rr::schema::detail {

namespace {

// The reasons a rule may give (apiextensions' supportedValidationReason), sorted as Go lists them.
constexpr std::array<std::string_view, 4> kReasons = {"FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid",
                                                      "FieldValueRequired"};

bool has_newline(const std::string& s) { return s.find_first_of("\r\n") != std::string::npos; }

}  // namespace

RuleSpec read_rule_spec(const rr::Json& entry) {
  RuleSpec r;
  if (!entry.is_object()) return r;
  r.rule = schema_text(entry, "rule");
  r.message = schema_text(entry, "message");
  r.message_expression = schema_text(entry, "messageExpression");
  r.field_path = schema_text(entry, "fieldPath");
  if (auto it = entry.find("reason"); it != entry.end() && it->is_string()) r.reason = it->get<std::string>();
  if (auto it = entry.find("optionalOldSelf"); it != entry.end() && it->is_boolean()) {
    r.optional_old_self = it->get<bool>();
  }
  return r;
}

std::string trim_space(const std::string& s) {
  constexpr std::string_view kSpace = " \t\n\r\v\f";
  const auto first = s.find_first_not_of(kSpace);
  if (first == std::string::npos) return {};
  return s.substr(first, s.find_last_not_of(kSpace) - first + 1);
}

std::string go_rule_value(const RuleSpec& r) {
  std::string out = "apiextensions.ValidationRule{Rule:" + rr::go_quote(r.rule) +
                    ", Message:" + rr::go_quote(r.message) +
                    ", MessageExpression:" + rr::go_quote(r.message_expression) +
                    ", Reason:(*apiextensions.FieldValueErrorReason)(";
  out += r.reason ? rr::go_quote(*r.reason) : "nil";
  out += "), FieldPath:" + rr::go_quote(r.field_path) + ", OptionalOldSelf:(*bool)(";
  out += r.optional_old_self ? (*r.optional_old_self ? "true" : "false") : "nil";
  return out + ")}";
}

FieldError field_error(const std::string& path, FieldErrorType type, const std::string& shown_value,
                       const std::string& detail) {
  // rr::Validator words it: the value, when shown, leads the detail.
  rr::Validator v(path);
  const bool hidden = type == FieldErrorType::Required || type == FieldErrorType::Forbidden;
  std::string body = hidden || shown_value.empty() ? detail : shown_value;
  if (!hidden && !shown_value.empty() && !detail.empty()) body += ": " + detail;
  v.add(type, body);
  return v.take().front();
}

void check_rule_spec(const RuleSpec& r, const std::string& at, std::vector<FieldError>& errors) {
  const std::string message = trim_space(r.message);
  if (trim_space(r.rule).empty()) {
    errors.push_back(field_error(at + ".rule", FieldErrorType::Required, {}, "rule is not specified"));
  } else if (!r.message.empty() && message.empty()) {
    errors.push_back(field_error(at + ".message", FieldErrorType::Invalid, rr::go_quote(r.message),
                                 "message must be non-empty if specified"));
  } else if (has_newline(message)) {
    errors.push_back(field_error(at + ".message", FieldErrorType::Invalid, rr::go_quote(r.message),
                                 "message must not contain line breaks"));
  } else if (has_newline(trim_space(r.rule)) && message.empty()) {
    errors.push_back(field_error(at + ".message", FieldErrorType::Required, {},
                                 "message must be specified if rule contains line breaks"));
  }
  if (!r.message_expression.empty() && trim_space(r.message_expression).empty()) {
    errors.push_back(field_error(at + ".messageExpression", FieldErrorType::Required, {},
                                 "messageExpression must be non-empty if specified"));
  }
  if (r.reason && std::find(kReasons.begin(), kReasons.end(), *r.reason) == kReasons.end()) {
    std::string supported;
    for (const auto reason : kReasons) supported += (supported.empty() ? "" : ", ") + rr::go_quote(reason);
    errors.push_back(field_error(at + ".reason", FieldErrorType::NotSupported, rr::go_quote(*r.reason),
                                 "supported values: " + supported));
  }
  if (!r.field_path.empty() && trim_space(r.field_path).empty()) {
    errors.push_back(field_error(at + ".fieldPath", FieldErrorType::Invalid, rr::go_quote(r.field_path),
                                 "fieldPath must be non-empty if specified"));
  }
  if (has_newline(r.field_path)) {
    errors.push_back(field_error(at + ".fieldPath", FieldErrorType::Invalid, rr::go_quote(r.field_path),
                                 "fieldPath must not contain line breaks"));
  }
}

FieldErrorType reason_type(const std::optional<std::string>& reason) {
  if (!reason) return FieldErrorType::Invalid;
  if (*reason == "FieldValueForbidden") return FieldErrorType::Forbidden;
  if (*reason == "FieldValueRequired") return FieldErrorType::Required;
  if (*reason == "FieldValueDuplicate") return FieldErrorType::Duplicate;
  return FieldErrorType::Invalid;
}

}  // namespace rr::schema::detail
