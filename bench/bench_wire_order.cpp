// bench_wire_order: what writing a response in the API server's member order costs
// (rr::wire_order::dump) beside rr::Json::dump(), which the local cluster used before. Cases: one
// Pod (a Deployment's pod template with metadata and a status, 1.5 KB of JSON), a PodList of 500
// of them, and a custom resource of the same size (written alphabetically, the pass-through path).
// Each case loops until --min-time CPU seconds have passed, --rounds times; the best round is
// printed as microseconds per document and MB/s of output.
//
// usage: bench_wire_order [--min-time S] [--rounds N]
// Figures are printed; nothing is asserted.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>

#include "bench_objects.hpp"
#include "bench_util.hpp"
#include "rr/wire_order/go_order.hpp"

#ifndef RRGEN_BENCH_BUILD_TYPE
#define RRGEN_BENCH_BUILD_TYPE "unknown"
#endif

namespace {

rr::Json realistic_pod(int i) {
  const rr::Json deployment = bench::realistic_deployment(i);
  rr::Json pod{{"apiVersion", "v1"}, {"kind", "Pod"}};
  pod["metadata"] = deployment["spec"]["template"]["metadata"];
  pod["metadata"]["name"] = "web-" + std::to_string(i) + "-5d8f7c9b4-x2x7q";
  pod["metadata"]["namespace"] = "default";
  pod["metadata"]["uid"] = "0b0d2d6e-3c55-4f6e-9a55-" + std::to_string(100000000000 + i);
  pod["metadata"]["resourceVersion"] = std::to_string(1000 + i);
  pod["metadata"]["creationTimestamp"] = "2026-01-01T00:00:00Z";
  pod["metadata"]["ownerReferences"] = {{{"apiVersion", "apps/v1"},
                                         {"kind", "ReplicaSet"},
                                         {"name", "web-" + std::to_string(i) + "-5d8f7c9b4"},
                                         {"uid", "5c1e"},
                                         {"controller", true},
                                         {"blockOwnerDeletion", true}}};
  pod["spec"] = deployment["spec"]["template"]["spec"];
  pod["spec"]["nodeName"] = "node-1";
  pod["status"] = {{"phase", "Running"},
                   {"podIP", "10.0.0." + std::to_string(i % 250)},
                   {"startTime", "2026-01-01T00:00:01Z"},
                   {"conditions",
                    {{{"type", "Ready"}, {"status", "True"}, {"lastTransitionTime", "2026-01-01T00:00:05Z"}},
                     {{"type", "PodScheduled"}, {"status", "True"}, {"lastTransitionTime", "2026-01-01T00:00:00Z"}}}},
                   {"containerStatuses",
                    {{{"name", "app"}, {"ready", true}, {"restartCount", 0}, {"image", "web"}, {"imageID", "sha256:1"},
                      {"state", {{"running", {{"startedAt", "2026-01-01T00:00:02Z"}}}}}}}}};
  return pod;
}

struct Figure {
  double us_per_doc;
  double mb_per_s;
};

Figure measure(const std::function<std::string()>& write, double min_time, int rounds) {
  const std::size_t bytes = write().size();
  double best = 1e300;
  for (int r = 0; r < rounds; ++r) {
    bench::Stopwatch sw;
    long n = 0;
    std::size_t sink = 0;
    do {
      sink += write().size();
      ++n;
    } while (sw.elapsed().cpu < min_time);
    if (sink == 0) std::abort();
    best = std::min(best, sw.elapsed().cpu / static_cast<double>(n));
  }
  return {best * 1e6, static_cast<double>(bytes) / best / bench::kMB};
}

void row(const char* name, const rr::Json& document, double min_time, int rounds) {
  const Figure plain = measure([&] { return document.dump(); }, min_time, rounds);
  const Figure ordered = measure([&] { return rr::wire_order::dump(document); }, min_time, rounds);
  std::printf("%-28s %9zu B  dump %10.1f us %7.1f MB/s   ordered %10.1f us %7.1f MB/s   x%.2f\n", name,
              document.dump().size(), plain.us_per_doc, plain.mb_per_s, ordered.us_per_doc, ordered.mb_per_s,
              ordered.us_per_doc / plain.us_per_doc);
}

}  // namespace

int main(int argc, char** argv) {
  double min_time = 0.5;
  int rounds = 3;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--min-time") min_time = std::atof(argv[i + 1]);
    if (flag == "--rounds") rounds = std::atoi(argv[i + 1]);
  }
  std::printf("bench_wire_order (%s, %s), CPU time, best of %d rounds of %.2f s\n", RRGEN_BENCH_BUILD_TYPE,
              bench::compiler_name(), rounds, min_time);
  const rr::Json pod = realistic_pod(7);
  rr::Json list{{"apiVersion", "v1"}, {"kind", "PodList"}, {"metadata", {{"resourceVersion", "9000"}}}};
  list["items"] = rr::Json::array();
  for (int i = 0; i < 500; ++i) list["items"].push_back(realistic_pod(i));
  rr::Json custom = pod;
  custom["apiVersion"] = "example.com/v1";
  custom["kind"] = "Widget";
  row("Pod", pod, min_time, rounds);
  row("PodList, 500 items", list, min_time, rounds);
  row("custom resource (alphabetic)", custom, min_time, rounds);
  return 0;
}
