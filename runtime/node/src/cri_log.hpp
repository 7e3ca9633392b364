// Container logs in the CRI format the kubelet reads ("<RFC 3339 nano time> <stdout|stderr>
// <F|P> <text>" per line, P for a line cut at the buffer size), written by a pump thread per
// container run, and read back as pods/log serves them.
#pragma once
#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "rr/node/pod_logs.hpp"

namespace rr::node_detail {

std::string rfc3339_nano(std::chrono::system_clock::time_point t);

// Copies the two pipes into `file` until both close, then calls `done`. Owns the fds.
class LogPump {
 public:
  LogPump(int stdout_fd, int stderr_fd, const std::filesystem::path& file);
  ~LogPump();  // joins
  LogPump(const LogPump&) = delete;
  LogPump& operator=(const LogPump&) = delete;
  void join();

 private:
  std::thread thread_;
};

// A log file read as pods/log answers: since/tail/timestamps/limit; following while `live()`.
std::unique_ptr<node::PodLogStream> open_log_file(const std::filesystem::path& file, const node::PodLogOptions& options,
                                                  std::function<bool()> live);

}  // namespace rr::node_detail
