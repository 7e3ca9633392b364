// Non-2xx answers and transport failures as rr::Status, as client-go's rest.Request builds them.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "rr/client/api_error.hpp"

namespace rr::http_detail {

// The Status of a non-2xx answer: the body's own Status when it is one (its code filled in from
// the HTTP code when missing), else client-go's newUnstructuredResponseError: reason and message
// from the code, the body text (trimmed, at most 2048 bytes) as an UnexpectedServerResponse cause.
// A Retry-After header fills retry_after_seconds when the body names none.
Status status_from_response(long http_code, std::string_view body, std::optional<std::int32_t> retry_after);

// No HTTP answer: code 0, reason "ServiceUnavailable", message `<METHOD> "<url>": <detail>`
// (the shape of Go's url.Error).
Status transport_failure(std::string_view method, std::string_view url, std::string_view detail);

// Retry-After in seconds (the delta-seconds form; an HTTP date is not accepted, as client-go).
std::optional<std::int32_t> parse_retry_after(std::string_view value);

}  // namespace rr::http_detail
