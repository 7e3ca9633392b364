// AggregateResults (reconciler.io reconcilers.go): requeue is OR'ed, requeue_after is the
// smallest non-zero delay; the priority (ours) the highest one set.
#include <algorithm>

#include "rr/reconcilers/result.hpp"

namespace rr {

Result aggregate_results(const Result& a, const Result& b) noexcept {
  Result out;
  out.requeue = a.requeue || b.requeue;
  const auto zero = std::chrono::nanoseconds::zero();
  if (a.requeue_after == zero) {
    out.requeue_after = b.requeue_after;
  } else if (b.requeue_after == zero) {
    out.requeue_after = a.requeue_after;
  } else {
    out.requeue_after = std::min(a.requeue_after, b.requeue_after);
  }
  if (a.priority && b.priority) {
    out.priority = std::max(*a.priority, *b.priority);
  } else {
    out.priority = a.priority ? a.priority : b.priority;
  }
  return out;
}

}  // namespace rr
