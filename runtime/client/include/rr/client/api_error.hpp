// Errors from the Kubernetes API, carrying the server's metav1.Status (reason, code, details).
// Clients throw ApiError; predicates classify by reason first and fall back to the HTTP code, as
// client-go's apierrors does.
#pragma once
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "rr/core/fwd.hpp"

namespace rr {

// metav1.StatusCause.
struct StatusCause {
  std::string type;     // e.g. "FieldValueInvalid", "FieldManagerConflict"
  std::string message;
  std::string field;
  bool operator==(const StatusCause&) const = default;
};

// metav1.Status for a failure (kind "Status", apiVersion "v1", status "Failure").
struct Status {
  std::string message;
  std::string reason;        // metav1.StatusReason: "NotFound", "AlreadyExists", "Conflict", ...
  std::int32_t code = 0;     // HTTP status code
  std::string details_name;
  std::string details_group;
  std::string details_kind;  // the resource (plural) or kind, as the server reports it
  std::string details_uid;
  std::optional<std::int32_t> retry_after_seconds;
  std::vector<StatusCause> causes;
  bool operator==(const Status&) const = default;

  // The JSON body the API server sends: {"kind":"Status","apiVersion":"v1","metadata":{},...}.
  Json to_json() const;
  static Status from_json(const Json& body);  // tolerant: missing members stay empty
};

class ApiError : public std::runtime_error {
 public:
  explicit ApiError(Status status);
  const Status& status() const noexcept { return status_; }
  std::string_view reason() const noexcept { return status_.reason; }
  std::int32_t code() const noexcept { return status_.code; }

 private:
  Status status_;
};

// Classification (reason first, code as fallback).
bool is_not_found(const Status& s) noexcept;
bool is_already_exists(const Status& s) noexcept;
bool is_conflict(const Status& s) noexcept;
bool is_invalid(const Status& s) noexcept;
bool is_forbidden(const Status& s) noexcept;
bool is_gone(const Status& s) noexcept;       // 410: Gone or Expired (a watch must relist)
bool is_bad_request(const Status& s) noexcept;

// Builders with the API server's wording. `resource` is "<plural>" or "<plural>.<group>".
namespace api_errors {
Status not_found(std::string_view resource, std::string_view group, std::string_view name);
Status already_exists(std::string_view resource, std::string_view group, std::string_view name);
// 409 "Operation cannot be fulfilled on <resource>.<group> \"<name>\": <detail>"
Status conflict(std::string_view resource, std::string_view group, std::string_view name,
                std::string_view detail);
// 422 "<Kind>.<group> \"<name>\" is invalid: <causes joined by ", ">"
Status invalid(std::string_view kind, std::string_view group, std::string_view name,
               std::vector<StatusCause> causes);
Status bad_request(std::string message);
Status forbidden(std::string_view resource, std::string_view group, std::string_view name,
                 std::string_view reason_text);
Status gone(std::string message);  // reason "Expired", 410
Status method_not_supported(std::string_view resource, std::string_view action);
Status unsupported_media_type(std::string_view content_type);
Status internal_error(std::string message);
}  // namespace api_errors

}  // namespace rr
