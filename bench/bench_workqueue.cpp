// Work-queue throughput (rr::WorkQueue, client-go semantics): one item = add + get + done.
//   single thread   one thread adds a batch of distinct keys, then gets and finishes them all
//   2 workers       one producer thread adds distinct keys while 2 worker threads get and finish
// Keys are distinct so that every add is one processing (no dedup); they are built before the
// clock starts.
//
// Usage: bench_workqueue [--items N]   (default 1000000)
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "bench_util.hpp"
#include "rr/controller/work_queue.hpp"

namespace {

std::vector<rr::ObjectKey> make_keys(int n) {
  std::vector<rr::ObjectKey> keys;
  keys.reserve(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) keys.push_back({"ns-" + std::to_string(i % 100), "obj-" + std::to_string(i)});
  return keys;
}

void report(const char* label, int items, const bench::Times& t) {
  std::printf("%-16s %9d items  wall %7.3f s  cpu %7.3f s  %12s items/s (wall)\n", label, items, t.wall, t.cpu,
              bench::fmt("%.0f", items / t.wall).c_str());
}

bench::Times single_thread(const std::vector<rr::ObjectKey>& keys) {
  constexpr std::size_t kBatch = 1000;
  rr::WorkQueue q;
  bench::Stopwatch sw;
  for (std::size_t start = 0; start < keys.size(); start += kBatch) {
    const std::size_t end = std::min(keys.size(), start + kBatch);
    for (std::size_t i = start; i < end; ++i) q.add(keys[i]);
    for (std::size_t i = start; i < end; ++i) q.done(*q.get());
  }
  return sw.elapsed();
}

bench::Times two_workers(const std::vector<rr::ObjectKey>& keys) {
  rr::WorkQueue q;
  bench::Stopwatch sw;
  std::vector<std::thread> workers;
  for (int w = 0; w < 2; ++w) {
    workers.emplace_back([&] {
      while (auto key = q.get()) q.done(*key);
    });
  }
  for (const auto& key : keys) q.add(key);
  q.shut_down();  // workers still drain what is queued, then get() returns nullopt
  for (auto& t : workers) t.join();
  return sw.elapsed();
}

}  // namespace

int main(int argc, char** argv) {
  int items = 1000000;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--items") == 0 && i + 1 < argc) {
      items = std::atoi(argv[++i]);
    } else {
      std::fprintf(stderr, "usage: %s [--items N]\n", argv[0]);
      return 2;
    }
  }
  std::printf("bench_workqueue (%s, %s): one item = add + get + done, distinct keys\n", RRGEN_BENCH_BUILD_TYPE,
              bench::compiler_name());
  const auto keys = make_keys(items);
  report("single thread", items, single_thread(keys));
  report("1 prod+2 workers", items, two_workers(keys));
  return 0;
}
