// The error a call ended by its CallDeadline fails with.
#include "rr/client/call_deadline.hpp"

#include <string>

#include "rr/client/api_error.hpp"

namespace rr {

ApiError deadline_exceeded(std::string_view what) {
  Status status;
  status.code = 0;
  status.reason = "Timeout";
  status.message = std::string(what) + ": context deadline exceeded";
  return ApiError(std::move(status));
}

}  // namespace rr
