// The Go client's process collector on Linux (client_golang process_collector.go over
// prometheus/procfs): the same /proc files, names and help texts.
#include "rr/controller/process_metrics.hpp"

#include <unistd.h>

#include <charconv>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

namespace rr::metrics {
namespace {

std::string read_file(const char* path) {
  std::ifstream file(path);
  if (!file) return {};
  return std::string(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
}

std::vector<std::string_view> fields(std::string_view text) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n')) ++i;
    const std::size_t start = i;
    while (i < text.size() && text[i] != ' ' && text[i] != '\t' && text[i] != '\n') ++i;
    if (i > start) out.push_back(text.substr(start, i - start));
  }
  return out;
}

std::optional<double> number(std::string_view text) {
  unsigned long long value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return static_cast<double>(value);
}

// A limit's soft value; "unlimited" is what procfs makes of it, the largest uint64.
std::optional<double> limit(std::string_view text) {
  if (text == "unlimited") return 18446744073709551615.0;
  return number(text);
}

std::optional<double> boot_time(std::string_view system_stat) {
  const std::vector<std::string_view> words = fields(system_stat);
  for (std::size_t i = 0; i + 1 < words.size(); ++i) {
    if (words[i] == "btime") return number(words[i + 1]);
  }
  return std::nullopt;
}

}  // namespace

std::optional<ProcessStats::Stat> parse_proc_stat(std::string_view self_stat, std::string_view system_stat,
                                                  double ticks_per_second, double page_size) {
  // "pid (comm) state ppid …": comm may hold spaces and ')', so the fields start after the last ')'.
  const std::size_t paren = self_stat.rfind(')');
  if (paren == std::string_view::npos || ticks_per_second <= 0) return std::nullopt;
  const std::vector<std::string_view> f = fields(self_stat.substr(paren + 1));
  // f[0] is field 3 (state): utime 14, stime 15, starttime 22, vsize 23, rss 24.
  if (f.size() < 22) return std::nullopt;
  const auto utime = number(f[11]);
  const auto stime = number(f[12]);
  const auto start = number(f[19]);
  const auto vsize = number(f[20]);
  const auto rss = number(f[21]);
  const auto boot = boot_time(system_stat);
  if (!utime || !stime || !start || !vsize || !rss || !boot) return std::nullopt;
  ProcessStats::Stat stat;
  stat.cpu_seconds = (*utime + *stime) / ticks_per_second;
  stat.virtual_bytes = *vsize;
  stat.resident_bytes = *rss * page_size;
  stat.start_time_seconds = *boot + *start / ticks_per_second;
  return stat;
}

std::optional<ProcessStats::Limits> parse_proc_limits(std::string_view self_limits) {
  // "Limit  Soft Limit  Hard Limit  Units" columns; names have spaces, so match the line's start.
  std::optional<double> open_files;
  std::optional<double> address_space;
  std::istringstream lines{std::string(self_limits)};
  for (std::string line; std::getline(lines, line);) {
    const std::string_view view = line;
    for (const auto& [name, out] : {std::pair{std::string_view("Max open files"), &open_files},
                                    std::pair{std::string_view("Max address space"), &address_space}}) {
      if (!view.starts_with(name)) continue;
      const std::vector<std::string_view> values = fields(view.substr(name.size()));
      if (!values.empty()) *out = limit(values[0]);
    }
  }
  if (!open_files || !address_space) return std::nullopt;
  return ProcessStats::Limits{*open_files, *address_space};
}

ProcessStats read_process_stats() {
  ProcessStats stats;
  stats.stat = parse_proc_stat(read_file("/proc/self/stat"), read_file("/proc/stat"),
                               static_cast<double>(sysconf(_SC_CLK_TCK)), static_cast<double>(sysconf(_SC_PAGESIZE)));
  std::error_code error;
  std::filesystem::directory_iterator fds("/proc/self/fd", error);
  if (!error) {
    double count = 0;
    for (const auto end = std::filesystem::directory_iterator(); fds != end; fds.increment(error)) {
      if (error) break;
      ++count;
    }
    if (!error) stats.open_fds = count;
  }
  stats.limits = parse_proc_limits(read_file("/proc/self/limits"));
  return stats;
}

ProcessMetrics::ProcessMetrics(Registry& registry)
    : cpu_seconds_(
          registry.counter("process_cpu_seconds_total", "Total user and system CPU time spent in seconds.").with({})),
      open_fds_(registry.gauge("process_open_fds", "Number of open file descriptors.").with({})),
      max_fds_(registry.gauge("process_max_fds", "Maximum number of open file descriptors.").with({})),
      virtual_bytes_(registry.gauge("process_virtual_memory_bytes", "Virtual memory size in bytes.").with({})),
      virtual_max_bytes_(
          registry.gauge("process_virtual_memory_max_bytes", "Maximum amount of virtual memory available in bytes.")
              .with({})),
      resident_bytes_(registry.gauge("process_resident_memory_bytes", "Resident memory size in bytes.").with({})),
      start_time_seconds_(
          registry.gauge("process_start_time_seconds", "Start time of the process since unix epoch in seconds.")
              .with({})) {}

void ProcessMetrics::collect() {
  ProcessStats stats;
  try {
    stats = read_process_stats();
  } catch (...) {
    return;  // as the Go collector without ReportErrors: a failed read leaves the values be
  }
  const std::lock_guard lock(mutex_);
  if (stats.stat) {
    // The counter only goes up: add what the kernel counted since the last scrape.
    if (stats.stat->cpu_seconds > cpu_seconds_.value())
      cpu_seconds_.inc(stats.stat->cpu_seconds - cpu_seconds_.value());
    virtual_bytes_.set(stats.stat->virtual_bytes);
    resident_bytes_.set(stats.stat->resident_bytes);
    start_time_seconds_.set(stats.stat->start_time_seconds);
  }
  if (stats.open_fds) open_fds_.set(*stats.open_fds);
  if (stats.limits) {
    max_fds_.set(stats.limits->max_fds);
    virtual_max_bytes_.set(stats.limits->virtual_max_bytes);
  }
}

}  // namespace rr::metrics
