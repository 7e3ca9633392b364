// The process collector: /proc parsing on fixed texts, and this process's own plausible values.
#include <doctest/doctest.h>

#include <chrono>
#include <sstream>
#include <string>

#include "rr/controller/process_metrics.hpp"

using rr::metrics::ProcessMetrics;
using rr::metrics::Registry;

namespace {

// The value of an unlabelled sample line `name value`.
double sample(const std::string& text, const std::string& name) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with(name + " ")) return std::stod(line.substr(name.size() + 1));
  }
  FAIL("no sample " << name);
  return 0;
}

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

}  // namespace

TEST_CASE("process metrics: /proc/self/stat, /proc/stat and /proc/self/limits parsed as procfs does") {
  // comm with a space and a ')' in it; utime 250 and stime 50 ticks, starttime 1000 ticks,
  // vsize 123456789 bytes, rss 300 pages.
  const std::string self_stat =
      "4242 (my op) x) S 1 4242 4242 0 -1 4194560 1000 0 0 0 250 50 0 0 20 0 8 0 1000 123456789 300 "
      "18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n";
  const std::string system_stat = "cpu  1 2 3 4\nintr 5\nbtime 1700000000\nprocesses 9\n";
  const auto stat = rr::metrics::parse_proc_stat(self_stat, system_stat, 100, 4096);
  REQUIRE(stat);
  CHECK(stat->cpu_seconds == 3.0);
  CHECK(stat->virtual_bytes == 123456789.0);
  CHECK(stat->resident_bytes == 300.0 * 4096);
  CHECK(stat->start_time_seconds == 1700000010.0);
  CHECK_FALSE(rr::metrics::parse_proc_stat(self_stat, "cpu 1\n", 100, 4096));  // no btime
  CHECK_FALSE(rr::metrics::parse_proc_stat("4242 (op) S 1 2", system_stat, 100, 4096));

  const std::string limits = "Limit                     Soft Limit           Hard Limit           Units     \n"
                             "Max cpu time              unlimited            unlimited            seconds   \n"
                             "Max open files            1024                 1048576              files     \n"
                             "Max address space         unlimited            unlimited            bytes     \n";
  const auto parsed = rr::metrics::parse_proc_limits(limits);
  REQUIRE(parsed);
  CHECK(parsed->max_fds == 1024.0);
  CHECK(parsed->virtual_max_bytes == 18446744073709551615.0);
  CHECK_FALSE(rr::metrics::parse_proc_limits("Limit Soft Limit\n"));
}

TEST_CASE("process metrics: the Go client's families, with this process's plausible values") {
  Registry registry;
  ProcessMetrics process(registry);
  process.collect();
  const std::string text = registry.expose();
  for (const char* counter : {"process_cpu_seconds_total"}) {
    CHECK(text.find(std::string("# TYPE ") + counter + " counter\n") != std::string::npos);
  }
  for (const char* gauge :
       {"process_open_fds", "process_max_fds", "process_virtual_memory_bytes", "process_virtual_memory_max_bytes",
        "process_resident_memory_bytes", "process_start_time_seconds"}) {
    CHECK(text.find(std::string("# TYPE ") + gauge + " gauge\n") != std::string::npos);
  }
  CHECK(text.find("# HELP process_cpu_seconds_total Total user and system CPU time spent in seconds.\n") !=
        std::string::npos);
  CHECK(text.find("# HELP process_start_time_seconds Start time of the process since unix epoch in seconds.\n") !=
        std::string::npos);

  const double start = sample(text, "process_start_time_seconds");
  CHECK(start <= now_seconds() + 1);
  CHECK(start >= now_seconds() - 3600);
  CHECK(sample(text, "process_resident_memory_bytes") > 0);
  CHECK(sample(text, "process_virtual_memory_bytes") >= sample(text, "process_resident_memory_bytes"));
  CHECK(sample(text, "process_open_fds") >= 3);
  CHECK(sample(text, "process_max_fds") >= sample(text, "process_open_fds"));
  CHECK(sample(text, "process_virtual_memory_max_bytes") > 0);
  CHECK(sample(text, "process_cpu_seconds_total") >= 0);

  // CPU time only goes up between scrapes.
  volatile double spin = 0;
  for (int i = 0; i < 20000000; ++i) spin = spin + 1;
  process.collect();
  const double later = sample(registry.expose(), "process_cpu_seconds_total");
  CHECK(later >= sample(text, "process_cpu_seconds_total"));
  CHECK(later > 0);
}
