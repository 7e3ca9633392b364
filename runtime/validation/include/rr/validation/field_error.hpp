// One finding of the API server's Go validation (k8s.io/apimachinery/pkg/util/validation/field.Error):
// type, field path, the bad value as the API server prints it, and a detail. to_string() is the
// "<field>: <body>" text of a 422's message; to_core() is what rr::api_errors::causes_of() reads.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rr/core/errors.hpp"

namespace rr::validation {

using rr::FieldErrorType;

struct FieldError {
  FieldErrorType type = FieldErrorType::Invalid;
  std::string field;                 // Kubernetes field path: metadata.labels, metadata.ownerReferences[0].uid
  std::optional<std::string> value;  // already rendered (Go %q, %v or JSON); nullopt: not shown
  std::string detail;

  // field.Error.ErrorBody(): "Invalid value: \"Foo\": <detail>", "Required value: <detail>", "Too long: ...".
  std::string body() const;
  // field.Error.Error(): "<field>: <body>".
  std::string to_string() const;
  rr::FieldError to_core() const { return rr::FieldError{field, type, to_string()}; }
  bool operator==(const FieldError&) const = default;
};

using ErrorList = std::vector<FieldError>;

// The constructors of package field, each rendering its bad value as ErrorBody() does: a Go
// string with %q, an int64 with %v, anything else as the JSON encoding/json writes.
FieldError invalid(std::string field, std::string_view string_value, std::string detail);
FieldError invalid_int(std::string field, std::int64_t value, std::string detail);
FieldError invalid_json(std::string field, std::string json_text, std::string detail);
FieldError required(std::string field, std::string detail = {});
FieldError forbidden(std::string field, std::string detail);
FieldError too_long(std::string field, std::int64_t max_bytes);  // "may not be more than N bytes"
FieldError too_many(std::string field, std::int64_t actual, std::int64_t max_items);
FieldError duplicate(std::string field, std::string_view string_value);
FieldError not_found(std::string field, std::string_view string_value);  // "Not found: \"x\""
FieldError not_supported(std::string field, std::string_view string_value, const std::vector<std::string>& supported);

// The list as core findings (rr::FieldError), for api_errors::causes_of / the cluster's 422.
std::vector<rr::FieldError> to_core(const ErrorList& errors);

}  // namespace rr::validation
