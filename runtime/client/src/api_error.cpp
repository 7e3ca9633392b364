// metav1.Status <-> JSON, ApiError and the client-go style classification predicates.
#include "rr/client/api_error.hpp"

#include <array>
#include <limits>

#include "rr/core/json.hpp"

namespace rr {
namespace {

std::string string_member(const Json& object, const char* name) {
  const auto it = object.find(name);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::optional<std::int32_t> int32_member(const Json& object, const char* name) {
  const auto it = object.find(name);
  if (it == object.end() || !it->is_number_integer()) return std::nullopt;
  const auto value = it->get<std::int64_t>();
  if (value < std::numeric_limits<std::int32_t>::min() || value > std::numeric_limits<std::int32_t>::max()) {
    return std::nullopt;
  }
  return static_cast<std::int32_t>(value);
}

void put_if_set(Json& object, const char* name, const std::string& value) {
  if (!value.empty()) object[name] = value;
}

// client-go's knownReasons: for these the reason decides alone; for any other (including "")
// the HTTP code does.
bool is_known_reason(std::string_view reason) noexcept {
  static constexpr std::array<std::string_view, 18> known = {
      "Unauthorized", "Forbidden", "NotFound", "AlreadyExists", "Conflict", "Gone",
      "Invalid", "ServerTimeout", "Timeout", "TooManyRequests", "BadRequest", "MethodNotAllowed",
      "NotAcceptable", "RequestEntityTooLarge", "UnsupportedMediaType", "InternalError", "Expired",
      "ServiceUnavailable"};
  for (const std::string_view k : known) {
    if (k == reason) return true;
  }
  return false;
}

bool reason_or_code(const Status& s, std::string_view reason, std::int32_t code) noexcept {
  return s.reason == reason || (!is_known_reason(s.reason) && s.code == code);
}

}  // namespace

Json Status::to_json() const {
  Json body = {{"kind", "Status"}, {"apiVersion", "v1"}, {"metadata", Json::object()}, {"status", "Failure"}};
  put_if_set(body, "message", message);
  put_if_set(body, "reason", reason);
  Json details = Json::object();
  put_if_set(details, "name", details_name);
  put_if_set(details, "group", details_group);
  put_if_set(details, "kind", details_kind);
  put_if_set(details, "uid", details_uid);
  if (!causes.empty()) {
    Json list = Json::array();
    for (const StatusCause& c : causes) {
      Json cause = Json::object();
      put_if_set(cause, "reason", c.type);  // metav1.StatusCause.Type is `json:"reason"`
      put_if_set(cause, "message", c.message);
      put_if_set(cause, "field", c.field);
      list.push_back(std::move(cause));
    }
    details["causes"] = std::move(list);
  }
  if (retry_after_seconds) details["retryAfterSeconds"] = *retry_after_seconds;
  if (!details.empty()) body["details"] = std::move(details);
  if (code != 0) body["code"] = code;
  return body;
}

Status Status::from_json(const Json& body) {
  Status s;
  if (!body.is_object()) return s;
  s.message = string_member(body, "message");
  s.reason = string_member(body, "reason");
  s.code = int32_member(body, "code").value_or(0);
  const auto details = body.find("details");
  if (details == body.end() || !details->is_object()) return s;
  s.details_name = string_member(*details, "name");
  s.details_group = string_member(*details, "group");
  s.details_kind = string_member(*details, "kind");
  s.details_uid = string_member(*details, "uid");
  s.retry_after_seconds = int32_member(*details, "retryAfterSeconds");
  if (const auto causes = details->find("causes"); causes != details->end() && causes->is_array()) {
    for (const Json& c : *causes) {
      if (!c.is_object()) continue;
      s.causes.push_back({string_member(c, "reason"), string_member(c, "message"), string_member(c, "field")});
    }
  }
  return s;
}

ApiError::ApiError(Status status)
    : std::runtime_error(status.message.empty() ? status.reason : status.message), status_(std::move(status)) {}

bool is_not_found(const Status& s) noexcept { return reason_or_code(s, "NotFound", 404); }
bool is_already_exists(const Status& s) noexcept { return s.reason == "AlreadyExists"; }
bool is_conflict(const Status& s) noexcept { return reason_or_code(s, "Conflict", 409); }
bool is_invalid(const Status& s) noexcept { return reason_or_code(s, "Invalid", 422); }
bool is_forbidden(const Status& s) noexcept { return reason_or_code(s, "Forbidden", 403); }
bool is_gone(const Status& s) noexcept { return s.reason == "Expired" || reason_or_code(s, "Gone", 410); }
bool is_bad_request(const Status& s) noexcept { return reason_or_code(s, "BadRequest", 400); }

}  // namespace rr
