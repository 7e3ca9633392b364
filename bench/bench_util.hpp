// Small helpers shared by the benchmark programs: wall and CPU clocks, formatting.
// CPU time is what we compare on a shared machine: wall time depends on what else is running.
#pragma once
#include <sys/resource.h>
#include <sys/time.h>

#include <chrono>
#include <cstdio>
#include <string>

namespace bench {

inline double seconds(const timeval& tv) { return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) * 1e-6; }

// User + system CPU seconds of this process so far (getrusage).
inline double cpu_now() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return seconds(ru.ru_utime) + seconds(ru.ru_stime);
}

inline double wall_now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Peak resident set of this process, in MB.
inline double self_peak_rss_mb() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<double>(ru.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB on Linux
}

struct Times {
  double wall = 0, cpu = 0;
  Times& operator+=(const Times& o) {
    wall += o.wall;
    cpu += o.cpu;
    return *this;
  }
};

// Measures a region: Stopwatch sw; ...; Times t = sw.elapsed();
class Stopwatch {
 public:
  Stopwatch() : wall0_(wall_now()), cpu0_(cpu_now()) {}
  Times elapsed() const { return {wall_now() - wall0_, cpu_now() - cpu0_}; }

 private:
  double wall0_, cpu0_;
};

inline constexpr double kMB = 1024.0 * 1024.0;

inline std::string fmt(const char* format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

inline const char* compiler_name() {
#if defined(__clang__)
  return "clang++ " __clang_version__;
#elif defined(__GNUC__)
  return "g++ " __VERSION__;
#else
  return "unknown compiler";
#endif
}

}  // namespace bench
