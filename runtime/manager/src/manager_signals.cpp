// Signal handling with the self-pipe trick: the handler only counts and writes one byte (both
// async-signal-safe); a watcher thread turns the byte into a stop request and a log line.
#include "rr/manager/signals.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>
#include <thread>

namespace rr {
namespace {

constexpr unsigned char kQuit = 0;  // written by the destructor to end the watcher

std::atomic<int> g_write_fd{-1};
std::atomic<int> g_signals_seen{0};
std::atomic<bool> g_installed{false};

extern "C" void on_stop_signal(int signal_number) {
  if (g_signals_seen.fetch_add(1) > 0) _exit(1);  // second signal: exit directly
  const int saved_errno = errno;
  const unsigned char byte = static_cast<unsigned char>(signal_number);
  const int fd = g_write_fd.load();
  if (fd >= 0) {
    const ssize_t written = write(fd, &byte, 1);
    (void)written;  // nothing useful to do from a handler if the pipe is full
  }
  errno = saved_errno;
}

}  // namespace

struct SignalStop::State {
  Logger log;
  std::stop_source stop;
  std::atomic<int> signal{0};
  int pipe_fds[2] = {-1, -1};
  struct sigaction previous_int {};
  struct sigaction previous_term {};
  std::thread watcher;
};

SignalStop::SignalStop(Logger log) : state_(std::make_unique<State>()) {
  if (g_installed.exchange(true)) throw std::logic_error("rr::SignalStop: signal handlers are already installed");
  state_->log = std::move(log);
  if (pipe2(state_->pipe_fds, O_CLOEXEC) != 0) {
    g_installed = false;
    throw std::runtime_error(std::string("rr::SignalStop: pipe: ") + std::strerror(errno));
  }
  g_signals_seen = 0;
  g_write_fd = state_->pipe_fds[1];

  State* state = state_.get();
  state->watcher = std::thread([state] {
    for (;;) {
      unsigned char byte = 0;
      const ssize_t got = read(state->pipe_fds[0], &byte, 1);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0 || byte == kQuit) return;
      state->signal = byte;
      state->log.with("signal", byte == SIGINT ? "SIGINT" : byte == SIGTERM ? "SIGTERM" : std::to_string(byte))
          .info("received signal, stopping (a second signal exits at once)");
      state->stop.request_stop();
    }
  });

  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  sigaction(SIGINT, &action, &state_->previous_int);
  sigaction(SIGTERM, &action, &state_->previous_term);
}

SignalStop::~SignalStop() {
  sigaction(SIGINT, &state_->previous_int, nullptr);
  sigaction(SIGTERM, &state_->previous_term, nullptr);
  g_write_fd = -1;
  const unsigned char quit = kQuit;
  while (write(state_->pipe_fds[1], &quit, 1) < 0 && errno == EINTR) {
  }
  state_->watcher.join();
  close(state_->pipe_fds[0]);
  close(state_->pipe_fds[1]);
  g_installed = false;
}

std::stop_token SignalStop::token() const { return state_->stop.get_token(); }

int SignalStop::signal() const { return state_->signal.load(); }

}  // namespace rr
