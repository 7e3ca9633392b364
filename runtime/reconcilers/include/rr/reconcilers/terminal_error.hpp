// Errors that retrying cannot fix: controller-runtime's reconcile.TerminalError. The controller
// (rr::Controller) logs such an error, counts it in controller_runtime_reconcile_errors_total and
// controller_runtime_terminal_reconcile_errors_total, and does not requeue the request: it comes
// back only with a new event for the object (a fixed spec, say).
//
//   if (!spec.valid()) return rr::terminal_error(rr::Error::make("spec.image is not a reference"));
//
// A header of its own so that only the code that needs it includes it.
#pragma once
#include "rr/reconcilers/error.hpp"

namespace rr {

// The sentinel: error.is(err_terminal()) tells a terminal error, wrapped or joined anywhere.
const Error& err_terminal();

// `cause` marked terminal (errors.Join of err_terminal() and the cause, so the cause's own
// sentinels and Status stay reachable); an empty cause gives err_terminal() itself.
Error terminal_error(const Error& cause);

}  // namespace rr
