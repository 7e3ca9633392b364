// bench_operator: what the reconciler generator costs a user, on samples/webapp-operator.
//
// 1. `rrgen generate --spec reconciler.yaml --out DIR --stem webapp crds/webapps.yaml`: CPU time
//    and peak RSS of a first run into an empty directory and of a second run over its output
//    (a no-op: "0 file(s) written"), median of --runs runs; files and bytes generated.
// 2. Compile time and peak RSS of each translation unit a user's build compiles (add_reconciler):
//    the types aggregate, the generated wiring, the user's hooks, the generated wiring test and
//    one user test TU, beside a "floor" TU holding only the runtime headers the wiring includes,
//    a TU holding only webapp_hooks.hpp (what a hooks file pays before its own code) and one
//    holding only the rr/ headers webapp_hooks.hpp and the wiring header include (the runtime's
//    share of it, without the generated kinds).
//    Each compiler run is `CXX -std=c++20 -O0 -c -I... SRC -o OBJ`, median of --runs runs.
// Every child is started with fork/exec and measured with wait4: CPU = ru_utime + ru_stime,
// peak RSS = ru_maxrss; wait4 accounts the descendants the child waited for, so the compiler
// driver's cc1plus / clang -cc1 is included. (A small sequential copy of bench_compile's runner.)
//
// 3. With --baseline-rrgen PATH (the previous state's rrgen) the sample is generated a second time
//    with it, and each TU is compiled against both outputs, the baseline's run right before this
//    build's, so both columns see the same load. --baseline-source DIR (a checkout of the previous
//    state) also takes the runtime headers (runtime/*/include) and the sample's own sources (hooks,
//    tests) of the baseline from DIR; without it both sides use this tree's. --baseline-build DIR
//    (the baseline's build directory) also takes the generated headers the sample includes (the
//    built-in kinds, their dies) from DIR, so changes to the generated types show too.
//
// usage: bench_operator [--runs N] [--opt FLAG] [--cxx COMPILER] [--keep] [--baseline-rrgen PATH [--baseline-source
// DIR] [--baseline-build DIR]] [SAMPLE_DIR]
// Figures are printed; nothing is asserted.
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
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
#ifndef RRGEN_BENCH_INCLUDES
#error "RRGEN_BENCH_INCLUDES ('|'-separated include dirs of the runtime and its dependencies) must be defined by the build"
#endif
#ifndef RRGEN_BENCH_SAMPLE_DIR
#error "RRGEN_BENCH_SAMPLE_DIR (samples/webapp-operator) must be defined by the build"
#endif
#ifndef RRGEN_BENCH_SOURCE_DIR
#error "RRGEN_BENCH_SOURCE_DIR (the project's source root) must be defined by the build"
#endif
#ifndef RRGEN_BENCH_BINARY_DIR
#error \
    "RRGEN_BENCH_BINARY_DIR (the build directory, where the built-in kinds are generated) must be defined by the build"
#endif

namespace fs = std::filesystem;
using bench::fmt;

namespace {

constexpr const char* kStem = "webapp";

struct Run {
  int status = 0;
  double wall = 0, cpu = 0, rss_mb = 0;
  bool ok() const { return WIFEXITED(status) && WEXITSTATUS(status) == 0; }
};

// Runs argv as a child with stdout + stderr into `log`, waits for it with wait4.
Run run_child(const std::vector<std::string>& argv, const fs::path& log) {
  std::vector<std::string> owned = argv;
  std::vector<char*> args;
  for (auto& a : owned) args.push_back(a.data());
  args.push_back(nullptr);
  const double t0 = bench::wall_now();
  const pid_t pid = fork();
  if (pid < 0) {
    std::cerr << "bench_operator: fork: " << std::strerror(errno) << "\n";
    std::exit(3);
  }
  if (pid == 0) {
    const int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
      dup2(fd, 1);
      dup2(fd, 2);
      close(fd);
    }
    execvp(args[0], args.data());
    std::fprintf(stderr, "bench_operator: cannot run '%s': %s\n", args[0], std::strerror(errno));
    _exit(127);
  }
  Run r;
  rusage ru{};
  while (wait4(pid, &r.status, 0, &ru) < 0) {
    if (errno != EINTR) {
      std::cerr << "bench_operator: wait4: " << std::strerror(errno) << "\n";
      std::exit(3);
    }
  }
  r.wall = bench::wall_now() - t0;
  r.cpu = bench::seconds(ru.ru_utime) + bench::seconds(ru.ru_stime);
  r.rss_mb = static_cast<double>(ru.ru_maxrss) / 1024.0;  // KiB on Linux
  return r;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

// Median CPU, wall and peak RSS of several runs of one command (each figure on its own).
struct Figures {
  double cpu = 0, wall = 0, rss_mb = 0;
  bool ok = true;
};

Figures summarise(const std::vector<Run>& runs) {
  std::vector<double> cpu, wall, rss;
  Figures f;
  for (const auto& r : runs) {
    cpu.push_back(r.cpu);
    wall.push_back(r.wall);
    rss.push_back(r.rss_mb);
    f.ok = f.ok && r.ok();
  }
  f.cpu = median(cpu);
  f.wall = median(wall);
  f.rss_mb = median(rss);
  return f;
}

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string head_of(const fs::path& p, std::size_t max_lines) {
  std::ifstream in(p);
  std::string out, line;
  for (std::size_t n = 0; n < max_lines && std::getline(in, line); ++n) out += "      " + line + "\n";
  return out;
}

std::string last_line(const fs::path& p) {
  std::ifstream in(p);
  std::string line, last;
  while (std::getline(in, line))
    if (!line.empty()) last = line;
  return last;
}

struct Options {
  std::string cxx = RRGEN_BENCH_CXX;
  std::string opt = "-O0";
  int runs = 5;
  bool keep = false;
  fs::path sample = RRGEN_BENCH_SAMPLE_DIR;
  std::string rrgen = RRGEN_BENCH_RRGEN;
  std::string baseline_rrgen;  // empty: no baseline
  fs::path baseline_source;    // empty: the baseline uses this tree's runtime headers and sample
  fs::path baseline_build;     // empty: the baseline uses this build's generated built-in kinds
  std::string includes = RRGEN_BENCH_INCLUDES;
};

// The options of the baseline side: its rrgen, and with --baseline-source its sample sources and
// runtime include directories (this tree's runtime/... paths moved to the baseline's tree), and
// with --baseline-build its generated include directories (this build's paths moved to it).
Options baseline_of(const Options& o) {
  Options b = o;
  b.rrgen = o.baseline_rrgen;
  if (!o.baseline_source.empty()) b.sample = o.baseline_source / fs::relative(o.sample, RRGEN_BENCH_SOURCE_DIR);
  const std::string runtime_prefix = std::string(RRGEN_BENCH_SOURCE_DIR) + "/runtime/";
  const std::string build_prefix = std::string(RRGEN_BENCH_BINARY_DIR) + "/";
  b.includes.clear();
  std::stringstream ss(o.includes);
  for (std::string inc; std::getline(ss, inc, '|');) {
    if (!o.baseline_build.empty() && inc.rfind(build_prefix, 0) == 0)
      inc = (o.baseline_build / inc.substr(build_prefix.size())).string();
    else if (!o.baseline_source.empty() && inc.rfind(runtime_prefix, 0) == 0)
      inc = (o.baseline_source / "runtime" / inc.substr(runtime_prefix.size())).string();
    b.includes += (b.includes.empty() ? "" : "|") + inc;
  }
  return b;
}

std::vector<std::string> generate_argv(const Options& o, const fs::path& out) {
  return {o.rrgen,      "generate", "--spec", (o.sample / "reconciler.yaml").string(),      "--out",
          out.string(), "--stem",   kStem,    (o.sample / "crds" / "webapps.yaml").string()};
}

// 1. rrgen generate: a first run into an empty directory, then a second (no-op) run over it.
// Returns the output directory of the last first run (the code the compile step builds).
fs::path bench_generate(const Options& o, const fs::path& work, const std::string& tag) {
  const fs::path out = work / ("gen" + tag);
  std::vector<Run> first, second;
  std::string first_summary, second_summary;
  for (int i = 0; i < o.runs; ++i) {
    fs::remove_all(out);
    fs::create_directories(out);
    first.push_back(run_child(generate_argv(o, out), work / "logs" / "generate-first.log"));
    if (!first.back().ok()) {
      std::cout << "rrgen generate FAILED:\n" << head_of(work / "logs" / "generate-first.log", 20);
      std::exit(1);
    }
    first_summary = last_line(work / "logs" / "generate-first.log");
    second.push_back(run_child(generate_argv(o, out), work / "logs" / "generate-second.log"));
    second_summary = last_line(work / "logs" / "generate-second.log");
  }
  // The generated files by kind; rrgen's own bookkeeping (.rrgen-manifest) is counted apart.
  struct Tally {
    std::size_t files = 0;
    std::uintmax_t bytes = 0, lines = 0;
  };
  Tally cpp, yaml, other;
  for (const auto& e : fs::recursive_directory_iterator(out)) {
    if (!e.is_regular_file()) continue;
    const auto ext = e.path().extension();
    Tally& t = ext == ".cpp" || ext == ".hpp" ? cpp : ext == ".yaml" ? yaml : other;
    const std::string text = read_text(e.path());
    ++t.files;
    t.bytes += text.size();
    t.lines += static_cast<std::uintmax_t>(std::count(text.begin(), text.end(), '\n'));
  }
  const Figures f1 = summarise(first), f2 = summarise(second);
  std::cout << "== rrgen generate" << (tag.empty() ? "" : " [" + tag.substr(1) + "]") << " (median of " << o.runs
            << " runs)\n"
            << "  generated:   " << cpp.files << " C++ files (" << cpp.bytes << " bytes, " << cpp.lines << " lines), "
            << yaml.files << " YAML files (" << yaml.bytes << " bytes, " << yaml.lines << " lines), " << other.files
            << " other (" << other.bytes << " bytes)\n"
            << "  first run:   " << fmt("%.3f", f1.cpu) << " s CPU, " << fmt("%.3f", f1.wall) << " s wall, peak RSS "
            << fmt("%.1f", f1.rss_mb) << " MB  (" << first_summary << ")\n"
            << "  second run:  " << fmt("%.3f", f2.cpu) << " s CPU, " << fmt("%.3f", f2.wall) << " s wall, peak RSS "
            << fmt("%.1f", f2.rss_mb) << " MB  (" << second_summary << ")" << (f2.ok ? "" : " FAILED") << "\n\n";
  std::cout.flush();
  return out;
}

struct Unit {
  std::string label;
  fs::path source;
  bool includes_floor = true;  // includes the rr/reconcilers headers of the floor TU
  bool user_tu = true;         // one of the five TUs a user's build compiles (not a headers-only TU)
};

// CXX -std=c++20 OPT -c -I<gen> -I<sample/src> -I<runtime...> SRC -o OBJ
std::vector<std::string> compile_argv(const Options& o, const fs::path& gen, const fs::path& src, const fs::path& obj) {
  std::vector<std::string> argv = {o.cxx, "-std=c++20", o.opt, "-c", "-I" + gen.string(), "-I" + (o.sample / "src").string()};
  std::stringstream ss(o.includes);
  for (std::string inc; std::getline(ss, inc, '|');)  // never -I/usr/include: it breaks #include_next
    if (!inc.empty() && inc != "/usr/include") argv.push_back("-I" + inc);
  argv.insert(argv.end(), {src.string(), "-o", obj.string()});
  return argv;
}

// The runtime headers a hooks file needs: the rr/ headers webapp_hooks.hpp and the generated
// wiring header it includes name, written as one TU (without the generated kinds' headers).
fs::path runtime_headers_source(const Options& o, const fs::path& gen, const fs::path& out) {
  std::ofstream f(out);
  for (const fs::path& header : {o.sample / "src" / "webapp_hooks.hpp", gen / "webapp_reconciler.hpp"}) {
    std::istringstream text(read_text(header));
    for (std::string line; std::getline(text, line);)
      if (line.rfind("#include \"rr/", 0) == 0) f << line << "\n";
  }
  return out;
}

// The standard headers `source` reaches: every <...> include of the files its "..." includes
// reach (resolved against the side's include directories), written as one TU. What the runtime
// headers cost beyond it is theirs; the standard library's share no header design removes.
fs::path std_headers_source(const Options& o, const fs::path& gen, const fs::path& source, const fs::path& out) {
  std::vector<fs::path> dirs = {gen, o.sample / "src"};
  std::stringstream ss(o.includes);
  for (std::string inc; std::getline(ss, inc, '|');)
    if (!inc.empty()) dirs.emplace_back(inc);
  std::set<std::string> system;
  std::set<fs::path> seen;
  std::vector<fs::path> todo = {source};
  while (!todo.empty()) {
    const fs::path file = todo.back();
    todo.pop_back();
    if (!seen.insert(file).second) continue;
    std::istringstream text(read_text(file));
    for (std::string line; std::getline(text, line);) {
      if (line.rfind("#include ", 0) != 0 || line.size() < 12) continue;
      const char open = line[9];
      const std::size_t close = line.find(open == '<' ? '>' : '"', 10);
      if (close == std::string::npos) continue;
      const std::string name = line.substr(10, close - 10);
      if (open == '<') {
        if (name.find('/') == std::string::npos && name.find('.') == std::string::npos) system.insert(name);
        continue;
      }
      std::vector<fs::path> candidates = {file.parent_path() / name};
      for (const auto& d : dirs) candidates.push_back(d / name);
      for (const auto& c : candidates)
        if (fs::exists(c)) {
          todo.push_back(fs::canonical(c));
          break;
        }
    }
  }
  std::ofstream f(out);
  for (const auto& h : system) f << "#include <" << h << ">\n";
  return out;
}

// The TUs of the user's build (of one side: its generated code and its sample).
std::vector<Unit> units_of(const Options& o, const fs::path& gen, const fs::path& floor_src,
                           const fs::path& hooks_headers_src, const fs::path& runtime_headers_src,
                           const fs::path& std_headers_src) {
  return {
      {"floor (8 rr/reconcilers headers)", floor_src, true, false},
      {"standard headers the runtime headers of the hooks include", std_headers_src, false, false},
      {"runtime headers of the hooks (their rr/ includes)", runtime_headers_src, false, false},
      {"hooks headers (webapp_hooks.hpp alone)", hooks_headers_src, true, false},
      {"types aggregate (webapp_types.cpp)", gen / "webapp_types.cpp", false},
      {"wiring (webapp_reconciler.cpp)", gen / "webapp_reconciler.cpp"},
      {"hooks (src/webapp_hooks.cpp)", o.sample / "src" / "webapp_hooks.cpp"},
      {"wiring test (webapp_wiring_test.cpp)", gen / "webapp_wiring_test.cpp"},
      {"user test (tests/deployment_test.cpp)", o.sample / "tests" / "deployment_test.cpp"},
  };
}

// One TU compiled --runs times; the medians.
Figures compile_unit(const Options& o, const fs::path& work, const fs::path& gen, const fs::path& src,
                     const std::string& id, const fs::path& log) {
  std::vector<Run> runs;
  for (int i = 0; i < o.runs; ++i) {
    runs.push_back(run_child(compile_argv(o, gen, src, work / ("unit" + id + ".o")), log));
    if (!runs.back().ok()) break;  // a failure does not get faster
  }
  return summarise(runs);
}

std::size_t line_count(const fs::path& p) {
  const std::string text = read_text(p);
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

// 2. Each TU of the user's build, compiled on its own --runs times; with a baseline, the same TU
// of the baseline's side right before it.
void bench_compile(const Options& o, const fs::path& work, const fs::path& gen, const Options* base,
                   const fs::path& base_gen) {
  const fs::path floor_src = work / "floor.cpp";
  {
    std::ofstream f(floor_src);
    for (const char* h :
         {"root", "sub_reconciler", "conditions", "child", "resource", "sequence", "sync", "with_finalizer"})
      f << "#include \"rr/reconcilers/" << h << ".hpp\"\n";
  }
  // What a hooks file pays before its own code: the header rrgen scaffolds for it, which includes
  // the generated wiring header and the runtime headers the hooks need (issue 17: under 0.5 s).
  const fs::path hooks_headers_src = work / "hooks_headers.cpp";
  std::ofstream(hooks_headers_src) << "#include \"webapp_hooks.hpp\"\n";
  const fs::path runtime_src = runtime_headers_source(o, gen, work / "runtime_headers.cpp");
  const std::vector<Unit> units = units_of(o, gen, floor_src, hooks_headers_src, runtime_src,
                                           std_headers_source(o, gen, runtime_src, work / "std_headers.cpp"));
  std::vector<Unit> base_units;
  if (base) {
    const fs::path base_runtime_src = runtime_headers_source(*base, base_gen, work / "runtime_headers-baseline.cpp");
    base_units = units_of(*base, base_gen, floor_src, hooks_headers_src, base_runtime_src,
                          std_headers_source(*base, base_gen, base_runtime_src, work / "std_headers-baseline.cpp"));
  }
  std::cout << "== compile, " << o.opt << " (median of " << o.runs << " runs per TU)\n\n";
  if (base)
    std::cout << "| TU | source lines before → after | CPU s before → after (×) | wall s before → after | "
                 "peak RSS MB before → after (×) | CPU over floor s before → after |\n"
              << "| --- | --- | --- | --- | --- | --- |\n";
  else
    std::cout << "| TU | source lines | CPU s | wall s | peak RSS MB | CPU over floor s |\n"
              << "| --- | --- | --- | --- | --- | --- |\n";
  std::cout.flush();
  double floor_cpu = 0, total_cpu = 0, base_floor_cpu = 0, base_total_cpu = 0;
  std::vector<std::string> failures;
  auto over = [](const Unit& u, std::size_t k, const Figures& f, double floor) {
    return k == 0 || !u.includes_floor ? std::string("-") : fmt("%+.2f", f.cpu - floor);
  };
  auto ratio = [](double after, double before) { return before > 0 ? fmt("%.2f", after / before) : std::string("-"); };
  for (std::size_t k = 0; k < units.size(); ++k) {
    const Unit& u = units[k];
    Figures b;
    std::size_t base_lines = 0;
    if (base) {
      const Unit& bu = base_units[k];
      base_lines = line_count(bu.source);
      const fs::path blog = work / "logs" / ("compile-baseline-" + std::to_string(k) + ".log");
      b = compile_unit(*base, work, base_gen, bu.source, "b" + std::to_string(k), blog);
      if (k == 0) base_floor_cpu = b.cpu;
      else if (bu.user_tu) base_total_cpu += b.cpu;
      if (!b.ok) failures.push_back("[baseline] " + bu.label + ":\n" + head_of(blog, 15));
    }
    const fs::path log = work / "logs" / ("compile-" + std::to_string(k) + ".log");
    const Figures f = compile_unit(o, work, gen, u.source, std::to_string(k), log);
    if (k == 0) floor_cpu = f.cpu;
    else if (u.user_tu) total_cpu += f.cpu;  // the five user TUs, not the headers-only TUs
    const std::size_t lines = line_count(u.source);
    if (base)
      std::cout << "| " << u.label << " | " << base_lines << " → " << lines << " | " << fmt("%.2f", b.cpu) << " → "
                << fmt("%.2f", f.cpu) << " (" << ratio(f.cpu, b.cpu) << ") | " << fmt("%.2f", b.wall) << " → "
                << fmt("%.2f", f.wall) << " | " << fmt("%.0f", b.rss_mb) << " → " << fmt("%.0f", f.rss_mb) << " ("
                << ratio(f.rss_mb, b.rss_mb) << ") | " << over(u, k, b, base_floor_cpu) << " → "
                << over(u, k, f, floor_cpu) << (f.ok && b.ok ? "" : " FAILED") << " |\n";
    else
      std::cout << "| " << u.label << " | " << lines << " | " << fmt("%.2f", f.cpu) << " | " << fmt("%.2f", f.wall)
                << " | " << fmt("%.0f", f.rss_mb) << " | " << over(u, k, f, floor_cpu) << (f.ok ? "" : " FAILED")
                << " |\n";
    std::cout.flush();
    if (!f.ok) failures.push_back(u.label + ":\n" + head_of(log, 15));
  }
  // The types aggregate does not include the reconcilers headers; the four other TUs do.
  std::cout << "\n  the five user TUs: " << fmt("%.2f", total_cpu) << " s CPU";
  if (base)
    std::cout << " (baseline " << fmt("%.2f", base_total_cpu) << " s, × " << ratio(total_cpu, base_total_cpu) << ")";
  std::cout << "; the floor is " << fmt("%.2f", floor_cpu) << " s of each TU but the types aggregate";
  if (base) std::cout << " (baseline " << fmt("%.2f", base_floor_cpu) << " s)";
  std::cout << "\n";
  for (const auto& f : failures) std::cout << "  FAILED to compile " << f;
}

int usage(int code) {
  (code ? std::cerr : std::cout)
      << "usage: bench_operator [--runs N] [--opt FLAG] [--cxx COMPILER] [--keep] [--baseline-rrgen PATH "
         "[--baseline-source DIR] [--baseline-build DIR]]\n"
         "       [SAMPLE_DIR]\n"
         "  --runs N        runs of each measured command; medians are printed (default: 5)\n"
         "  --opt FLAG      optimisation flag of the compiler runs (default: -O0)\n"
         "  --cxx COMPILER  compiler to run (default: the build's, " RRGEN_BENCH_CXX ")\n"
         "  --keep          keep the temporary directory (generated code, objects, logs)\n"
         "  --baseline-rrgen PATH   also generate with this rrgen (the previous state) and compile both\n"
         "                  outputs side by side\n"
         "  --baseline-source DIR   the previous state's source tree: the baseline side's runtime headers\n"
         "                  and sample sources (default: this tree's)\n"
         "  --baseline-build DIR    the previous state's build directory: the baseline side's generated\n"
         "                  headers, the built-in kinds among them (default: this build's)\n"
         "  SAMPLE_DIR      the operator (default: " RRGEN_BENCH_SAMPLE_DIR ")\n";
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  bool sample_given = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) std::exit(usage(2));
      return argv[++i];
    };
    if (a == "--help" || a == "-h") return usage(0);
    if (a == "--runs") {
      o.runs = std::max(1, std::atoi(value().c_str()));
    } else if (a == "--opt") {
      o.opt = value();
    } else if (a == "--cxx") {
      o.cxx = value();
    } else if (a == "--keep") {
      o.keep = true;
    } else if (a == "--baseline-rrgen") {
      o.baseline_rrgen = value();
    } else if (a == "--baseline-source") {
      o.baseline_source = fs::absolute(value());
    } else if (a == "--baseline-build") {
      o.baseline_build = fs::absolute(value());
    } else if (a.empty() || a[0] == '-' || sample_given) {
      return usage(2);
    } else {
      o.sample = fs::absolute(a);
      sample_given = true;
    }
  }
  for (const fs::path& p : {o.sample / "reconciler.yaml", o.sample / "crds" / "webapps.yaml", o.sample / "src" / "webapp_hooks.cpp",
                           o.sample / "tests" / "deployment_test.cpp"})
    if (!fs::exists(p)) {
      std::cerr << "bench_operator: " << p.string() << " does not exist\n";
      return 2;
    }

  std::string tmpl = (fs::temp_directory_path() / "rrgen_bench_operator.XXXXXX").string();
  if (!mkdtemp(tmpl.data())) {
    std::cerr << "bench_operator: mkdtemp: " << std::strerror(errno) << "\n";
    return 3;
  }
  const fs::path work = tmpl;
  fs::create_directories(work / "logs");

  const Run version = run_child({o.cxx, "--version"}, work / "logs" / "cxx-version.log");
  std::string first;
  {
    std::ifstream in(work / "logs" / "cxx-version.log");
    std::getline(in, first);
  }
  std::cout << "bench_operator: compiler " << o.cxx << " (" << first << "), " << o.opt << "; bench built by "
            << bench::compiler_name() << "\n"
            << "rrgen: " << RRGEN_BENCH_RRGEN << "\nsample: " << o.sample.string() << "\nwork dir: " << work.string()
            << (o.keep ? " (kept)" : " (removed at the end)") << "\n"
            << "CPU = user + system seconds from wait4 (compiler driver and its cc1plus / -cc1 child); "
               "peak RSS = ru_maxrss; MB = 2^20 bytes\n\n";
  if (!version.ok()) {
    std::cerr << "bench_operator: cannot run the compiler '" << o.cxx << "'\n";
    fs::remove_all(work);
    return 3;
  }
  if ((!o.baseline_source.empty() || !o.baseline_build.empty()) && o.baseline_rrgen.empty()) {
    std::cerr << "bench_operator: --baseline-source and --baseline-build need --baseline-rrgen\n";
    fs::remove_all(work);
    return 2;
  }
  if (!o.baseline_rrgen.empty()) {
    const Options base = baseline_of(o);
    std::cout << "baseline rrgen: " << base.rrgen << "\nbaseline sample: " << base.sample.string() << "\n\n";
    const fs::path base_gen = bench_generate(base, work, "-baseline");
    const fs::path gen = bench_generate(o, work, "");
    bench_compile(o, work, gen, &base, base_gen);
  } else {
    const fs::path gen = bench_generate(o, work, "");
    bench_compile(o, work, gen, nullptr, {});
  }
  if (!o.keep) fs::remove_all(work);
  return 0;
}
