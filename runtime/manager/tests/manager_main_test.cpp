// doctest's main, plus a child mode for the signal tests: run as
//   <test binary> --signal-child [manager flags] [-- stubborn]
// it runs a Manager with one runnable under run_until_signal() and exits with run's code. The
// runnable prints "started" once running and "stop requested" when asked to stop; a stubborn one
// then never returns.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

#include "rr/controller/runnable.hpp"
#include "rr/manager/json_log.hpp"
#include "rr/manager/manager.hpp"

namespace {

class ChildRunnable : public rr::Runnable {
 public:
  explicit ChildRunnable(bool stubborn) : stubborn_(stubborn) {}
  std::string name() const override { return "child"; }
  bool needs_leader_election() const override { return false; }
  void start(std::stop_token stop) override {
    say("started");
    std::mutex mutex;
    std::condition_variable_any cv;
    std::unique_lock lock(mutex);
    cv.wait(lock, stop, [] { return false; });
    say("stop requested");
    while (stubborn_) std::this_thread::sleep_for(std::chrono::seconds(1));
  }

 private:
  static void say(const char* line) {
    std::printf("%s\n", line);
    std::fflush(stdout);
  }
  bool stubborn_;
};

int signal_child(int argc, char** argv) {
  std::vector<std::string> arguments(argv, argv + argc);
  const rr::ManagerOptions options = rr::ManagerOptions::parse(arguments);
  const bool stubborn = !options.args.empty() && options.args.front() == "stubborn";
  rr::Manager manager(options, nullptr, rr::make_json_logger(stderr));
  manager.add(std::make_shared<ChildRunnable>(stubborn));
  const int code = manager.run_until_signal();
  // As run_operator(): a runnable still running after run() (a stubborn one never returns) would
  // hold ~Manager() up; the process exits at once instead.
  if (!manager.wait_for_runnables(std::chrono::seconds(0))) std::_Exit(code);
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 2 && std::strcmp(argv[1], "--signal-child") == 0) return signal_child(argc - 2, argv + 2);
  doctest::Context context(argc, argv);
  return context.run();
}
