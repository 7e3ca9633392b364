// The process_* families of the Prometheus Go client's process collector, read from /proc/self
// at scrape time (the manager calls collect() before each /metrics answer). Same names, types and
// help texts as client_golang on Linux, so dashboards built for Go operators show them unchanged.
// See docs/runtime/18-metrics.md.
#pragma once
#include <mutex>
#include <optional>
#include <string_view>

#include "rr/controller/metrics.hpp"

namespace rr::metrics {

// What the collector reads; each part is missing when its /proc file could not be read or parsed.
struct ProcessStats {
  struct Stat {
    double cpu_seconds = 0;         // utime + stime
    double virtual_bytes = 0;       // vsize
    double resident_bytes = 0;      // rss pages × page size
    double start_time_seconds = 0;  // boot time + starttime, since the Unix epoch
  };
  struct Limits {
    double max_fds = 0;            // soft "Max open files"
    double virtual_max_bytes = 0;  // soft "Max address space"; unlimited is 2^64 - 1, as procfs reads it
  };
  std::optional<Stat> stat;
  std::optional<double> open_fds;
  std::optional<Limits> limits;
};

// Parsers of the /proc texts (public for the tests). `ticks_per_second` is sysconf(_SC_CLK_TCK).
std::optional<ProcessStats::Stat> parse_proc_stat(std::string_view self_stat, std::string_view system_stat,
                                                  double ticks_per_second, double page_size);
std::optional<ProcessStats::Limits> parse_proc_limits(std::string_view self_limits);

// /proc/self/stat, /proc/stat (btime), /proc/self/fd and /proc/self/limits, now.
ProcessStats read_process_stats();

class ProcessMetrics {
 public:
  // Registers the families; they read 0 until the first collect().
  explicit ProcessMetrics(Registry& registry);
  // Reads /proc and updates every family it could read (the others keep their last value, as the
  // Go collector leaves out what it cannot read). Never throws; safe from concurrent scrapes.
  void collect();

 private:
  std::mutex mutex_;
  Counter& cpu_seconds_;
  Gauge& open_fds_;
  Gauge& max_fds_;
  Gauge& virtual_bytes_;
  Gauge& virtual_max_bytes_;
  Gauge& resident_bytes_;
  Gauge& start_time_seconds_;
};

}  // namespace rr::metrics
