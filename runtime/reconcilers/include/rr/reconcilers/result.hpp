// Result of a reconcile and its aggregation.
#pragma once
#include <chrono>
#include <optional>

#include "rr/reconcilers/error.hpp"

namespace rr {

struct Result {
  // Requeue through the work queue's rate limiter (reconciler.io's Result.Requeue; here it is its
  // own result kind rather than a deprecated flag: a quiet error at the root becomes this).
  bool requeue = false;
  // Requeue after this delay (0 = not).
  std::chrono::nanoseconds requeue_after{0};
  // The work-queue priority of this requeue (controller-runtime's Result.Priority; higher is
  // served first, rr::kLowPriority = -100 is the initial list's). Unset: the priority the key
  // was taken from the queue at. Ignored without the controller's priority queue.
  std::optional<int> priority{};
  bool operator==(const Result&) const = default;
  bool empty() const noexcept { return !requeue && requeue_after.count() == 0; }
};

// Result + error: what every reconciler returns.
struct Outcome {
  Result result;
  Error error;
  Outcome() = default;
  Outcome(Result r) : result(r) {}                   // NOLINT(google-explicit-constructor)
  Outcome(Error e) : error(std::move(e)) {}          // NOLINT(google-explicit-constructor)
  Outcome(Result r, Error e) : result(r), error(std::move(e)) {}
};

// AggregateResults: requeue is OR'ed, requeue_after is the smallest non-zero, priority the
// highest set.
Result aggregate_results(const Result& a, const Result& b) noexcept;
template <class... R>
Result aggregate_results(const Result& a, const Result& b, const R&... rest) noexcept {
  return aggregate_results(aggregate_results(a, b), rest...);
}

}  // namespace rr
