// bench_compile: compile time and peak memory of generated code.
//
// For each case, runs the real `rrgen types` into a temporary directory (one output directory per
// input file, as rrgen_add_types does), then compiles every generated source on its own:
//   CXX -std=c++20 -O0 -c -I<gen> -I<runtime/core/include> [-I<nlohmann>] unit.cpp -o unit.o
// or, with --unity, the one aggregate source per input file that rrgen_add_types compiles. It also
// compiles a "floor" TU holding only the standard and rr/core includes of the generated files: the
// fixed cost every TU pays before any generated code.
// Each child (rrgen and every compiler run) is started with fork/exec and measured with wait4:
// CPU = ru_utime + ru_stime, peak RSS = ru_maxrss. wait4 accounts the child together with the
// descendants it waited for, so the compiler driver's cc1plus/clang -cc1 is included.
//
// Cases: workflow (argo-workflows argoproj.io_workflows.yaml), alertmanagerconfig
// (prometheus-operator monitoring.coreos.com_alertmanagerconfigs.yaml), corpus (every CRD file
// and OpenAPI document; files rrgen rejects are counted and skipped), kubernetes (rr::builtin:
// the whole Kubernetes 1.35 API from the project's schemas, one rrgen run; with --unity its 16
// shards and table, as the runtime builds it; then a user TU including StatefulSet and Service).
//
// With --baseline-rrgen PATH every case also runs with that rrgen binary (the previous state: a
// build of main, or of a git ref in its own worktree), right before the same case with this
// build's rrgen, against the same runtime headers, and a table at the end puts the two side by side.
//
// usage: bench_compile [--cxx COMPILER] [--opt FLAG] [--jobs N] [--repeat N] [--unity] [--case NAME]... [--keep]
// [--baseline-rrgen PATH] CORPUS_DIR
// Figures are printed; nothing is asserted.
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "bench_util.hpp"

#ifndef RRGEN_BENCH_RRGEN
#error "RRGEN_BENCH_RRGEN (path of the rrgen binary) must be defined by the build"
#endif
#ifndef RRGEN_BENCH_CXX
#define RRGEN_BENCH_CXX "c++"
#endif
#ifndef RRGEN_BENCH_RUNTIME_INCLUDE
#error "RRGEN_BENCH_RUNTIME_INCLUDE (runtime/core/include) must be defined by the build"
#endif
#ifndef RRGEN_BENCH_SCHEMAS_DIR
#error "RRGEN_BENCH_SCHEMAS_DIR (the project's schemas/) must be defined by the build"
#endif
#ifndef RRGEN_BENCH_EXTRA_INCLUDES
#define RRGEN_BENCH_EXTRA_INCLUDES ""
#endif

namespace fs = std::filesystem;
using bench::fmt;

namespace {

struct Job {
  std::vector<std::string> argv;
  std::string log;    // stdout + stderr of the child
  std::string label;  // for messages
  // Results.
  int status = 0;
  double wall = 0, cpu = 0, rss_mb = 0;
  bool ok() const { return WIFEXITED(status) && WEXITSTATUS(status) == 0; }
};

pid_t start(Job& job) {
  std::vector<char*> args;
  for (auto& a : job.argv) args.push_back(a.data());
  args.push_back(nullptr);
  const pid_t pid = fork();
  if (pid < 0) {
    std::cerr << "bench_compile: fork: " << std::strerror(errno) << "\n";
    std::exit(3);
  }
  if (pid == 0) {
    const int fd = open(job.log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
      dup2(fd, 1);
      dup2(fd, 2);
      close(fd);
    }
    execvp(args[0], args.data());
    std::fprintf(stderr, "bench_compile: cannot run '%s': %s\n", args[0], std::strerror(errno));
    _exit(127);
  }
  return pid;
}

// Runs the jobs, at most `parallel` at a time. Returns the wall time of the whole batch.
double run_jobs(std::vector<Job>& jobs, int parallel) {
  std::map<pid_t, std::pair<Job*, double>> running;
  std::size_t next = 0;
  const double t0 = bench::wall_now();
  while (next < jobs.size() || !running.empty()) {
    while (next < jobs.size() && static_cast<int>(running.size()) < parallel) {
      Job& j = jobs[next++];
      running[start(j)] = {&j, bench::wall_now()};
    }
    int status = 0;
    rusage ru{};
    const pid_t pid = wait4(-1, &status, 0, &ru);
    if (pid < 0) {
      if (errno == EINTR) continue;
      std::cerr << "bench_compile: wait4: " << std::strerror(errno) << "\n";
      std::exit(3);
    }
    auto it = running.find(pid);
    if (it == running.end()) continue;
    Job& j = *it->second.first;
    j.status = status;
    j.wall = bench::wall_now() - it->second.second;
    j.cpu = bench::seconds(ru.ru_utime) + bench::seconds(ru.ru_stime);
    j.rss_mb = static_cast<double>(ru.ru_maxrss) / 1024.0;
    running.erase(it);
  }
  return bench::wall_now() - t0;
}

std::string head_of(const std::string& path, std::size_t max_lines) {
  std::ifstream in(path);
  std::string out, line;
  for (std::size_t n = 0; n < max_lines && std::getline(in, line); ++n) out += "      " + line + "\n";
  return out;
}

// Lines of a generated file; collects its #include lines of the standard library and rr/core
// (the part of every TU that does not depend on the schema).
std::size_t scan_file(const fs::path& p, std::set<std::string>& runtime_includes) {
  std::ifstream in(p, std::ios::binary);
  std::size_t n = 0;
  for (std::string line; std::getline(in, line);) {
    ++n;
    if (line.rfind("#include <", 0) == 0 || line.rfind("#include \"rr/", 0) == 0) runtime_includes.insert(line);
  }
  return n;
}

struct Case {
  std::string name;
  std::vector<std::string> inputs;  // relative to the corpus root (or absolute)
  // All inputs in one rrgen run (they $ref each other), with these extra arguments; --unity then
  // compiles the aggregate's shards as rr::builtin does.
  bool one_run = false;
  std::vector<std::string> args;
  int shards = 0;
  // A user's TU that includes these generated headers, compiled after the library.
  std::vector<std::string> user_includes;
};

struct Options {
  std::string cxx = RRGEN_BENCH_CXX;
  std::string opt = "-O0";
  int jobs = 1;
  int repeat = 1;
  bool keep = false;
  bool unity = false;
  fs::path root;
  std::string baseline_rrgen;  // empty: no baseline
};

// What one case cost with one rrgen: the figures of the side-by-side table.
struct CaseResult {
  std::size_t lines = 0, tus = 0, failed = 0;
  double cpu = 0, rss = 0, slowest_cpu = 0, slowest_rss = 0;
  struct Tu {
    std::string source;  // the generated source, relative to its output directory
    double cpu = 0, rss = 0;
  };
  std::vector<Tu> per_tu;  // every TU's figures, for the per-TU rows of small cases
};

// Cases with at most this many TUs get one row per TU (printed and in the side-by-side table).
constexpr std::size_t kPerTuRows = 8;

constexpr const char* kUnityName = "bench_unity";

// CXX -std=c++20 -O0 -c -I<gen> -I<runtime/core/include> [-I<nlohmann>] SRC -o DIR/STEM.o
Job compile_job(const Options& o, const fs::path& gen, const fs::path& src, const fs::path& dir, const std::string& stem) {
  Job j;
  j.argv = {o.cxx, "-std=c++20", o.opt, "-c", "-I" + gen.string(), std::string("-I") + RRGEN_BENCH_RUNTIME_INCLUDE};
  std::stringstream ss(RRGEN_BENCH_EXTRA_INCLUDES);
  for (std::string inc; std::getline(ss, inc, '|');)  // never -I/usr/include: it breaks #include_next
    if (!inc.empty() && inc != "/usr/include" && inc != RRGEN_BENCH_RUNTIME_INCLUDE) j.argv.push_back("-I" + inc);
  j.argv.insert(j.argv.end(), {src.string(), "-o", (dir / (stem + ".o")).string()});
  j.log = (dir / "logs" / (stem + ".log")).string();
  j.label = src.filename().string();
  return j;
}

CaseResult run_case(const Case& c, const Options& o, const fs::path& work, const std::string& rrgen,
                    const std::string& tag) {
  std::cout << "== " << c.name << tag << " (" << c.inputs.size() << " input file" << (c.inputs.size() == 1 ? "" : "s")
            << ")\n";
  const fs::path dir = work / (c.name + (tag.empty() ? "" : "-baseline"));
  fs::create_directories(dir / "logs");

  // 1. Generate: one rrgen run and one output directory per input file (or one for all).
  std::vector<Job> gen;
  for (std::size_t i = 0; i < (c.one_run ? 1 : c.inputs.size()); ++i) {
    Job j;
    const fs::path out = dir / "gen" / std::to_string(i);
    j.argv = {rrgen, "types", "--quiet", "--out", out.string()};
    j.argv.insert(j.argv.end(), c.args.begin(), c.args.end());
    if (c.one_run) {
      for (const auto& in : c.inputs) j.argv.push_back((o.root / in).string());
    } else {
      j.argv.push_back((o.root / c.inputs[i]).string());
    }
    if (o.unity) j.argv.insert(j.argv.end(), {"--aggregate", kUnityName});
    if (o.unity && c.shards > 0) j.argv.insert(j.argv.end(), {"--shards", std::to_string(c.shards)});
    j.log = (dir / "logs" / ("rrgen-" + std::to_string(i) + ".log")).string();
    j.label = c.one_run ? c.name : c.inputs[i];
    gen.push_back(std::move(j));
  }
  const double gen_wall = run_jobs(gen, 1);
  double gen_cpu = 0, gen_rss = 0;
  std::vector<std::string> rejected;
  std::size_t hpp_lines = 0, cpp_lines = 0, headers = 0, sources_total = 0;
  std::set<std::string> runtime_includes;
  std::vector<Job> compile;
  std::vector<std::string> tu_sources;  // parallel to compile
  for (std::size_t i = 0; i < gen.size(); ++i) {
    gen_cpu += gen[i].cpu;
    gen_rss = std::max(gen_rss, gen[i].rss_mb);
    if (!gen[i].ok()) {
      rejected.push_back(gen[i].label);
      continue;
    }
    const fs::path out = dir / "gen" / std::to_string(i);
    std::vector<fs::path> sources;
    for (const auto& e : fs::recursive_directory_iterator(out)) {
      if (!e.is_regular_file()) continue;
      const auto ext = e.path().extension();
      const bool aggregate = e.path().stem().string().rfind(kUnityName, 0) == 0;
      if (ext == ".hpp") {
        if (aggregate) continue;
        hpp_lines += scan_file(e.path(), runtime_includes);
        ++headers;
      } else if (ext == ".cpp") {
        if (aggregate) continue;
        cpp_lines += scan_file(e.path(), runtime_includes);
        ++sources_total;
        if (!o.unity) sources.push_back(e.path());
      }
    }
    // --unity: the sources rrgen_add_types compiles: the aggregate, which includes every unit
    // source, or with shards the table and each shard.
    if (o.unity) {
      sources = {out / (std::string(kUnityName) + ".cpp")};
      for (int s = 1; s <= c.shards; ++s)
        sources.push_back(out / (std::string(kUnityName) + "_" + std::to_string(s) + ".cpp"));
    }
    std::sort(sources.begin(), sources.end());
    for (const auto& src : sources) {
      Job j = compile_job(o, out, src, dir, std::to_string(compile.size()));
      j.label = gen[i].label + ": " + fs::relative(src, out).generic_string();
      compile.push_back(std::move(j));
      tu_sources.push_back(fs::relative(src, out).generic_string());
    }
  }
  std::cout << "  rrgen:      " << fmt("%.2f", gen_cpu) << " s CPU, " << fmt("%.2f", gen_wall) << " s wall, peak RSS "
            << fmt("%.0f", gen_rss) << " MB; " << rejected.size() << " input(s) rejected";
  for (const auto& r : rejected) std::cout << " [" << r << "]";
  std::cout << "\n"
            << "  generated:  " << (hpp_lines + cpp_lines) << " lines (" << hpp_lines << " in " << headers << " headers, "
            << cpp_lines << " in " << sources_total << " sources)" << (o.unity ? "; compiled as one unity source per input file" : "")
            << "\n";
  std::cout.flush();

  // 2. Compile every generated source on its own; with --repeat, keep each TU's best (least CPU)
  // run and the best batch wall time.
  double wall = run_jobs(compile, o.jobs);
  for (int r = 1; r < o.repeat; ++r) {
    std::vector<Job> again = compile;
    wall = std::min(wall, run_jobs(again, o.jobs));
    for (std::size_t k = 0; k < compile.size(); ++k)
      if (again[k].cpu < compile[k].cpu) compile[k] = again[k];
  }
  double cpu = 0, rss = 0;
  std::size_t failed = 0;
  const Job* slowest = nullptr;
  const Job* biggest = nullptr;
  for (const auto& j : compile) {
    cpu += j.cpu;
    rss = std::max(rss, j.rss_mb);
    if (!slowest || j.cpu > slowest->cpu) slowest = &j;
    if (!biggest || j.rss_mb > biggest->rss_mb) biggest = &j;
    if (!j.ok()) {
      if (++failed <= 3) std::cout << "  FAILED to compile " << j.label << ":\n" << head_of(j.log, 12);
    }
  }
  std::cout << "  compile:    " << compile.size() << " TUs, " << fmt("%.2f", cpu) << " s CPU, " << fmt("%.2f", wall)
            << " s wall (" << o.jobs << " job" << (o.jobs == 1 ? "" : "s")
            << (o.repeat > 1 ? ", best of " + std::to_string(o.repeat) : std::string()) << "), peak RSS " << fmt("%.0f", rss) << " MB"
            << (failed ? ", " + std::to_string(failed) + " FAILED" : std::string()) << "\n";
  if (compile.size() <= kPerTuRows)
    for (const auto& j : compile)
      std::cout << "  TU:         " << fmt("%.2f", j.cpu) << " s CPU, " << fmt("%.0f", j.rss_mb) << " MB  " << j.label
                << "\n";
  if (slowest)
    std::cout << "  slowest TU: " << fmt("%.2f", slowest->cpu) << " s CPU, " << fmt("%.0f", slowest->rss_mb) << " MB  "
              << slowest->label << "\n";
  if (biggest && biggest != slowest)
    std::cout << "  largest TU: " << fmt("%.2f", biggest->cpu) << " s CPU, " << fmt("%.0f", biggest->rss_mb) << " MB  "
              << biggest->label << "\n";
  // A user's TU over the generated headers (what including a few kinds costs).
  if (!c.user_includes.empty() && !gen.empty() && gen[0].ok()) {
    const fs::path user_src = dir / "user.cpp";
    {
      std::ofstream f(user_src);
      for (const auto& inc : c.user_includes) f << "#include \"" << inc << "\"\n";
      f << "int user_tu() { return 0; }\n";
    }
    std::vector<Job> user{compile_job(o, dir / "gen" / "0", user_src, dir, "user")};
    run_jobs(user, 1);
    std::string names;
    for (const auto& inc : c.user_includes) names += (names.empty() ? "" : " + ") + inc;
    if (user[0].ok())
      std::cout << "  user TU:    " << fmt("%.2f", user[0].cpu) << " s CPU, " << fmt("%.0f", user[0].rss_mb)
                << " MB  (includes " << names << ")\n";
    else std::cout << "  user TU:    FAILED:\n" << head_of(user[0].log, 12);
  }
  // 3. The floor: a TU with only the standard and rr/core includes the generated files use, i.e.
  // what every TU pays before any generated code.
  if (!runtime_includes.empty()) {
    const fs::path floor_src = dir / "floor.cpp";
    {
      std::ofstream f(floor_src);
      for (const auto& inc : runtime_includes) f << inc << "\n";
    }
    std::vector<Job> floor{compile_job(o, dir, floor_src, dir, "floor")};
    run_jobs(floor, 1);
    for (int r = 1; r < o.repeat; ++r) {
      std::vector<Job> again = floor;
      run_jobs(again, 1);
      if (again[0].cpu < floor[0].cpu) floor[0] = again[0];
    }
    if (floor[0].ok())
      std::cout << "  floor:      " << fmt("%.2f", floor[0].cpu) << " s CPU, " << fmt("%.0f", floor[0].rss_mb)
                << " MB per TU for the " << runtime_includes.size() << " standard/rr/core includes alone; x "
                << compile.size() << " TUs = " << fmt("%.0f", floor[0].cpu * static_cast<double>(compile.size())) << " s ("
                << fmt("%.0f", cpu > 0 ? 100.0 * floor[0].cpu * static_cast<double>(compile.size()) / cpu : 0.0)
                << "% of the compile CPU)\n";
    else
      std::cout << "  floor:      FAILED to compile the includes alone:\n" << head_of(floor[0].log, 12);
  }
  std::cout << "  summary:    " << c.name << tag << " | " << (hpp_lines + cpp_lines) << " lines | " << compile.size()
            << " TUs | " << fmt("%.2f", cpu) << " s CPU | " << fmt("%.2f", wall) << " s wall | " << fmt("%.0f", rss)
            << " MB peak RSS\n\n";
  std::cout.flush();
  if (!o.keep) fs::remove_all(dir);
  CaseResult res;
  res.lines = hpp_lines + cpp_lines;
  res.tus = compile.size();
  res.failed = failed;
  res.cpu = cpu;
  res.rss = rss;
  if (slowest) {
    res.slowest_cpu = slowest->cpu;
    res.slowest_rss = slowest->rss_mb;
  }
  for (std::size_t k = 0; k < compile.size(); ++k)
    res.per_tu.push_back({tu_sources[k], compile[k].cpu, compile[k].rss_mb});
  return res;
}

// The side-by-side table of --baseline-rrgen: per case, the baseline's figures, this build's and
// their ratio (after / before).
void print_comparison(const std::vector<std::pair<std::string, std::pair<CaseResult, CaseResult>>>& rows) {
  auto ratio = [](double after, double before) { return before > 0 ? fmt("%.2f", after / before) : std::string("-"); };
  std::cout << "== baseline (before) beside this build (after)\n\n"
            << "| case | lines before → after | TUs | CPU s before → after (×) | slowest TU CPU s before → after (×) | "
               "peak RSS MB before → after (×) |\n"
            << "| --- | --- | --- | --- | --- | --- |\n";
  for (const auto& [name, pair] : rows) {
    const CaseResult& b = pair.first;
    const CaseResult& a = pair.second;
    std::cout << "| " << name << " | " << b.lines << " → " << a.lines << " | " << b.tus << " → " << a.tus << " | "
              << fmt("%.2f", b.cpu) << " → " << fmt("%.2f", a.cpu) << " (" << ratio(a.cpu, b.cpu) << ") | "
              << fmt("%.2f", b.slowest_cpu) << " → " << fmt("%.2f", a.slowest_cpu) << " ("
              << ratio(a.slowest_cpu, b.slowest_cpu) << ") | " << fmt("%.0f", b.rss) << " → " << fmt("%.0f", a.rss)
              << " (" << ratio(a.rss, b.rss) << ") |"
              << (a.failed || b.failed ? " FAILED TUs: " + std::to_string(b.failed) + " → " + std::to_string(a.failed)
                                       : std::string())
              << "\n";
  }
  std::cout << "\n";
  // Small cases: each TU's CPU and peak RSS beside the previous state's (a unit written in parts
  // by one rrgen is one TU per part; a TU that only one side compiles shows "-" on the other).
  bool header = false;
  for (const auto& [name, pair] : rows) {
    const CaseResult& b = pair.first;
    const CaseResult& a = pair.second;
    if (b.per_tu.size() > kPerTuRows || a.per_tu.size() > kPerTuRows) continue;
    if (!header) {
      std::cout << "| case: TU | CPU s before | peak RSS MB before | CPU s after | peak RSS MB after |\n"
                << "| --- | --- | --- | --- | --- |\n";
      header = true;
    }
    std::set<std::string> sources;
    for (const auto* side : {&b, &a})
      for (const auto& t : side->per_tu) sources.insert(t.source);
    auto cell = [](const CaseResult& r, const std::string& src, bool cpu) {
      for (const auto& t : r.per_tu)
        if (t.source == src) return cpu ? fmt("%.2f", t.cpu) : fmt("%.0f", t.rss);
      return std::string("-");
    };
    for (const auto& src : sources)
      std::cout << "| " << name << ": " << src << " | " << cell(b, src, true) << " | " << cell(b, src, false) << " | "
                << cell(a, src, true) << " | " << cell(a, src, false) << " |\n";
  }
  if (header) std::cout << "\n";
}

int usage(int code) {
  (code ? std::cerr : std::cout)
      << "usage: bench_compile [--cxx COMPILER] [--opt FLAG] [--jobs N] [--repeat N] [--unity] [--case NAME]... "
         "[--keep] CORPUS_DIR\n"
         "  --cxx COMPILER  compiler to run (default: the build's, " RRGEN_BENCH_CXX ")\n"
         "  --opt FLAG      optimisation flag (default: -O0)\n"
         "  --jobs N        compiler runs in parallel (default: 1; wall time only, CPU is summed)\n"
         "  --repeat N      compile each TU N times and keep its best run (default: 1)\n"
         "  --unity         compile one unity source per input file (rrgen --aggregate, as rrgen_add_types\n"
         "                  builds) instead of every generated source on its own\n"
         "  --case NAME     workflow, alertmanagerconfig, corpus or kubernetes; repeatable (default: all four)\n"
         "  --keep          keep the temporary directory (generated code, objects, logs)\n"
         "  --baseline-rrgen PATH  also run every case with this rrgen (the previous state), just before\n"
         "                  this build's, and print both side by side\n";
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  std::vector<std::string> wanted;
  std::string root_arg;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](std::string& into) {
      if (i + 1 >= argc) std::exit(usage(2));
      into = argv[++i];
    };
    std::string v;
    if (a == "--help" || a == "-h") return usage(0);
    if (a == "--cxx") {
      value(o.cxx);
    } else if (a == "--opt") {
      value(o.opt);
    } else if (a == "--jobs") {
      value(v);
      o.jobs = std::max(1, std::atoi(v.c_str()));
    } else if (a == "--repeat") {
      value(v);
      o.repeat = std::max(1, std::atoi(v.c_str()));
    } else if (a == "--case") {
      value(v);
      wanted.push_back(v);
    } else if (a == "--keep") {
      o.keep = true;
    } else if (a == "--unity") {
      o.unity = true;
    } else if (a == "--baseline-rrgen") {
      value(o.baseline_rrgen);
    } else if (a.empty() || a[0] == '-' || !root_arg.empty()) {
      return usage(2);
    } else {
      root_arg = a;
    }
  }
  if (root_arg.empty()) return usage(2);
  o.root = fs::absolute(root_arg);
  if (!fs::is_directory(o.root / "crds")) {
    std::cerr << "bench_compile: " << root_arg << " has no crds/ directory\n";
    return 2;
  }
  if (wanted.empty()) wanted = {"workflow", "alertmanagerconfig", "corpus", "kubernetes"};

  std::vector<Case> cases;
  for (const auto& w : wanted) {
    if (w == "workflow") {
      cases.push_back({"workflow", {"crds/argo-workflows/argoproj.io_workflows.yaml"}, false, {}, 0, {}});
    } else if (w == "alertmanagerconfig") {
      cases.push_back({"alertmanagerconfig",
                       {"crds/prometheus-operator/monitoring.coreos.com_alertmanagerconfigs.yaml"},
                       false,
                       {},
                       0,
                       {}});
    } else if (w == "kubernetes") {
      // rr::builtin: the runtime's shapes and the facts of the whole Kubernetes API, in one run.
      Case c{"kubernetes", {std::string(RRGEN_BENCH_SCHEMAS_DIR) + "/meta-v1.yaml"},   true, {"--namespace", "k8s"},
             16,           {"k8s/apps/v1/stateful_set.hpp", "k8s/core/v1/service.hpp"}};
      std::vector<std::string> facts;
      for (const auto& e : fs::directory_iterator(fs::path(RRGEN_BENCH_SCHEMAS_DIR) / "kubernetes-1.35"))
        if (e.path().extension() == ".yaml") facts.push_back(e.path().string());
      std::sort(facts.begin(), facts.end());
      c.inputs.insert(c.inputs.end(), facts.begin(), facts.end());
      cases.push_back(std::move(c));
    } else if (w == "corpus") {
      Case c{"corpus", {}, false, {}, 0, {}};
      for (const auto& project : fs::directory_iterator(o.root / "crds"))
        if (project.is_directory())
          for (const auto& e : fs::directory_iterator(project.path()))
            if (e.is_regular_file() && e.path().extension() == ".yaml")
              c.inputs.push_back(fs::relative(e.path(), o.root).generic_string());
      if (fs::is_directory(o.root / "openapi"))
        for (const auto& e : fs::directory_iterator(o.root / "openapi"))
          if (e.is_regular_file() && e.path().extension() == ".json")
            c.inputs.push_back(fs::relative(e.path(), o.root).generic_string());
      std::sort(c.inputs.begin(), c.inputs.end());
      cases.push_back(std::move(c));
    } else {
      std::cerr << "bench_compile: unknown case '" << w << "'\n";
      return usage(2);
    }
  }
  for (const auto& c : cases)
    for (const auto& in : c.inputs)
      if (!fs::exists(o.root / in)) {
        std::cerr << "bench_compile: " << (o.root / in).string() << " does not exist\n";
        return 2;
      }

  std::string tmpl = (fs::temp_directory_path() / "rrgen_bench_compile.XXXXXX").string();
  if (!mkdtemp(tmpl.data())) {
    std::cerr << "bench_compile: mkdtemp: " << std::strerror(errno) << "\n";
    return 3;
  }
  const fs::path work = tmpl;

  // The compiler's own identification, for the record.
  {
    Job v;
    v.argv = {o.cxx, "--version"};
    v.log = (work / "cxx-version.log").string();
    std::vector<Job> one{v};
    run_jobs(one, 1);
    std::ifstream in(one[0].log);
    std::string first;
    std::getline(in, first);
    std::cout << "bench_compile: compiler " << o.cxx << " (" << first << "), " << o.opt << ", " << o.jobs << " job(s)"
              << (o.unity ? ", unity sources" : "") << "\n"
              << "rrgen: " << RRGEN_BENCH_RRGEN
              << (o.baseline_rrgen.empty() ? std::string() : "\nbaseline rrgen: " + o.baseline_rrgen)
              << "\ncorpus: " << o.root.string() << "\nwork dir: " << work.string()
              << (o.keep ? " (kept)" : " (removed at the end)") << "\n"
              << "CPU = user + system seconds from wait4 (compiler driver and its cc1plus / -cc1 child); "
                 "peak RSS = largest ru_maxrss of one compiler run; MB = 2^20 bytes\n\n";
    if (!one[0].ok()) {
      std::cerr << "bench_compile: cannot run the compiler '" << o.cxx << "'\n";
      fs::remove_all(work);
      return 3;
    }
  }
  std::vector<std::pair<std::string, std::pair<CaseResult, CaseResult>>> rows;
  for (const auto& c : cases) {
    CaseResult before;
    if (!o.baseline_rrgen.empty()) before = run_case(c, o, work, o.baseline_rrgen, " [baseline]");
    const CaseResult after = run_case(c, o, work, RRGEN_BENCH_RRGEN, "");
    rows.push_back({c.name, {before, after}});
  }
  if (!o.baseline_rrgen.empty()) print_comparison(rows);
  if (!o.keep) fs::remove_all(work);
  return 0;
}
