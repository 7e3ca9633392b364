// Webhook figures (docs/benchmarks.md): admission requests per second through rr::webhook::Server
// over TLS on loopback with a keep-alive client (libcurl), p50/p99 latency, beside baselines in
// the same run: the same AdmissionWebhookAdapter called in process (no codec, no network), the
// server's respond() (the review codec, no network), plain HTTP on the same HTTP server (no TLS),
// and HTTPS without keep-alive (a handshake per request). Then CRD conversion throughput (objects
// per second) of Conversion<Hub>, in process and through the server.
//
//   bench_webhook [--seconds S]   (default 2 per row)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench_util.hpp"
#include "benchapi/v1/test_resource.hpp"
#include "benchgadget/v1/gadget.hpp"
#include "benchgadget/v1alpha1/gadget.hpp"
#include "rr/http_server/server.hpp"
#include "rr/reconcilers/sync.hpp"
#include "rr/webhook/admission_webhook_adapter.hpp"
#include "rr/webhook/conversion.hpp"
#include "rr/webhook/server.hpp"
#include "webhook_test_support.hpp"

using Clock = std::chrono::steady_clock;
using rr::Json;
using namespace rr::webhook;

namespace {

double seconds_per_row = 2.0;

// A mutating webhook of the kind a defaulting webhook is: labels and an image default, so every
// answer carries a JSON patch.
AdmissionWebhookAdapter<benchapi::v1::TestResource> defaulting_adapter() {
  return {.name = "Defaulting",
          .reconciler = rr::SyncReconciler<benchapi::v1::TestResource>{
              .sync = [](rr::Context&, benchapi::v1::TestResource& resource) -> rr::Error {
                resource.metadata.labels["app.kubernetes.io/managed-by"] = "bench";
                if (!resource.spec->image) resource.spec->image = "nginx:1.27";
                return {};
              }}};
}

AdmissionRequest create_request() {
  AdmissionRequest request;
  request.uid = "bench-uid";
  request.kind = {"testing.rrgen.dev", "v1", "TestResource"};
  request.resource = {"testing.rrgen.dev", "v1", "testresources"};
  request.name = "r";
  request.namespace_ = "default";
  request.operation = Operation::Create;
  request.user_info.username = "kubernetes-admin";
  request.user_info.groups = {"system:masters", "system:authenticated"};
  request.object = Json::parse(R"({"apiVersion":"testing.rrgen.dev/v1","kind":"TestResource",
    "metadata":{"name":"r","namespace":"default","labels":{"team":"a"}},
    "spec":{"replicas":2,"fields":{"a":"1","b":"2","c":"3"}}})");
  request.options = Json::parse(R"({"apiVersion":"meta.k8s.io/v1","kind":"CreateOptions"})");
  return request;
}

struct Row {
  std::size_t calls = 0;
  std::vector<double> latencies_us;
  bench::Times times;
};

// Calls `call` for seconds_per_row, timing each call.
Row measure(const std::function<void()>& call) {
  for (int i = 0; i < 50; ++i) call();  // warm up: connections, allocator, caches
  Row row;
  bench::Stopwatch sw;
  const auto start = Clock::now();
  do {
    const auto before = Clock::now();
    call();
    row.latencies_us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - before).count());
    ++row.calls;
  } while (std::chrono::duration<double>(Clock::now() - start).count() < seconds_per_row);
  row.times = sw.elapsed();
  return row;
}

double percentile(std::vector<double> values, double p) {
  std::sort(values.begin(), values.end());
  return values[std::min(values.size() - 1, static_cast<std::size_t>(p * static_cast<double>(values.size())))];
}

void report(const char* label, const Row& row, std::size_t objects_per_call = 1) {
  std::printf("  %-34s %10s /s  p50 %8.1f us  p99 %8.1f us  cpu/call %7.1f us\n", label,
              bench::fmt("%.0f", static_cast<double>(row.calls * objects_per_call) / row.times.wall).c_str(),
              percentile(row.latencies_us, 0.50), percentile(row.latencies_us, 0.99),
              row.times.cpu / static_cast<double>(row.calls) * 1e6);
}

void check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "bench_webhook: %s\n", what);
    std::exit(1);
  }
}

Conversion<benchgadget::v1::Gadget> gadget_conversion() {
  using Hub = benchgadget::v1::Gadget;
  using Spoke = benchgadget::v1alpha1::Gadget;
  Conversion<Hub> conversion;
  conversion.spoke<Spoke>(
      [](const Spoke& from, Hub& hub) -> rr::Error {
        if (from.spec) {
          auto& spec = hub.spec.emplace();
          if (from.spec->size_text) spec.size = std::stoi(*from.spec->size_text);
          if (from.spec->limits) spec.limits.emplace().cpu = from.spec->limits->cpu;
        }
        return {};
      },
      [](const Hub& hub, Spoke& to) -> rr::Error {
        if (hub.spec) {
          auto& spec = to.spec.emplace();
          if (hub.spec->size) spec.size_text = std::to_string(*hub.spec->size);
          if (hub.spec->limits) spec.limits.emplace().cpu = hub.spec->limits->cpu;
        }
        return {};
      });
  return conversion;
}

std::vector<Json> hubs(std::size_t n) {
  std::vector<Json> out;
  for (std::size_t i = 0; i < n; ++i) {
    out.push_back(Json{{"apiVersion", "webhook.rrgen.dev/v1"},
                       {"kind", "Gadget"},
                       {"metadata", {{"name", "g-" + std::to_string(i)}, {"namespace", "default"}}},
                       {"spec",
                        {{"size", static_cast<int>(i)},
                         {"color", "red"},
                         {"tags", {"a", "b"}},
                         {"limits", {{"cpu", "1"}, {"memory", "2Gi"}}}}}});
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::string(argv[i]) == "--seconds") seconds_per_row = std::stod(argv[i + 1]);
  }
  std::printf("bench_webhook (%s build, %s), %.1f s per row\n", RRGEN_BENCH_BUILD_TYPE, bench::compiler_name(),
              seconds_per_row);

  const rr::webhook::test::ServingCerts serving;
  const rr::DevCertificates& certs = serving.pair;
  const auto adapter = defaulting_adapter();
  const AdmissionRequest request = create_request();
  const std::string body = encode_admission_review_request(request);
  check(!adapter.handle(request).patch.is_null(), "the adapter made no patch");

  ServerOptions options;
  options.host = "127.0.0.1";
  options.port = 0;
  options.cert_dir = serving.dir.string();
  Server server(options);
  server.handle_admission("/mutate", adapter.handler());
  const auto conversion = gadget_conversion();
  server.handle_conversion("/convert", conversion.handler());
  const int port = server.start();

  // The same respond() on the same HTTP server without TLS: the cost of TLS alone.
  rr::http_server::ServerOptions plain_options;
  plain_options.connection.methods = {"POST"};
  plain_options.connection.max_body = options.max_body;
  plain_options.connection.max_requests = std::numeric_limits<std::size_t>::max();
  rr::http_server::Server plain(
      [&server](const rr::http_server::Request& r, const rr::http_server::Target& target) {
        Reply reply = server.respond(target.path, r.field("content-type"), r.body);
        rr::http_server::Response response;
        response.status = reply.status;
        response.content_type = reply.content_type;
        response.body = std::move(reply.body);
        return response;
      },
      plain_options);
  const int plain_port = plain.start("127.0.0.1", 0);

  std::printf("\nadmission: one CREATE review (%zu bytes), a mutating AdmissionWebhookAdapter (JSON patch)\n",
              body.size());
  report("adapter in process", measure([&] { (void)adapter.handle(request); }));
  report("respond() (review codec)", measure([&] { (void)server.respond("/mutate", "application/json", body); }));
  rr::webhook::test::HttpsClient plain_client("");
  report("HTTP keep-alive (no TLS)",
         measure([&] { check(plain_client.post(plain_port, "/mutate", body).status == 200, "HTTP call failed"); }));
  rr::webhook::test::HttpsClient client(certs.ca_pem);
  check(client.post(port, "/mutate", body).new_connections == 1, "the first HTTPS call did not connect");
  report("HTTPS keep-alive", measure([&] {
           const auto reply = client.post(port, "/mutate", body);
           check(reply.status == 200 && reply.new_connections == 0, "HTTPS call failed or reconnected");
         }));
  rr::webhook::test::HttpsClient handshaking(certs.ca_pem, /*reuse=*/false);
  report("HTTPS, a handshake per request",
         measure([&] { check(handshaking.post(port, "/mutate", body).status == 200, "HTTPS call failed"); }));

  for (const std::size_t batch : {std::size_t{1}, std::size_t{100}}) {
    const ConversionRequest down{"bench", "webhook.rrgen.dev/v1alpha1", hubs(batch)};
    const ConversionResponse converted = conversion.convert(down);
    check(!converted.failure && converted.converted_objects.size() == batch, "conversion failed");
    const ConversionRequest up{"bench", "webhook.rrgen.dev/v1", converted.converted_objects};
    const std::string down_body = encode_conversion_review_request(down);
    std::printf("\nconversion: %zu Gadget(s) per review, objects/s (hub v1 -> spoke v1alpha1 keeps the annotation)\n",
                batch);
    report("v1 -> v1alpha1 in process", measure([&] { (void)conversion.convert(down); }), batch);
    report("v1alpha1 -> v1 in process (restore)", measure([&] { (void)conversion.convert(up); }), batch);
    report("v1 -> v1alpha1 over HTTPS",
           measure([&] { check(client.post(port, "/convert", down_body).status == 200, "conversion call failed"); }),
           batch);
  }
  plain.stop();
  server.stop();
  return 0;
}
