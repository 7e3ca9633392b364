#include "process_run.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <system_error>
#include <thread>

namespace rr::http_detail {
namespace {

using process_clock = std::chrono::steady_clock;

struct Fd {
  int fd = -1;
  Fd() = default;
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() { close_now(); }
  void close_now() {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }
};

// O_CLOEXEC, so a plugin spawned by another thread at the same time does not inherit this pipe
// (and keep it open past this child's exit).
void make_pipe(Fd& read_end, Fd& write_end) {
  std::array<int, 2> fds{};
  if (::pipe2(fds.data(), O_CLOEXEC) != 0) throw std::system_error(errno, std::generic_category(), "pipe2");
  read_end.fd = fds[0];
  write_end.fd = fds[1];
}

struct SpawnSetup {
  posix_spawn_file_actions_t actions{};
  posix_spawnattr_t attr{};
  SpawnSetup() {
    posix_spawn_file_actions_init(&actions);
    posix_spawnattr_init(&attr);
  }
  ~SpawnSetup() {
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
  }
  SpawnSetup(const SpawnSetup&) = delete;
  SpawnSetup& operator=(const SpawnSetup&) = delete;
};

std::vector<char*> c_strings(std::vector<std::string>& strings) {
  std::vector<char*> out;
  out.reserve(strings.size() + 1);
  for (auto& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

// Reads what is there; false at end of file (or an error).
bool read_some(int fd, std::string& into, std::size_t max, bool& truncated) {
  std::array<char, 4096> buffer{};
  const ssize_t n = ::read(fd, buffer.data(), buffer.size());
  if (n < 0) return errno == EINTR || errno == EAGAIN;
  if (n == 0) return false;
  const auto count = static_cast<std::size_t>(n);
  const std::size_t room = into.size() < max ? max - into.size() : 0;
  into.append(buffer.data(), std::min(room, count));
  if (count > room) truncated = true;
  return true;
}

int remaining_ms(process_clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - process_clock::now()).count();
  return left <= 0 ? 0 : static_cast<int>(std::min<long long>(left, 1000));
}

// Both pipes until end of file or the deadline; false when the deadline came first.
bool drain(Fd& out, Fd& err, const ProcessSpec& spec, ProcessResult& result, process_clock::time_point deadline) {
  while (out.fd >= 0 || err.fd >= 0) {
    if (process_clock::now() >= deadline) return false;
    std::array<pollfd, 2> fds{{{out.fd, POLLIN, 0}, {err.fd, POLLIN, 0}}};  // poll ignores fd -1
    const int ready = ::poll(fds.data(), fds.size(), remaining_ms(deadline));
    if (ready < 0 && errno != EINTR) return false;
    if (ready <= 0) continue;
    if (fds[0].revents != 0 && !read_some(out.fd, result.out, spec.max_output, result.out_truncated)) out.close_now();
    if (fds[1].revents != 0 && !read_some(err.fd, result.err, spec.max_output, result.err_truncated)) err.close_now();
  }
  return true;
}

// waitpid until the deadline; false when it has not exited by then.
bool wait_until(pid_t pid, int& status, process_clock::time_point deadline) {
  while (true) {
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid || (done < 0 && errno != EINTR)) return true;
    if (process_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

}  // namespace

ProcessResult run_process(const ProcessSpec& spec) {
  Fd out_read, out_write, err_read, err_write;
  make_pipe(out_read, out_write);
  make_pipe(err_read, err_write);

  SpawnSetup setup;
  posix_spawn_file_actions_addopen(&setup.actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&setup.actions, out_write.fd, 1);
  posix_spawn_file_actions_adddup2(&setup.actions, err_write.fd, 2);
  // Its own process group, so a timeout kills whatever it started too; default signal
  // dispositions and an empty mask, whatever the operator set for itself.
  sigset_t none;
  sigset_t all;
  sigemptyset(&none);
  sigfillset(&all);
  posix_spawnattr_setsigmask(&setup.attr, &none);
  posix_spawnattr_setsigdefault(&setup.attr, &all);
  posix_spawnattr_setpgroup(&setup.attr, 0);
  posix_spawnattr_setflags(&setup.attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP);

  std::vector<std::string> argv_strings{spec.command};
  argv_strings.insert(argv_strings.end(), spec.args.begin(), spec.args.end());
  std::vector<std::string> env_strings = spec.environment;
  const auto argv = c_strings(argv_strings);
  const auto envp = c_strings(env_strings);

  pid_t pid = 0;
  // posix_spawnp searches the operator's $PATH (as Go's exec.LookPath does) and uses a command
  // with a '/' as it is.
  const int spawn_errno = ::posix_spawnp(&pid, spec.command.c_str(), &setup.actions, &setup.attr, argv.data(),
                                         envp.data());
  if (spawn_errno != 0) throw SpawnError(std::strerror(spawn_errno), spawn_errno);
  out_write.close_now();  // the child has its copies; end of file comes when it closes them
  err_write.close_now();

  ProcessResult result;
  const auto deadline = process_clock::now() + spec.timeout;
  int status = 0;
  if (!drain(out_read, err_read, spec, result, deadline) || !wait_until(pid, status, deadline)) {
    result.timed_out = true;
    ::kill(-pid, SIGKILL);
    ::kill(pid, SIGKILL);
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return result;
  }
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  else if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  return result;
}

}  // namespace rr::http_detail
