// run_until_signal() in a child process (this test binary re-run with --signal-child): SIGTERM
// stops it gracefully (exit 0); a runnable that will not stop makes it exit 1 after the grace
// period; a second signal exits at once with 1.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "rr/manager/signals.hpp"

extern char** environ;

namespace {

using namespace std::chrono_literals;

class Child {
 public:
  explicit Child(std::vector<std::string> arguments) {
    arguments.insert(arguments.begin(), {"/proc/self/exe", "--signal-child", "--metrics-bind-address=0",
                                         "--health-probe-bind-address=0"});
    int fds[2];
    REQUIRE(pipe2(fds, O_CLOEXEC) == 0);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    std::vector<char*> argv;
    for (auto& argument : arguments) argv.push_back(argument.data());
    argv.push_back(nullptr);
    const int spawned = posix_spawn(&pid_, "/proc/self/exe", &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(fds[1]);
    out_ = fds[0];
    REQUIRE(spawned == 0);
  }
  ~Child() {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    close(out_);
  }
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;

  // Reads stdout until `line` has been printed (or 10 s pass).
  bool wait_for_line(const std::string& line) {
    const auto deadline = std::chrono::steady_clock::now() + 10s;
    while (output_.find(line + "\n") == std::string::npos) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      if (left <= 0ms) return false;
      pollfd p{out_, POLLIN, 0};
      if (poll(&p, 1, static_cast<int>(left.count())) <= 0) return false;
      char buffer[256];
      const ssize_t got = read(out_, buffer, sizeof buffer);
      if (got <= 0) return false;
      output_.append(buffer, static_cast<std::size_t>(got));
    }
    return true;
  }
  void signal(int number) { kill(pid_, number); }
  // The exit status, or -1 when it has not exited within `timeout`.
  int exit_status(std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
      int status = 0;
      const pid_t done = waitpid(pid_, &status, WNOHANG);
      if (done == pid_) {
        pid_ = -1;
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      }
      if (std::chrono::steady_clock::now() >= deadline) return -1;
      std::this_thread::sleep_for(10ms);
    }
  }

 private:
  pid_t pid_ = -1;
  int out_ = -1;
  std::string output_;
};

}  // namespace

TEST_CASE("SIGTERM stops the manager gracefully: exit 0") {
  Child child({});
  REQUIRE(child.wait_for_line("started"));
  child.signal(SIGTERM);
  CHECK(child.wait_for_line("stop requested"));
  CHECK(child.exit_status(10s) == 0);
}

TEST_CASE("SIGINT does the same") {
  Child child({});
  REQUIRE(child.wait_for_line("started"));
  child.signal(SIGINT);
  CHECK(child.exit_status(10s) == 0);
}

TEST_CASE("a runnable that will not stop: exit 1 once the grace period is over") {
  Child child({"--graceful-shutdown-timeout=300ms", "--", "stubborn"});
  REQUIRE(child.wait_for_line("started"));
  const auto signalled = std::chrono::steady_clock::now();
  child.signal(SIGTERM);
  CHECK(child.exit_status(10s) == 1);
  CHECK(std::chrono::steady_clock::now() - signalled >= 300ms);
}

TEST_CASE("a second signal exits at once with 1") {
  Child child({"--graceful-shutdown-timeout=-1s", "--", "stubborn"});  // would wait for ever
  REQUIRE(child.wait_for_line("started"));
  child.signal(SIGTERM);
  REQUIRE(child.wait_for_line("stop requested"));
  CHECK(child.exit_status(300ms) == -1);  // still waiting for the stubborn runnable
  child.signal(SIGTERM);
  CHECK(child.exit_status(10s) == 1);
}

TEST_CASE("SignalStop: one at a time, handlers restored afterwards") {
  struct sigaction before {};
  sigaction(SIGTERM, nullptr, &before);
  {
    rr::SignalStop signals;
    CHECK_FALSE(signals.token().stop_requested());
    CHECK(signals.signal() == 0);
    CHECK_THROWS_AS(rr::SignalStop(), std::logic_error);
    struct sigaction during {};
    sigaction(SIGTERM, nullptr, &during);
    const bool replaced = during.sa_handler != before.sa_handler;
    CHECK(replaced);
  }
  struct sigaction after {};
  sigaction(SIGTERM, nullptr, &after);
  const bool restored = after.sa_handler == before.sa_handler;
  CHECK(restored);
}

TEST_CASE("SignalStop turns a signal into a stop request in this process") {
  rr::SignalStop signals;
  kill(getpid(), SIGINT);
  const auto deadline = std::chrono::steady_clock::now() + 5s;
  while (!signals.token().stop_requested() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(5ms);
  }
  CHECK(signals.token().stop_requested());
  CHECK(signals.signal() == SIGINT);
}
