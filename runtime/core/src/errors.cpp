#include "rr/core/errors.hpp"

#include <utility>

namespace rr {
namespace {
std::string describe(const std::string& pointer, std::size_t offset, const std::string& message) {
  std::string s = "at ";
  s += pointer.empty() ? std::string("(root)") : pointer;
  s += " (byte ";
  s += std::to_string(offset);
  s += "): ";
  s += message;
  return s;
}
}  // namespace

DecodeError::DecodeError(std::string pointer, std::size_t offset, std::string message)
    : std::runtime_error(describe(pointer, offset, message)),
      pointer_(std::move(pointer)),
      offset_(offset),
      message_(std::move(message)) {}

std::string_view to_string(FieldErrorType type) noexcept {
  switch (type) {
    case FieldErrorType::Required: return "Required value";
    case FieldErrorType::Invalid: return "Invalid value";
    case FieldErrorType::NotSupported: return "Unsupported value";
    case FieldErrorType::TooLong: return "Too long";
    case FieldErrorType::TooMany: return "Too many";
    case FieldErrorType::Duplicate: return "Duplicate value";
    case FieldErrorType::Forbidden: return "Forbidden";
    case FieldErrorType::NotFound: return "Not found";
  }
  return "Invalid value";
}

}  // namespace rr
