// Errors shared by every generated type: decode failures and validation findings.
#pragma once
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace rr {

// Thrown when JSON text does not match a type. pointer() is an RFC 6901 JSON pointer to the
// offending value (e.g. "/spec/ports/2/port"); offset() is the byte offset in the input.
class DecodeError : public std::runtime_error {
 public:
  DecodeError(std::string pointer, std::size_t offset, std::string message);
  const std::string& pointer() const noexcept { return pointer_; }
  std::size_t offset() const noexcept { return offset_; }
  const std::string& message() const noexcept { return message_; }

 private:
  std::string pointer_;
  std::size_t offset_;
  std::string message_;
};

// Mirrors k8s.io/apimachinery/pkg/util/validation/field.ErrorType.
enum class FieldErrorType { Required, Invalid, NotSupported, TooLong, TooMany, Duplicate, Forbidden, NotFound };

// One validation finding. path uses Kubernetes field-path syntax: spec.ports[2].port, metadata.labels[app].
struct FieldError {
  std::string path;
  FieldErrorType type = FieldErrorType::Invalid;
  std::string message;  // full text, e.g. "spec.replicas: Invalid value: 7: must be less than or equal to 5"
  bool operator==(const FieldError&) const = default;
};

std::string_view to_string(FieldErrorType type) noexcept;

}  // namespace rr
