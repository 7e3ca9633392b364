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

// Builders with the API server's wording (k8s.io/apimachinery/pkg/api/errors). `resource` is the
// plural ("widgets"); "<plural>.<group>" is accepted too. Names are quoted as Go's %q quotes them.
// details.kind is the resource plural, except for invalid() where it is the Kind, as the server does.
namespace api_errors {

// The detail of a 409 on a stale resourceVersion (apierrors.OptimisticLockErrorMsg).
inline constexpr std::string_view optimistic_lock_message =
    "the object has been modified; please apply your changes to the latest version and try again";

// 404 "<resource>.<group> \"<name>\" not found"
Status not_found(std::string_view resource, std::string_view group, std::string_view name);
// 409 "<resource>.<group> \"<name>\" already exists"
Status already_exists(std::string_view resource, std::string_view group, std::string_view name);
// 409 "Operation cannot be fulfilled on <resource>.<group> \"<name>\": <detail>"
Status conflict(std::string_view resource, std::string_view group, std::string_view name,
                std::string_view detail);
// 422 "<Kind>.<group> \"<name>\" is invalid: <cause>" or, for several distinct causes,
// "... is invalid: [<cause>, <cause>]". Each cause's message is a FieldError::message text (it
// starts with the field path); in details.causes the "<field>: " prefix is dropped, as the server
// sends only the error body there.
Status invalid(std::string_view kind, std::string_view group, std::string_view name,
               std::vector<StatusCause> causes);
// FieldErrors as StatusCauses: type "FieldValueInvalid", "FieldValueRequired", ...
std::vector<StatusCause> causes_of(const std::vector<FieldError>& errors);
Status bad_request(std::string message);
// 403 "<resource>.<group> \"<name>\" is forbidden: <reason_text>" (no name: "<resource>.<group> is forbidden: ...")
Status forbidden(std::string_view resource, std::string_view group, std::string_view name,
                 std::string_view reason_text);
Status gone(std::string message);  // reason "Expired", 410
// 405 "<action> is not supported on resources of kind \"<resource>\""
Status method_not_supported(std::string_view resource, std::string_view action);
// 415 "the body of the request was in an unknown format - accepted media types include: <accepted, joined by ", ">"
Status unsupported_media_type(const std::vector<std::string>& accepted);
// The 415 a custom resource's PATCH gets for any other `content_type` (e.g. strategic merge):
// accepted are JSON patch, merge patch and apply patch. The server's message does not repeat the
// refused type.
Status unsupported_media_type(std::string_view content_type);
// 500 "Internal error occurred: <message>"
Status internal_error(std::string message);
}  // namespace api_errors

}  // namespace rr
