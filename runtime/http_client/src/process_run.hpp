// Runs a program to completion with its stdout and stderr captured, its stdin /dev/null and a
// deadline, for credential plugins. posix_spawn, not fork: the HTTP client is multi-threaded, and
// a forked child of a threaded process may not allocate (or take any lock) before exec.
#pragma once
#include <chrono>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace rr::http_detail {

struct ProcessSpec {
  std::string command;                   // with a '/': that file; else looked up in $PATH
  std::vector<std::string> args;         // argv[1..]
  std::vector<std::string> environment;  // the whole environment, "NAME=value" each
  std::chrono::milliseconds timeout{60000};
  std::size_t max_output = 1 << 20;  // bytes kept of stdout and of stderr each; the rest is read and dropped
};

struct ProcessResult {
  bool timed_out = false;  // killed (with its process group) at the deadline
  int exit_code = -1;      // when it exited
  int signal = 0;          // when a signal ended it
  std::string out;
  std::string err;
  bool out_truncated = false;
  bool err_truncated = false;
};

// The program could not be started; errno_value is posix_spawn's (ENOENT, EACCES, ...).
class SpawnError : public std::runtime_error {
 public:
  SpawnError(const std::string& what, int errno_value) : std::runtime_error(what), errno_(errno_value) {}
  int errno_value() const noexcept { return errno_; }

 private:
  int errno_;
};

// Never returns before the child is reaped. Throws SpawnError, or std::system_error when a pipe
// cannot be made.
ProcessResult run_process(const ProcessSpec& spec);

}  // namespace rr::http_detail
