// bench_generate: whole-corpus generation time in one process.
//
// For every CRD file (crds/<project>/*.yaml) and OpenAPI document (openapi/*.json) of the corpus,
// runs rrgen's in-memory pipeline once per file, as `rrgen types FILE` would:
//   load (SourceSet::read + load_yaml) -> read (read_document: the AST) -> sema (build_model)
//   -> emit (emit_types)
// load + read is exactly what read_inputs() does for one file; it is spelled out here so the two
// can be timed apart. Nothing is written to disk. Files that produce errors are skipped and listed
// (the corpus holds one CRD that rrgen rejects on purpose). The whole pass runs N times; the best
// run (least CPU) is reported, with the per-stage split.
//
// usage: bench_generate [--runs N] [--top K] CORPUS_DIR
// Figures are printed; nothing is asserted. Wall time depends on the machine's load; CPU time
// (getrusage, user + system) is the figure to compare.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "bench_util.hpp"
#include "backends/types/emit_types.hpp"
#include "load/inputs.hpp"
#include "sema/sema.hpp"
#include "support/version.hpp"
#include "load/yaml_load.hpp"

#ifndef RRGEN_BENCH_BUILD_TYPE
#define RRGEN_BENCH_BUILD_TYPE "unknown"
#endif

namespace fs = std::filesystem;
using bench::fmt;
using bench::kMB;
using bench::Stopwatch;
using bench::Times;

namespace {

struct FileResult {
  std::string rel;
  bool ok = false;
  std::string first_error;
  std::size_t input_bytes = 0, output_bytes = 0, output_files = 0, units = 0, kinds = 0;
  Times load, read, sema, emit, destroy, total;
};

struct RunResult {
  std::vector<FileResult> files;
  Times load, read, sema, emit, destroy, total;
};

FileResult run_file(const fs::path& path, const std::string& rel) {
  FileResult r;
  r.rel = rel;
  r.input_bytes = static_cast<std::size_t>(fs::file_size(path));
  Stopwatch total;
  {
    rrgen::SourceSet sources;
    rrgen::Diagnostics diags;
    rrgen::InputSet inputs;
    rrgen::Model model;
    rrgen::OutputSet out;
    // read_inputs(sources, {path}, diags), in two timed halves.
    std::vector<rrgen::Node> docs;
    const std::string* name = nullptr;
    {
      Stopwatch sw;
      name = sources.read(path.string(), diags);
      if (name) docs = rrgen::load_yaml(name, sources.content(name), diags);
      r.load = sw.elapsed();
    }
    if (name) {
      Stopwatch sw;
      bool recognised = false;
      for (const auto& doc : docs) rrgen::read_document(doc, inputs, diags, recognised);
      if (!recognised && !diags.has_errors())
        diags.error({name, 0, 0}, "input-no-definitions", "no CustomResourceDefinition or OpenAPI document found");
      r.read = sw.elapsed();
    }
    if (!diags.has_errors()) {
      Stopwatch sw;
      model = rrgen::build_model(inputs, rrgen::SemaOptions{}, diags);
      r.sema = sw.elapsed();
    }
    if (!diags.has_errors()) {
      Stopwatch sw;
      out = rrgen::emit_types(model, rrgen::TypesOptions{rrgen::kVersion});
      r.emit = sw.elapsed();
      r.ok = true;
      for (const auto& f : out.files) r.output_bytes += f.content.size();
      r.output_files = out.files.size();
      r.units = model.units.size();
      for (const auto& u : model.units) r.kinds += u->kind ? 1 : 0;
    } else {
      for (const auto& d : diags.all())
        if (d.severity == rrgen::Severity::Error) {
          r.first_error = rrgen::format(d);
          break;
        }
    }
    Stopwatch sw;
    out = {};
    model = {};
    inputs = {};
    docs = {};
    r.destroy = sw.elapsed();
  }
  r.total = total.elapsed();
  return r;
}

RunResult run_all(const std::vector<std::pair<fs::path, std::string>>& files) {
  RunResult run;
  for (const auto& [path, rel] : files) {
    FileResult f = run_file(path, rel);
    run.load += f.load;
    run.read += f.read;
    run.sema += f.sema;
    run.emit += f.emit;
    run.destroy += f.destroy;
    run.total += f.total;
    run.files.push_back(std::move(f));
  }
  return run;
}

void print_stage(const char* name, const Times& t, const Times& total) {
  std::cout << "  " << name << std::string(22 - std::min<std::size_t>(21, std::string(name).size()), ' ')
            << fmt("%8.3f", t.wall) << fmt("%9.3f", t.cpu) << fmt("%8.1f%%", total.cpu > 0 ? 100.0 * t.cpu / total.cpu : 0.0)
            << "\n";
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 3;
  std::size_t top = 8;
  std::string root_arg;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--runs" && i + 1 < argc) {
      runs = std::max(1, std::atoi(argv[++i]));
    } else if (a == "--top" && i + 1 < argc) {
      top = static_cast<std::size_t>(std::max(0, std::atoi(argv[++i])));
    } else if (a == "--help" || a == "-h" || (!a.empty() && a[0] == '-') || !root_arg.empty()) {
      std::cerr << "usage: bench_generate [--runs N] [--top K] CORPUS_DIR\n";
      return a == "--help" || a == "-h" ? 0 : 2;
    } else {
      root_arg = a;
    }
  }
  if (root_arg.empty()) {
    std::cerr << "usage: bench_generate [--runs N] [--top K] CORPUS_DIR\n";
    return 2;
  }
  const fs::path root = root_arg;
  if (!fs::is_directory(root / "crds")) {
    std::cerr << "bench_generate: " << root_arg << " has no crds/ directory\n";
    return 2;
  }

  // The corpus tests' layout: crds/<project>/*.yaml and openapi/*.json.
  std::vector<std::pair<fs::path, std::string>> files;
  std::size_t crd_files = 0, openapi_files = 0;
  for (const auto& project : fs::directory_iterator(root / "crds")) {
    if (!project.is_directory()) continue;
    for (const auto& e : fs::directory_iterator(project.path()))
      if (e.is_regular_file() && e.path().extension() == ".yaml") {
        files.emplace_back(e.path(), fs::relative(e.path(), root).generic_string());
        ++crd_files;
      }
  }
  if (fs::is_directory(root / "openapi"))
    for (const auto& e : fs::directory_iterator(root / "openapi"))
      if (e.is_regular_file() && e.path().extension() == ".json") {
        files.emplace_back(e.path(), fs::relative(e.path(), root).generic_string());
        ++openapi_files;
      }
  std::sort(files.begin(), files.end(), [](const auto& a, const auto& b) { return a.second < b.second; });

  std::cout << "bench_generate: rrgen " << rrgen::kVersion << ", " << RRGEN_BENCH_BUILD_TYPE << " build, "
            << bench::compiler_name() << "\n"
            << "corpus: " << root.string() << "\n"
            << "times: wall (steady clock) and CPU (getrusage: user + system) seconds of this process; MB = 2^20 bytes\n\n";

  std::vector<RunResult> results;
  for (int i = 0; i < runs; ++i) {
    results.push_back(run_all(files));
    const RunResult& r = results.back();
    std::cout << "run " << (i + 1) << ": wall " << fmt("%.3f", r.total.wall) << " s, CPU " << fmt("%.3f", r.total.cpu)
              << " s\n";
  }
  const RunResult& best =
      *std::min_element(results.begin(), results.end(), [](const auto& a, const auto& b) { return a.total.cpu < b.total.cpu; });

  std::size_t ok = 0, in_bytes = 0, in_bytes_ok = 0, out_bytes = 0, out_files = 0, units = 0, kinds = 0;
  std::vector<const FileResult*> failed;
  for (const auto& f : best.files) {
    in_bytes += f.input_bytes;
    if (!f.ok) {
      failed.push_back(&f);
      continue;
    }
    ++ok;
    in_bytes_ok += f.input_bytes;
    out_bytes += f.output_bytes;
    out_files += f.output_files;
    units += f.units;
    kinds += f.kinds;
  }

  std::cout << "\nfiles:      " << files.size() << " (" << crd_files << " CRD files, " << openapi_files
            << " OpenAPI documents); " << ok << " generated, " << failed.size() << " skipped with errors\n";
  for (const FileResult* f : failed) std::cout << "  skipped " << f->rel << ": " << f->first_error << "\n";
  std::cout << "input:      " << fmt("%.2f", static_cast<double>(in_bytes) / kMB) << " MB ("
            << fmt("%.2f", static_cast<double>(in_bytes_ok) / kMB) << " MB in files that generated)\n"
            << "generated:  " << fmt("%.2f", static_cast<double>(out_bytes) / kMB) << " MB in " << out_files
            << " files (in memory, not written)\n"
            << "units:      " << units << ", kinds: " << kinds << "\n"
            << "best of " << runs << " runs (least CPU): wall " << fmt("%.3f", best.total.wall) << " s, CPU "
            << fmt("%.3f", best.total.cpu) << " s\n"
            << "throughput: " << fmt("%.1f", static_cast<double>(in_bytes) / kMB / best.total.cpu) << " MB/s input, "
            << fmt("%.1f", static_cast<double>(out_bytes) / kMB / best.total.cpu) << " MB/s generated (per CPU second)\n"
            << "peak RSS:   " << fmt("%.1f", bench::self_peak_rss_mb()) << " MB\n\n";

  std::cout << "  stage                  wall s    CPU s   share\n";
  Times load_read = best.load;
  load_read += best.read;
  print_stage("load+read", load_read, best.total);
  print_stage("  load", best.load, best.total);
  print_stage("  read", best.read, best.total);
  print_stage("sema", best.sema, best.total);
  print_stage("emit", best.emit, best.total);
  print_stage("free", best.destroy, best.total);
  print_stage("total", best.total, best.total);
  std::cout << "  load = file read + YAML parse into Node trees; read = Nodes -> CRD/OpenAPI AST (read_document);\n"
               "  free = destroying the Nodes, AST, model and outputs; total includes the gaps between stages\n";

  if (top > 0) {
    std::vector<const FileResult*> by_cpu;
    for (const auto& f : best.files) by_cpu.push_back(&f);
    std::sort(by_cpu.begin(), by_cpu.end(), [](auto* a, auto* b) { return a->total.cpu > b->total.cpu; });
    by_cpu.resize(std::min(top, by_cpu.size()));
    std::cout << "\nslowest files (CPU s: total = load / read / sema / emit; input MB -> generated MB):\n";
    for (const FileResult* f : by_cpu)
      std::cout << "  " << fmt("%6.3f", f->total.cpu) << " = " << fmt("%.3f", f->load.cpu) << " / " << fmt("%.3f", f->read.cpu) << " / "
                << fmt("%.3f", f->sema.cpu) << " / " << fmt("%.3f", f->emit.cpu) << "  "
                << fmt("%5.2f", static_cast<double>(f->input_bytes) / kMB) << " -> "
                << fmt("%5.2f", static_cast<double>(f->output_bytes) / kMB) << "  " << f->rel << "\n";
  }
  return 0;
}
