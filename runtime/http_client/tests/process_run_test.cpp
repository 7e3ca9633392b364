// run_process: output captured, exit codes and signals told apart, output bounded, the deadline
// kept (with the program's own children killed) and the child always reaped.
#include <doctest/doctest.h>

#include <sys/wait.h>

#include <cerrno>

#include "process_run.hpp"

using rr::http_detail::ProcessSpec;
using rr::http_detail::run_process;

namespace {

ProcessSpec bash(const std::string& script, std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
  return ProcessSpec{"bash", {"-c", script}, {"PATH=/usr/bin:/bin", "GREETING=hi"}, timeout};
}

// No child of this process is left to reap (every run_process reaped its own).
bool no_zombies() {
  int status = 0;
  return ::waitpid(-1, &status, WNOHANG) <= 0;
}

}  // namespace

TEST_CASE("run_process: stdout, stderr, the exit code, the environment, stdin empty") {
  const auto result = run_process(bash("echo \"$GREETING $0\"; echo oops >&2; read -r line; echo \"[$line]\"; exit 7"));
  CHECK_FALSE(result.timed_out);
  CHECK(result.exit_code == 7);
  CHECK(result.signal == 0);
  CHECK(result.out == "hi bash\n[]\n");
  CHECK(result.err == "oops\n");
  CHECK(no_zombies());
}

TEST_CASE("run_process: a signal, a missing program, output past the bound") {
  CHECK(run_process(bash("kill -TERM $$")).signal == SIGTERM);
  try {
    run_process(ProcessSpec{"/nonexistent/plugin", {}, {}, std::chrono::seconds(1)});
    FAIL("expected a SpawnError");
  } catch (const rr::http_detail::SpawnError& e) {
    CHECK(e.errno_value() == ENOENT);
  }
  ProcessSpec big = bash("head -c 100000 /dev/zero; echo done >&2");
  big.max_output = 1000;
  const auto result = run_process(big);
  CHECK(result.exit_code == 0);  // read to the end, not cut off by a broken pipe
  CHECK(result.out.size() == 1000);
  CHECK(result.out_truncated);
  CHECK(result.err == "done\n");
}

TEST_CASE("run_process: the deadline kills the program and what it started, and reaps it") {
  const auto start = std::chrono::steady_clock::now();
  // The background sleep keeps stdout open after bash is gone: only killing the group ends it.
  const auto result = run_process(bash("echo started; sleep 30 & sleep 30", std::chrono::milliseconds(300)));
  const auto took = std::chrono::steady_clock::now() - start;
  CHECK(result.timed_out);
  CHECK(result.out == "started\n");
  CHECK(took >= std::chrono::milliseconds(300));
  CHECK(took < std::chrono::seconds(5));
  CHECK(no_zombies());
}
