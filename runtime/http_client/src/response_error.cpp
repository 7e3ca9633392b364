#include "response_error.hpp"

#include <cctype>
#include <charconv>

#include "rr/core/json.hpp"

namespace rr::http_detail {
namespace {

constexpr std::size_t kMaxUnstructuredBody = 2048;  // client-go's maxUnstructuredResponseTextBytes

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())) != 0) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())) != 0) s.remove_suffix(1);
  return s;
}

// apimachinery's NewGenericServerResponse: reason and wording by HTTP code.
void describe_code(long code, std::string_view server_text, Status& s) {
  switch (code) {
    case 400: s.reason = "BadRequest"; s.message = "the server rejected our request for an unknown reason"; return;
    case 401: s.reason = "Unauthorized"; s.message = "the server has asked for the client to provide credentials"; return;
    case 403: s.reason = "Forbidden"; s.message = std::string(server_text); return;
    case 404: s.reason = "NotFound"; s.message = "the server could not find the requested resource"; return;
    case 405:
      s.reason = "MethodNotAllowed";
      s.message = "the server does not allow this method on the requested resource";
      return;
    case 406:
      s.reason = "NotAcceptable";
      s.message = "the server was unable to respond with a content type that the client supports";
      return;
    case 409: s.reason = "Conflict"; s.message = "the server reported a conflict"; return;
    case 410: s.reason = "Gone"; s.message = "the server has asked for the client to try again later"; return;
    case 415:
      s.reason = "UnsupportedMediaType";
      s.message = "the server was unable to read the request body";
      return;
    case 422:
      s.reason = "Invalid";
      s.message = "the server rejected our request due to an error in our request";
      return;
    case 429:
      s.reason = "TooManyRequests";
      s.message = "the server has received too many requests and has asked us to try again later";
      return;
    case 503:
      s.reason = "ServiceUnavailable";
      s.message = "the server is currently unable to handle the request";
      return;
    case 504:
      s.reason = "Timeout";
      s.message = "the server was unable to return a response in the time allotted, but may still be processing the request";
      return;
    default:
      if (code >= 500) s.reason = "InternalError";
      s.message = "an error on the server (\"" + std::string(server_text) +
                  "\") has prevented the request from succeeding";
      return;
  }
}

}  // namespace

Status status_from_response(long http_code, std::string_view body, std::optional<std::int32_t> retry_after) {
  Status s;
  const Json parsed = Json::parse(body.begin(), body.end(), nullptr, /*allow_exceptions=*/false);
  if (parsed.is_object() && parsed.value("kind", std::string()) == "Status") {
    s = Status::from_json(parsed);
  } else {
    const std::string_view text = trim(body.substr(0, kMaxUnstructuredBody));
    describe_code(http_code, text.empty() ? "unknown" : text, s);
    if (!text.empty()) s.causes.push_back({"UnexpectedServerResponse", std::string(text), ""});
  }
  if (s.code == 0) s.code = static_cast<std::int32_t>(http_code);
  if (!s.retry_after_seconds) s.retry_after_seconds = retry_after;
  return s;
}

Status transport_failure(std::string_view method, std::string_view url, std::string_view detail) {
  Status s;
  s.code = 0;
  s.reason = "ServiceUnavailable";
  s.message = std::string(method) + " \"" + std::string(url) + "\": " + std::string(detail);
  return s;
}

std::optional<std::int32_t> parse_retry_after(std::string_view value) {
  value = trim(value);
  std::int32_t seconds = 0;
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), seconds);
  if (ec != std::errc() || end != value.data() + value.size() || seconds < 0) return std::nullopt;
  return seconds;
}

}  // namespace rr::http_detail
