// `rrgen validate` throughput (docs/benchmarks.md): documents per CPU second over the corpus
// samples with every corpus CRD given, read and admitted (rr::manifest_check's checker, what
// rrgen-validate runs), beside reading alone (the multi-document YAML reader), same run; and the
// one-off cost of admitting the corpus CRDs.
//
//   bench_rrgen_validate CORPUS_DIR [--seconds S]
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "bench_util.hpp"
#include "rr/manifest_check/checker.hpp"

namespace fs = std::filesystem;
using namespace rr::manifest_check;

namespace {

struct Text {
  std::string name, text;
  bool json = false;
};

std::vector<Text> texts_under(const fs::path& dir) {
  std::vector<Text> out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    const auto ext = e.path().extension();
    if (!e.is_regular_file() || (ext != ".yaml" && ext != ".yml" && ext != ".json")) continue;
    std::ifstream in(e.path(), std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    out.push_back(Text{e.path().string(), text.str(), ext == ".json"});
  }
  std::sort(out.begin(), out.end(), [](const Text& a, const Text& b) { return a.name < b.name; });
  return out;
}

// Runs `pass` (one pass over every sample, returning its document count) until `seconds` of CPU
// time pass; documents per CPU second.
template <class F>
double rate(double seconds, F pass) {
  std::size_t documents = 0;
  const double start = bench::cpu_now();
  double spent = 0;
  while (spent < seconds) {
    documents += pass();
    spent = bench::cpu_now() - start;
  }
  return static_cast<double>(documents) / spent;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2 && !(argc == 4 && std::string(argv[2]) == "--seconds")) {
    std::fprintf(stderr, "usage: bench_rrgen_validate CORPUS_DIR [--seconds S]\n");
    return 2;
  }
  const fs::path corpus = argv[1];
  const double seconds = argc == 4 ? std::stod(argv[3]) : 3.0;
  const auto crds = texts_under(corpus / "crds");
  const auto samples = texts_under(corpus / "samples");

  Checker checker(false);
  std::size_t crd_count = 0, crd_refused = 0;
  const double crd_start = bench::cpu_now();
  for (const Text& t : crds) {
    for (const Document& doc : read_manifests(t.text, t.json).documents) {
      if (auto out = checker.add_crd(t.name, doc)) {
        ++crd_count;
        crd_refused += out->refusal ? 1 : 0;
      }
    }
  }
  const double crd_cpu = bench::cpu_now() - crd_start;

  std::size_t documents = 0, refused = 0;
  for (const Text& t : samples) {
    for (const Document& doc : read_manifests(t.text, t.json).documents) {
      ++documents;
      refused += checker.check(t.name, doc).refusal ? 1 : 0;
    }
  }

  const double read_rate = rate(seconds, [&] {
    std::size_t n = 0;
    for (const Text& t : samples) n += read_manifests(t.text, t.json).documents.size();
    return n;
  });
  const double admit_rate = rate(seconds, [&] {
    std::size_t n = 0;
    for (const Text& t : samples) {
      for (const Document& doc : read_manifests(t.text, t.json).documents) {
        n += checker.check(t.name, doc).document > 0 ? 1 : 0;
      }
    }
    return n;
  });

  std::printf("bench_rrgen_validate (%s build): %zu sample files, %zu documents (%zu refused)\n",
              RRGEN_BENCH_BUILD_TYPE, samples.size(), documents, refused);
  std::printf("  CRDs admitted first: %zu (%zu refused) in %.2f CPU s\n", crd_count, crd_refused, crd_cpu);
  std::printf("  %-28s %12.0f documents/CPU s\n", "read only (baseline)", read_rate);
  std::printf("  %-28s %12.0f documents/CPU s\n", "read + admit (dry run)", admit_rate);
  std::printf("  peak RSS %.1f MB\n", bench::self_peak_rss_mb());
  return 0;
}
