#include "cri_log.hpp"

#include <poll.h>
#include <unistd.h>

#include <cstdio>
#include <ctime>
#include <deque>
#include <fstream>

#include "rr/core/time.hpp"

namespace rr::node_detail {

std::string rfc3339_nano(std::chrono::system_clock::time_point t) {
  const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
  const std::time_t seconds = static_cast<std::time_t>(ns / 1000000000);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%04d-%02d-%02dT%02d:%02d:%02d.%09lldZ", tm.tm_year + 1900, tm.tm_mon + 1,
                tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<long long>(ns % 1000000000));
  return buffer;
}

namespace {

std::chrono::system_clock::time_point parse_time(const std::string& text) {
  return Time(text).time_point().value_or(std::chrono::system_clock::time_point{});
}

constexpr std::size_t max_line = 16 * 1024;  // the kubelet's CRI line cut

}  // namespace

LogPump::LogPump(int stdout_fd, int stderr_fd, const std::filesystem::path& file) {
  thread_ = std::thread([stdout_fd, stderr_fd, file] {
    std::ofstream out(file, std::ios::app | std::ios::binary);
    std::string pending[2];
    pollfd fds[2] = {{stdout_fd, POLLIN, 0}, {stderr_fd, POLLIN, 0}};
    const char* names[2] = {"stdout", "stderr"};
    auto emit = [&](int i, std::string_view line, bool partial) {
      out << rfc3339_nano(std::chrono::system_clock::now()) << ' ' << names[i] << ' ' << (partial ? 'P' : 'F') << ' '
          << line << '\n';
    };
    int open = 2;
    char buffer[8192];
    while (open > 0) {
      if (::poll(fds, 2, -1) < 0) continue;
      for (int i = 0; i < 2; ++i) {
        if (fds[i].fd < 0 || fds[i].revents == 0) continue;
        const ssize_t n = ::read(fds[i].fd, buffer, sizeof buffer);
        if (n <= 0) {
          if (!pending[i].empty()) emit(i, pending[i], true);
          pending[i].clear();
          ::close(fds[i].fd);
          fds[i].fd = -1;
          --open;
          continue;
        }
        pending[i].append(buffer, static_cast<std::size_t>(n));
        for (std::size_t nl; (nl = pending[i].find('\n')) != std::string::npos;) {
          emit(i, std::string_view(pending[i]).substr(0, nl), false);
          pending[i].erase(0, nl + 1);
        }
        while (pending[i].size() >= max_line) {
          emit(i, std::string_view(pending[i]).substr(0, max_line), true);
          pending[i].erase(0, max_line);
        }
      }
      out.flush();
    }
  });
}

LogPump::~LogPump() { join(); }

void LogPump::join() {
  if (thread_.joinable()) thread_.join();
}

namespace {

class FileLogStream : public node::PodLogStream {
 public:
  FileLogStream(const std::filesystem::path& file, const node::PodLogOptions& options, std::function<bool()> live)
      : in_(file, std::ios::binary), options_(options), live_(std::move(live)) {
    if (options.since_seconds) since_ = std::chrono::system_clock::now() - std::chrono::seconds(*options.since_seconds);
    // The first read honours tailLines over what is written so far.
    std::deque<std::string> lines;
    for (std::string line; read_line(line);) {
      auto formatted = format(line);
      if (!formatted) continue;
      lines.push_back(std::move(*formatted));
      if (options.tail_lines && static_cast<std::int64_t>(lines.size()) > *options.tail_lines) lines.pop_front();
    }
    for (auto& l : lines) first_ += l;
  }

  bool next(std::string& out, std::chrono::milliseconds wait) override {
    if (!first_sent_) {
      first_sent_ = true;
      return append(out, first_) && (options_.follow || false);
    }
    if (!options_.follow) return false;
    const auto deadline = std::chrono::steady_clock::now() + wait;
    do {
      const bool was_live = live_ && live_();
      std::string chunk;
      for (std::string line; read_line(line);) {
        if (auto f = format(line)) chunk += *f;
      }
      if (!chunk.empty()) return append(out, chunk);
      if (!was_live) return false;  // read to the end after the container stopped
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    } while (std::chrono::steady_clock::now() < deadline);
    return true;
  }

 private:
  // A complete line of the file (a line still being written waits for its newline).
  bool read_line(std::string& line) {
    if (!in_) {
      in_.clear();
    }
    const auto at = in_.tellg();
    if (!std::getline(in_, line) || in_.eof()) {
      in_.clear();
      if (at >= 0) in_.seekg(at);
      return false;
    }
    return true;
  }

  std::optional<std::string> format(const std::string& line) {
    const auto s1 = line.find(' ');
    const auto s2 = s1 == std::string::npos ? s1 : line.find(' ', s1 + 1);
    const auto s3 = s2 == std::string::npos ? s2 : line.find(' ', s2 + 1);
    if (s3 == std::string::npos) return std::nullopt;
    const std::string time = line.substr(0, s1);
    if (since_ && parse_time(time) < *since_) return std::nullopt;
    const bool partial = line.substr(s2 + 1, s3 - s2 - 1) == "P";
    std::string text = line.substr(s3 + 1);
    std::string out;
    if (options_.timestamps && !in_partial_) out = time + " ";
    out += text;
    in_partial_ = partial;
    if (!partial) out += '\n';
    return out;
  }

  bool append(std::string& out, const std::string& text) {
    if (options_.limit_bytes) {
      const auto room = *options_.limit_bytes - static_cast<std::int64_t>(sent_);
      if (room <= 0) return false;
      const std::string cut = text.substr(
          0, static_cast<std::size_t>(std::min<std::int64_t>(room, static_cast<std::int64_t>(text.size()))));
      out += cut;
      sent_ += cut.size();
      return static_cast<std::int64_t>(sent_) < *options_.limit_bytes;
    }
    out += text;
    sent_ += text.size();
    return true;
  }

  std::ifstream in_;
  node::PodLogOptions options_;
  std::function<bool()> live_;
  std::optional<std::chrono::system_clock::time_point> since_;
  std::string first_;
  bool first_sent_ = false;
  bool in_partial_ = false;
  std::size_t sent_ = 0;
};

}  // namespace

std::unique_ptr<node::PodLogStream> open_log_file(const std::filesystem::path& file, const node::PodLogOptions& options,
                                                  std::function<bool()> live) {
  return std::make_unique<FileLogStream>(file, options, std::move(live));
}

}  // namespace rr::node_detail
