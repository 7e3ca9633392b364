// The reconcile's stop token, for hooks that wait (std::condition_variable_any::wait with a
// token, std::stop_callback) rather than poll Context::cancelled(). A header of its own, so that
// the units that do not wait do not parse <stop_token>: rr/reconcilers/context.hpp carries the
// token behind a pointer to ReconcileStop.
#pragma once
#include <memory>
#include <stop_token>

#include "rr/reconcilers/context.hpp"

namespace rr {

struct ReconcileStop {
  std::stop_token token;
};

// For ContextOptions::stop / RequestOptions::stop.
std::shared_ptr<const ReconcileStop> make_reconcile_stop(std::stop_token token);

// Fires when the controller stops or the reconcile's timeout ends
// (ControllerOptions::reconcile_timeout); a token that never fires without either.
std::stop_token stop_token_of(const Context& ctx);

}  // namespace rr
