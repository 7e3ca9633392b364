// bench_codec: decode and encode throughput of the generated types over the corpus samples, beside
// nlohmann::json's DOM parse and dump of the same bytes.
//
// Uses the corpus libraries of tests/corpus (one per CRD/OpenAPI file) through their rr::KindCodec
// tables. Every sample document (samples/<project>/*.yaml) of a kind the corpus defines is
// converted to compact JSON once, up front (rrgen's YAML loader + to_json_text); documents that do
// not decode are skipped and counted. Then, over the whole set of documents:
//   typed decode   KindCodec::decode_only (JSON text -> typed object, discarded)
//   typed encode   KindCodec::reencode minus decode_only (typed object -> JSON text)
//   json parse     nlohmann::json::parse (JSON text -> DOM, discarded)
//   json dump      parse + dump minus parse
// Each measurement loops over the set until at least --min-time seconds have passed; the whole
// series repeats --rounds times and the best round of each measurement is reported.
// MB/s are input JSON bytes per CPU second (getrusage, user + system); wall-clock MB/s are shown
// beside them.
//
// usage: bench_codec [--min-time S] [--rounds N] [--by-project] [--only PROJECT] [--verbose] CORPUS_DIR
// Figures are printed; nothing is asserted.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <iostream>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "bench_util.hpp"
#include "rr/core/errors.hpp"
#include "rr/core/json.hpp"
#include "rr/core/kind_codec.hpp"
#include "load/yaml_load.hpp"

#ifndef RRGEN_BENCH_BUILD_TYPE
#define RRGEN_BENCH_BUILD_TYPE "unknown"
#endif

// Defined by the corpus registry that tests/corpus/CMakeLists.txt configures.
std::vector<std::pair<std::string_view, std::span<const rr::KindCodec>>> corpus_kind_tables();

namespace fs = std::filesystem;
using bench::fmt;
using bench::kMB;

namespace {

struct Doc {
  std::string id;       // samples/<project>/<file>#<index>
  std::string project;
  std::string json;
  const rr::KindCodec* codec = nullptr;
};

// apiVersion|kind -> codecs; a sample prefers its own project's definition (as corpus_samples).
struct Codecs {
  std::multimap<std::string, std::pair<std::string, const rr::KindCodec*>> by_gvk;
  const rr::KindCodec* find(const std::string& api_version, const std::string& kind, const std::string& project) const {
    auto [lo, hi] = by_gvk.equal_range(api_version + "|" + kind);
    const rr::KindCodec* any = nullptr;
    for (auto it = lo; it != hi; ++it) {
      if (it->second.first.find("crds/" + project + "/") == 0) return it->second.second;
      if (!any) any = it->second.second;
    }
    return any;
  }
};

std::string scalar(const rrgen::Node& doc, std::string_view key) {
  const rrgen::Node* n = doc.find(key);
  return n && n->is_scalar() ? n->text : std::string();
}

// Keeps results observable so the optimiser cannot drop the work.
volatile std::size_t g_sink = 0;

struct Measure {
  double cpu = 0, wall = 0;
  std::size_t passes = 0;
};

Measure measure(const std::vector<const Doc*>& docs, double min_time, const std::function<void(const Doc&)>& op) {
  bench::Stopwatch sw;
  Measure m;
  do {
    for (const Doc* d : docs) op(*d);
    ++m.passes;
  } while (sw.elapsed().cpu < min_time);
  const bench::Times t = sw.elapsed();
  m.cpu = t.cpu / static_cast<double>(m.passes);
  m.wall = t.wall / static_cast<double>(m.passes);
  return m;
}

struct Figures {
  Measure decode, reencode, parse, parse_dump;
};

Figures run_series(const std::vector<const Doc*>& docs, double min_time, int rounds) {
  Figures best;
  auto keep_best = [](Measure& b, const Measure& m) {
    if (b.passes == 0 || m.cpu < b.cpu) b = m;
  };
  for (int r = 0; r < rounds; ++r) {
    keep_best(best.decode, measure(docs, min_time, [](const Doc& d) { d.codec->decode_only(d.json); }));
    keep_best(best.reencode, measure(docs, min_time, [](const Doc& d) { g_sink = g_sink + d.codec->reencode(d.json).size(); }));
    keep_best(best.parse, measure(docs, min_time, [](const Doc& d) { g_sink = g_sink + rr::Json::parse(d.json).size(); }));
    keep_best(best.parse_dump,
              measure(docs, min_time, [](const Doc& d) { g_sink = g_sink + rr::Json::parse(d.json).dump().size(); }));
  }
  return best;
}

double mbps(std::size_t bytes, double seconds) { return seconds > 0 ? static_cast<double>(bytes) / kMB / seconds : 0.0; }

std::string pad(std::string s) {
  s.resize(std::max<std::size_t>(s.size(), 28), ' ');
  return s;
}

void print_figures(const std::string& title, const std::vector<const Doc*>& docs, const Figures& f, bool header,
                   bool wall_line) {
  std::size_t bytes = 0;
  for (const Doc* d : docs) bytes += d->json.size();
  const double enc_cpu = f.reencode.cpu - f.decode.cpu, enc_wall = f.reencode.wall - f.decode.wall;
  const double dump_cpu = f.parse_dump.cpu - f.parse.cpu, dump_wall = f.parse_dump.wall - f.parse.wall;
  if (header)
    std::cout << "  " << pad("set") << "  docs      MB |  typed decode  typed encode |   json parse    json dump |  typed/json\n";
  const std::string name = pad(title);
  std::cout << "  " << name << fmt("%6.0f", static_cast<double>(docs.size())) << fmt("%8.2f", static_cast<double>(bytes) / kMB)
            << " |" << fmt("%14.1f", mbps(bytes, f.decode.cpu)) << fmt("%14.1f", mbps(bytes, enc_cpu)) << " |"
            << fmt("%13.1f", mbps(bytes, f.parse.cpu)) << fmt("%13.1f", mbps(bytes, dump_cpu)) << " |"
            << fmt("%12.2f", f.parse.cpu > 0 ? f.parse.cpu / f.decode.cpu : 0.0) << "\n";
  if (wall_line) {
    std::cout << "  " << pad("  (wall-clock MB/s)") << std::string(14, ' ') << " |" << fmt("%14.1f", mbps(bytes, f.decode.wall))
              << fmt("%14.1f", mbps(bytes, enc_wall)) << " |" << fmt("%13.1f", mbps(bytes, f.parse.wall))
              << fmt("%13.1f", mbps(bytes, dump_wall)) << " |"
              << fmt("%12.2f", f.parse.wall > 0 ? f.parse.wall / f.decode.wall : 0.0) << "\n";
  }
}

}  // namespace

int main(int argc, char** argv) {
  double min_time = 1.0;
  int rounds = 3;
  bool by_project = false, verbose = false;
  std::string root_arg, only;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--min-time" && i + 1 < argc) {
      min_time = std::atof(argv[++i]);
    } else if (a == "--rounds" && i + 1 < argc) {
      rounds = std::max(1, std::atoi(argv[++i]));
    } else if (a == "--by-project") {
      by_project = true;
    } else if (a == "--verbose") {
      verbose = true;
    } else if (a == "--only" && i + 1 < argc) {
      only = argv[++i];
    } else if (a.empty() || a[0] == '-' || !root_arg.empty()) {
      std::cerr << "usage: bench_codec [--min-time S] [--rounds N] [--by-project] [--only PROJECT] [--verbose] CORPUS_DIR\n";
      return a == "--help" || a == "-h" ? 0 : 2;
    } else {
      root_arg = a;
    }
  }
  if (root_arg.empty()) {
    std::cerr << "usage: bench_codec [--min-time S] [--rounds N] [--by-project] [--only PROJECT] [--verbose] CORPUS_DIR\n";
    return 2;
  }
  const fs::path root = root_arg;
  if (!fs::is_directory(root / "samples")) {
    std::cerr << "bench_codec: " << root_arg << " has no samples/ directory\n";
    return 2;
  }

  Codecs codecs;
  std::size_t tables = 0, kinds = 0;
  for (const auto& [file, table] : corpus_kind_tables()) {
    ++tables;
    for (const auto& k : table) {
      codecs.by_gvk.emplace(std::string(k.api_version) + "|" + std::string(k.kind), std::pair{std::string(file), &k});
      ++kinds;
    }
  }

  std::vector<fs::path> paths;
  for (const auto& e : fs::recursive_directory_iterator(root / "samples"))
    if (e.is_regular_file() && (e.path().extension() == ".yaml" || e.path().extension() == ".yml")) paths.push_back(e.path());
  std::sort(paths.begin(), paths.end());

  std::vector<Doc> docs;
  std::size_t foreign = 0, bad_yaml = 0;
  std::vector<std::string> undecodable;
  for (const auto& path : paths) {
    const std::string rel = fs::relative(path, root).generic_string();
    const std::string project = fs::relative(path, root / "samples").begin()->string();
    if (!only.empty() && project != only) continue;
    rrgen::SourceSet sources;
    rrgen::Diagnostics diags;
    const std::string* name = sources.read(path.string(), diags);
    std::vector<rrgen::Node> nodes;
    if (name) nodes = rrgen::load_yaml(name, sources.content(name), diags);
    if (diags.has_errors()) {
      ++bad_yaml;
      continue;
    }
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      if (!nodes[i].is_mapping()) continue;
      const rr::KindCodec* codec = codecs.find(scalar(nodes[i], "apiVersion"), scalar(nodes[i], "kind"), project);
      if (!codec) {
        ++foreign;
        continue;
      }
      Doc d{rel + "#" + std::to_string(i), project, rrgen::to_json_text(nodes[i]), codec};
      try {
        d.codec->decode_only(d.json);
        g_sink = g_sink + d.codec->reencode(d.json).size();
      } catch (const rr::DecodeError& e) {
        undecodable.push_back(d.id + ": " + e.what());
        continue;
      }
      docs.push_back(std::move(d));
    }
  }
  std::size_t bytes = 0, largest = 0;
  for (const auto& d : docs) {
    bytes += d.json.size();
    largest = std::max(largest, d.json.size());
  }

  std::cout << "bench_codec: " << RRGEN_BENCH_BUILD_TYPE << " build, " << bench::compiler_name() << "\n"
            << "corpus: " << root.string() << " (" << tables << " kind tables, " << kinds << " kinds)\n"
            << "samples: " << paths.size() << " files; " << docs.size() << " documents of corpus kinds measured ("
            << fmt("%.2f", static_cast<double>(bytes) / kMB) << " MB of compact JSON, largest "
            << fmt("%.1f", static_cast<double>(largest) / 1024.0) << " KB); " << undecodable.size()
            << " skipped (do not decode), " << foreign << " of kinds outside the corpus, " << bad_yaml << " files not valid YAML\n";
  for (std::size_t i = 0; i < undecodable.size() && (verbose || i < 3); ++i) std::cout << "  skipped " << undecodable[i] << "\n";
  if (!verbose && undecodable.size() > 3) std::cout << "  ... (--verbose lists all " << undecodable.size() << ")\n";
  std::cout << "method: each measurement loops over all documents for >= " << min_time << " s CPU; best of " << rounds
            << " rounds; MB/s = JSON input bytes (MB = 2^20) per CPU second (getrusage user + system), wall-clock MB/s below\n"
            << "typed encode = reencode - decode; json dump = parse+dump - parse;\n"
               "typed/json = typed decode MB/s / nlohmann parse MB/s (above 1: typed decoding is faster)\n\n";
  if (docs.empty()) return 0;

  std::vector<const Doc*> all;
  for (const auto& d : docs) all.push_back(&d);
  print_figures("all samples", all, run_series(all, min_time, rounds), true, true);

  if (by_project) {
    std::map<std::string, std::vector<const Doc*>> groups;
    for (const auto& d : docs) groups[d.project].push_back(&d);
    std::cout << "\nby project (CPU MB/s):\n";
    bool first = true;
    for (const auto& [project, group] : groups) {
      print_figures(project, group, run_series(group, min_time, rounds), first, false);
      first = false;
    }
  }
  std::cout << "\npeak RSS: " << fmt("%.1f", bench::self_peak_rss_mb()) << " MB\n";
  return 0;
}
