// Secure metrics figures (docs/benchmarks.md): the cost of a /metrics scrape through rr::Manager on
// loopback, beside its baseline in the same run, plain HTTP without authentication
// (--metrics-secure=false). Rows, each with a keep-alive client:
//   plain HTTP                 no TLS, no reviews
//   HTTPS, reviews cached      one bearer token: its TokenReview and SubjectAccessReview answered
//                              from the cache after the first scrape
//   HTTPS, reviews uncached    a new ServiceAccount's token every scrape: a TokenReview and a
//                              SubjectAccessReview through the manager's client per scrape
// The API server is the local cluster (rr::apiserver, RBAC on) in this process, over plain HTTP,
// so its CPU is counted too; the wall-clock latency is what a scraper sees.
//
//   bench_metrics_auth [--scrapes N]   (default 400 per row)
#include <httplib.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

#include "bench_util.hpp"
#include "metrics_auth_cluster.hpp"
#include "rr/controller/metrics.hpp"
#include "rr/manager/manager.hpp"

using Clock = std::chrono::steady_clock;
using rr::Json;

namespace {

struct Row {
  const char* name;
  double per_scrape_ms_p50 = 0, per_scrape_ms_p99 = 0, scrapes_per_s = 0, cpu_us_per_scrape = 0;
  double reviews_per_scrape = 0;
};

// Scrapes /metrics `tokens.size()` times on one kept-alive connection, token i for scrape i.
Row scrape_row(const char* name, int port, bool tls, const std::vector<std::string>& tokens,
               const rr::test::CountingClient* reviews) {
  std::unique_ptr<httplib::ClientImpl> client;
  if (tls) {
    auto ssl = std::make_unique<httplib::SSLClient>("127.0.0.1", port);
    ssl->enable_server_certificate_verification(false);
    client = std::move(ssl);
  } else {
    client = std::make_unique<httplib::ClientImpl>("127.0.0.1", port);
  }
  client->set_keep_alive(true);
  const auto count = [reviews] {
    return reviews == nullptr ? 0 : reviews->created("tokenreviews") + reviews->created("subjectaccessreviews");
  };
  const int before = count();
  std::vector<double> latencies;
  latencies.reserve(tokens.size());
  const bench::Stopwatch watch;
  for (const std::string& token : tokens) {
    httplib::Headers headers;
    if (!token.empty()) headers.emplace("Authorization", "Bearer " + token);
    const auto start = Clock::now();
    const auto answer = client->Get("/metrics", headers);
    latencies.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
    if (!answer || answer->status != 200) {
      std::fprintf(stderr, "%s: scrape failed (%d)\n", name, answer ? answer->status : 0);
      std::exit(1);
    }
  }
  const bench::Times spent = watch.elapsed();
  std::sort(latencies.begin(), latencies.end());
  const auto n = static_cast<double>(latencies.size());
  Row row{name};
  row.per_scrape_ms_p50 = latencies[latencies.size() / 2];
  row.per_scrape_ms_p99 = latencies[std::min(latencies.size() - 1, static_cast<std::size_t>(n * 0.99))];
  row.scrapes_per_s = n / spent.wall;
  row.cpu_us_per_scrape = spent.cpu / n * 1e6;
  row.reviews_per_scrape = (count() - before) / n;
  return row;
}

// A manager serving /metrics on 127.0.0.1 until destroyed.
struct RunningManager {
  rr::Manager manager;
  std::jthread thread;
  RunningManager(rr::ManagerOptions options, std::shared_ptr<rr::Client> api)
      : manager(std::move(options), std::move(api), rr::Logger()),
        thread([this](std::stop_token stop) { manager.run(stop); }) {
    for (int i = 0; i < 500 && manager.metrics_port() == 0; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    // A body of a realistic size: a few families with labels.
    auto& reconciles = manager.metrics().counter("controller_runtime_reconcile_total", "Reconciles.",
                                                 {"controller", "result"});
    for (const char* result : {"success", "error", "requeue", "requeue_after"})
      reconciles.with({"webapp", result}).inc();
  }
};

rr::ManagerOptions options(bool secure) {
  rr::ManagerOptions o;
  o.metrics_bind_address = "127.0.0.1:0";
  o.health_probe_bind_address = "0";
  o.metrics_secure = secure;
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  int scrapes = 400;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--scrapes") == 0 && i + 1 < argc) scrapes = std::max(10, std::atoi(argv[++i]));
  }
  rr::test::MetricsAuthCluster local;
  // Every ServiceAccount may scrape.
  local.bind_metrics_reader(
      {{"kind", "Group"}, {"apiGroup", "rbac.authorization.k8s.io"}, {"name", "system:serviceaccounts"}});
  const auto account_token = [&](const std::string& name) {
    local.add_account(name);
    return local.token(name);
  };
  auto api = local.manager_client();

  std::vector<std::string> no_tokens(static_cast<std::size_t>(scrapes));
  std::vector<std::string> one_token(static_cast<std::size_t>(scrapes), account_token("scraper"));
  std::vector<std::string> fresh_tokens;
  for (int i = 0; i < scrapes; ++i) fresh_tokens.push_back(account_token("scraper-" + std::to_string(i)));

  std::vector<Row> rows;
  {
    RunningManager plain(options(false), api);
    scrape_row("warm-up", plain.manager.metrics_port(), false, no_tokens, nullptr);
    rows.push_back(
        scrape_row("plain HTTP, no authentication", plain.manager.metrics_port(), false, no_tokens, api.get()));
  }
  {
    RunningManager secure(options(true), api);
    const int port = secure.manager.metrics_port();
    rows.push_back(scrape_row("HTTPS, reviews cached", port, true, one_token, api.get()));
    rows.push_back(scrape_row("HTTPS, reviews uncached", port, true, fresh_tokens, api.get()));
  }

  std::printf("bench_metrics_auth (%s build, %s), %d scrapes per row, one kept-alive connection\n",
              RRGEN_BENCH_BUILD_TYPE, bench::compiler_name(), scrapes);
  std::printf("%-32s %10s %10s %12s %14s %16s %10s\n", "row", "p50 ms", "p99 ms", "scrapes/s", "CPU us/scrape",
              "reviews/scrape", "x plain");
  for (const Row& row : rows) {
    std::printf("%-32s %10.3f %10.3f %12.0f %14.0f %16.2f %10.1f\n", row.name, row.per_scrape_ms_p50,
                row.per_scrape_ms_p99, row.scrapes_per_s, row.cpu_us_per_scrape, row.reviews_per_scrape,
                row.per_scrape_ms_p50 / rows.front().per_scrape_ms_p50);
  }
  return 0;
}
