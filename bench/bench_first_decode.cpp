// The one-off cost a process pays before its first strict decode of a built-in kind
// (docs/benchmarks.md): rr::manifest_check's Checker (rr::OfflineAdmission: the local cluster's
// registration, whose first namespace write decodes against the API facts), then the first and a
// later strict check of a Pod, each in CPU ms, with the resident set they add. Run it as its own
// process: the costs are paid once per process.
//
//   bench_first_decode
#include <cstdio>
#include <fstream>
#include <string>

#include "bench_util.hpp"
#include "rr/manifest_check/checker.hpp"

namespace {

// VmRSS of this process now, in MB (/proc/self/status).
double rss_mb() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stod(line.substr(6)) / 1024.0;
  }
  return 0;
}

const char* pod =
    "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: c\n    image: nginx\n";

}  // namespace

int main() {
  using rr::manifest_check::Checker;
  const double rss0 = rss_mb();
  bench::Stopwatch setup;
  Checker checker(/*strict=*/true);
  const bench::Times setup_time = setup.elapsed();
  const double rss1 = rss_mb();

  const auto doc = rr::manifest_check::read_manifests(pod, false).documents.at(0);
  bench::Stopwatch first;
  const auto outcome = checker.check("pod.yaml", doc);
  const bench::Times first_time = first.elapsed();
  const double rss2 = rss_mb();
  bench::Stopwatch later;
  (void)checker.check("pod.yaml", doc);
  const bench::Times later_time = later.elapsed();

  std::printf("bench_first_decode (%s build, %s)\n", RRGEN_BENCH_BUILD_TYPE, bench::compiler_name());
  std::printf("  %-40s %8.1f CPU ms %8.1f wall ms  +%.1f MB RSS\n", "checker (registration, first decode)",
              setup_time.cpu * 1e3, setup_time.wall * 1e3, rss1 - rss0);
  std::printf("  %-40s %8.1f CPU ms %8.1f wall ms  +%.1f MB RSS (%s)\n", "first strict check of a Pod",
              first_time.cpu * 1e3, first_time.wall * 1e3, rss2 - rss1, outcome.refusal ? "refused" : "admitted");
  std::printf("  %-40s %8.1f CPU ms %8.1f wall ms\n", "a later check of the same Pod", later_time.cpu * 1e3,
              later_time.wall * 1e3);
  std::printf("  peak RSS %.1f MB\n", bench::self_peak_rss_mb());
  return 0;
}
