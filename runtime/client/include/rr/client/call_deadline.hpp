// The deadline of the API calls this thread makes: Go's context deadline for a reconcile, which
// C++ calls cannot carry through the Client interface. The controller's worker opens a
// CallDeadline around a reconcile that has a timeout (ControllerOptions::reconcile_timeout); the
// HTTP client shortens each request's timeout to what is left, checks it before and after its
// client-side throttling, does not wait for a retry that would end after it, and fails with
// "context deadline exceeded" once it has passed.
#pragma once
#include <chrono>
#include <optional>

namespace rr {

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

 private:
  static std::optional<time_point>& slot() noexcept {
    thread_local std::optional<time_point> deadline;
    return deadline;
  }
  std::optional<time_point> previous_;
};

}  // namespace rr
