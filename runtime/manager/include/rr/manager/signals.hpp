// SIGINT/SIGTERM → a stop request, as controller-runtime's SetupSignalHandler: the first signal
// requests a graceful stop; a second one exits the process at once with status 1.
#pragma once
#include <memory>
#include <stop_token>

#include "rr/reconcilers/logger.hpp"

namespace rr {

class SignalStop {
 public:
  // Installs the handlers (restored by the destructor). One instance at a time per process:
  // a second throws std::logic_error.
  explicit SignalStop(Logger log = {});
  ~SignalStop();
  SignalStop(const SignalStop&) = delete;
  SignalStop& operator=(const SignalStop&) = delete;

  // Stopped by the first SIGINT or SIGTERM.
  std::stop_token token() const;
  // The signal that requested the stop, 0 while none has.
  int signal() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace rr
