#include "rr/reconcilers/terminal_error.hpp"

namespace rr {

const Error& err_terminal() {
  static const Error e = Error::make("terminal error");
  return e;
}

Error terminal_error(const Error& cause) {
  if (!cause) return err_terminal();
  return Error::join({err_terminal(), cause});
}

}  // namespace rr
