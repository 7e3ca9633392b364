// The cost of the CEL rules in a generated validate() (docs/benchmarks.md): validate() of Gateway
// API HTTPRoute (a rule-heavy corpus kind) per second over the corpus's HTTPRoute samples, beside
// the typed checks alone (rr_validate(), what validate() did before it ran the rules), same run.
//
//   bench_validate CORPUS_DIR [--seconds S]
#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench_httproute_types.hpp"
#include "bench_util.hpp"
#include "corpus_yaml.hpp"
#include "rr/core/validator.hpp"

namespace fs = std::filesystem;
using HTTPRoute = bench_httproute::v1::HTTPRoute;

namespace {

std::vector<HTTPRoute> samples(const fs::path& corpus) {
  std::vector<HTTPRoute> out;
  for (const auto& path : corpus::yaml_files(corpus / "samples/gateway-api"))
    for (const rr::Json& doc : corpus::yaml_documents(path))
      if (doc.is_object() && doc.value("kind", "") == "HTTPRoute" &&
          doc.value("apiVersion", "") == "gateway.networking.k8s.io/v1") {
        auto route = HTTPRoute::from_json_text(doc.dump());
        route.apply_defaults();
        out.push_back(std::move(route));
      }
  if (out.empty()) throw std::runtime_error("no gateway.networking.k8s.io/v1 HTTPRoute samples in the corpus");
  return out;
}

// Calls `validate` over the samples until `seconds` of CPU time pass; returns validations per
// CPU second and the findings of one pass (a sanity figure: the samples are valid).
template <class F>
std::pair<double, std::size_t> rate(const std::vector<HTTPRoute>& routes, double seconds, F validate) {
  std::size_t findings = 0;
  for (const auto& r : routes) findings += validate(r).size();  // warm-up: compiles the rules once
  std::size_t calls = 0, sink = 0;
  const double start = bench::cpu_now();
  double spent = 0;
  while (spent < seconds) {
    for (const auto& r : routes) sink += validate(r).size();
    calls += routes.size();
    spent = bench::cpu_now() - start;
  }
  if (sink != findings * (calls / routes.size())) throw std::runtime_error("validate() is not deterministic");
  return {static_cast<double>(calls) / spent, findings};
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2 && !(argc == 4 && std::string(argv[2]) == "--seconds")) {
    std::fprintf(stderr, "usage: bench_validate CORPUS_DIR [--seconds S]\n");
    return 2;
  }
  const double seconds = argc == 4 ? std::stod(argv[3]) : 2.0;
  const auto routes = samples(argv[1]);
  const auto typed = rate(routes, seconds, [](const HTTPRoute& r) {
    rr::Validator c;
    r.rr_validate(c);
    return c.take();
  });
  const auto full = rate(routes, seconds, [](const HTTPRoute& r) { return r.validate(); });
  std::printf("HTTPRoute validate() over %zu corpus samples (%s build, CPU time):\n", routes.size(),
              RRGEN_BENCH_BUILD_TYPE);
  std::printf("  typed checks only:           %12.0f validations/s (%zu findings)\n", typed.first, typed.second);
  std::printf("  with CEL rules and junctors: %12.0f validations/s (%zu findings)\n", full.first, full.second);
  std::printf("  the rules cost %.1fx the typed checks\n", typed.first / full.first);
  return 0;
}
