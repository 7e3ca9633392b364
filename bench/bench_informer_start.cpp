// Informer start at N objects (docs/benchmarks.md, "Informer start"): time to sync and peak
// memory of the informer's process for the three initial lists (InformerOptions::initial_list):
// one unpaged LIST, LIST pages of 500, and the streaming watch (sendInitialEvents).
//
// The local cluster (rr::ApiServer over rr::Cluster, N realistic ConfigMaps) runs in a child
// process, and each mode's informer in a child of its own, so that neither the server's copy of
// the objects nor another mode's peak is in a measured high-water mark. A client child reports
// its VmHWM (/proc/self/status) after the sync, and its VmRSS before the informer started.
//
// Usage: bench_informer_start [--objects N[,N...]]   (default 10000,100000)
//        bench_informer_start --serve N               (internal: the server process)
//        bench_informer_start --client URL MODE       (internal: one informer; MODE unpaged|paged|streaming)
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "bench_objects.hpp"
#include "bench_util.hpp"
#include "rr/apiserver/api_server.hpp"
#include "rr/cluster/cluster.hpp"
#include "rr/controller/informer.hpp"
#include "rr/http_client/http_client.hpp"

extern char** environ;

namespace {

const char* const kModes[] = {"unpaged", "paged", "streaming"};

rr::InitialList mode_of(const std::string& name) {
  if (name == "unpaged") return rr::InitialList::unpaged;
  if (name == "paged") return rr::InitialList::paged;
  if (name == "streaming") return rr::InitialList::streaming;
  throw std::invalid_argument("unknown mode " + name);
}

// A "VmHWM:" or "VmRSS:" line of /proc/self/status, in MB.
double status_mb(const char* field) {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(field, 0) == 0) return std::strtod(line.c_str() + std::strlen(field), nullptr) / 1024.0;
  }
  return 0;
}

rr::KindInfo config_maps(rr::Client& client) { return client.kind_info({"", "v1", "ConfigMap"}); }

// The server child: N ConfigMaps, served until its stdin closes. Prints its URL.
int serve(int n) {
  auto cluster = std::make_shared<rr::Cluster>();
  rr::ApiServer server(cluster);
  const rr::KindInfo cm = *cluster->find_kind({"", "v1", "ConfigMap"});
  for (int i = 0; i < n; ++i) cluster->create(cm, bench::realistic_config_map(i));
  server.start();
  std::printf("%s\n", server.url().c_str());
  std::fflush(stdout);
  char c = 0;
  while (read(STDIN_FILENO, &c, 1) == 1) {
  }
  return 0;
}

// A client child: one informer until it has synced; prints "seconds cpu_seconds base_mb hwm_mb objects".
int client(const std::string& url, const std::string& mode) {
  rr::RestConfig config;
  config.host = url;
  config.qps = 0;  // no client-side rate limit: the figures are the transport's
  auto http = std::make_shared<rr::HttpClient>(config);
  const rr::KindInfo cm = config_maps(*http);
  const double base = status_mb("VmRSS:");
  rr::InformerOptions options;
  options.namespace_ = "default";
  options.initial_list = mode_of(mode);
  rr::Informer informer(http, cm, options);
  const bench::Stopwatch watch;
  std::jthread run([&](std::stop_token stop) { informer.run(stop); });
  if (!informer.wait_for_sync(run.get_stop_token(), std::chrono::minutes(10))) {
    std::fprintf(stderr, "no sync within 10 minutes\n");
    return 1;
  }
  const bench::Times took = watch.elapsed();
  std::printf("%.3f %.3f %.1f %.1f %zu\n", took.wall, took.cpu, base, status_mb("VmHWM:"), informer.store().size());
  std::fflush(stdout);
  std::_Exit(0);  // the figures are out; skip tearing down 100,000 objects
}

// Starts this program with `args`; its stdout is returned readable, its stdin writable (or closed).
struct Child {
  pid_t pid = -1;
  int out = -1;  // the child's stdout
  int in = -1;   // the child's stdin
};

Child spawn_self(const std::vector<std::string>& args) {
  int out[2], in[2];
  if (pipe(out) != 0 || pipe(in) != 0) throw std::runtime_error("pipe failed");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, in[0], STDIN_FILENO);
  for (int fd : {out[0], out[1], in[0], in[1]}) posix_spawn_file_actions_addclose(&actions, fd);
  std::vector<char*> argv{const_cast<char*>("/proc/self/exe")};
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  Child child;
  const int failed = posix_spawn(&child.pid, "/proc/self/exe", &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(out[1]);
  close(in[0]);
  if (failed != 0) throw std::runtime_error("posix_spawn failed");
  child.out = out[0];
  child.in = in[1];
  return child;
}

std::string read_line(int fd) {
  std::string line;
  char c = 0;
  while (read(fd, &c, 1) == 1 && c != '\n') line.push_back(c);
  return line;
}

int finish(Child& child) {
  if (child.in >= 0) close(child.in);
  if (child.out >= 0) close(child.out);
  int status = 0;
  waitpid(child.pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

struct Result {
  double wall = 0, cpu = 0, base = 0, hwm = 0;
  std::size_t objects = 0;
};

Result measure(const std::string& url, const char* mode) {
  Child child = spawn_self({"--client", url, mode});
  std::istringstream line(read_line(child.out));
  Result r;
  line >> r.wall >> r.cpu >> r.base >> r.hwm >> r.objects;
  if (finish(child) != 0 || !line) throw std::runtime_error(std::string("the ") + mode + " client failed");
  return r;
}

std::vector<int> counts_of(const char* list) {
  std::vector<int> out;
  std::stringstream in(list);
  std::string item;
  while (std::getline(in, item, ',')) out.push_back(std::atoi(item.c_str()));
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 3 && std::strcmp(argv[1], "--serve") == 0) return serve(std::atoi(argv[2]));
  if (argc == 4 && std::strcmp(argv[1], "--client") == 0) return client(argv[2], argv[3]);
  std::vector<int> counts{10000, 100000};
  if (argc == 3 && std::strcmp(argv[1], "--objects") == 0) counts = counts_of(argv[2]);
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  std::printf("bench_informer_start (%s, %s): ConfigMaps of ~1.3 KB over HTTP on loopback\n", RRGEN_BENCH_BUILD_TYPE,
              bench::compiler_name());
  std::printf("%9s  %-9s  %9s  %9s  %10s  %10s  %12s\n", "objects", "mode", "wall s", "cpu s", "base MB", "peak MB",
              "peak-base MB");
  for (const int n : counts) {
    Child server = spawn_self({"--serve", std::to_string(n)});
    const std::string url = read_line(server.out);
    if (url.empty()) throw std::runtime_error("the server process printed no URL");
    for (const char* mode : kModes) {
      const Result r = measure(url, mode);
      if (r.objects != static_cast<std::size_t>(n)) throw std::runtime_error("the informer holds a wrong count");
      std::printf("%9d  %-9s  %9.2f  %9.2f  %10.1f  %10.1f  %12.1f\n", n, mode, r.wall, r.cpu, r.base, r.hwm,
                  r.hwm - r.base);
    }
    finish(server);
  }
  return 0;
}
