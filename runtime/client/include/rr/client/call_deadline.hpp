// The deadline of the API calls this thread makes: Go's context deadline for a reconcile, which
// C++ calls cannot carry through the Client interface. The controller's worker opens a
// CallDeadline around a reconcile that has a timeout (ControllerOptions::reconcile_timeout).
// Every client of the runtime honours it:
// - the HTTP client shortens each request's timeout to what is left, checks it before and after
//   its client-side throttling, and does not wait for a retry that would end after it;
// - the in-process cluster's client refuses a call once it has passed, and the local API server's
//   webhook calls made on this thread end by it;
// - the cached client's waits (an informer's first sync, read-your-own-writes) end by it.
// Each then fails with deadline_exceeded(): an ApiError reading "context deadline exceeded".
#pragma once
#include <chrono>
#include <optional>
#include <string_view>

namespace rr {

class ApiError;

class CallDeadline {
 public:
  using time_point = std::chrono::steady_clock::time_point;

  // Until destroyed, calls on this thread end by `deadline` (or by an earlier one already open).
  explicit CallDeadline(time_point deadline) : previous_(slot()) {
    if (!slot() || deadline < *slot()) slot() = deadline;
  }
  ~CallDeadline() { slot() = previous_; }
  CallDeadline(const CallDeadline&) = delete;
  CallDeadline& operator=(const CallDeadline&) = delete;

  // The deadline in force on this thread; nullopt: none.
  static std::optional<time_point> current() noexcept { return slot(); }
  // Whether the deadline in force on this thread (if any) has passed.
  static bool passed() noexcept { return slot() && std::chrono::steady_clock::now() >= *slot(); }

 private:
  static std::optional<time_point>& slot() noexcept {
    thread_local std::optional<time_point> deadline;
    return deadline;
  }
  std::optional<time_point> previous_;
};

// The error of a call ended by its deadline: "<what>: context deadline exceeded", reason Timeout,
// no HTTP code (no server answered), as client-go's context.DeadlineExceeded.
ApiError deadline_exceeded(std::string_view what);

}  // namespace rr
