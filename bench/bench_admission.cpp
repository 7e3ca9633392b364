// Schema admission figures (docs/benchmarks.md): how fast every corpus CRD's schema compiles with
// its CEL rules (what CRD creation costs), and the latency of one create of a CEL-heavy custom
// resource (Gateway API HTTPRoute) in the local cluster, beside the same create under a schema
// without rules and a CRD that preserves everything (no admission work): the baselines, same run.
//
//   bench_admission CORPUS_DIR [--seconds S]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "rr/apiserver/api_server.hpp"
#include "rr/cluster/cluster.hpp"
#include "rr/schema/schema.hpp"
#include "rr/schema_cel/cel_node_checks.hpp"
#include "yaml_json.hpp"

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

// The documents of a YAML file as JSON (the local cluster's own reader, as kubectl's bodies are read).
std::vector<rr::Json> yaml_documents(const fs::path& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return rr::apiserver_detail::yaml_documents(text.str());
}

std::size_t count_rules(const rr::Json& schema) {
  std::size_t n = 0;
  if (schema.is_object()) {
    if (auto it = schema.find("x-kubernetes-validations"); it != schema.end() && it->is_array()) n += it->size();
    for (const auto& [key, child] : schema.items()) n += count_rules(child);
  } else if (schema.is_array()) {
    for (const auto& child : schema) n += count_rules(child);
  }
  return n;
}

// Every served version's schema of every corpus CRD, with its rule count.
struct CorpusSchemas {
  std::vector<rr::Json> schemas;
  std::size_t rules = 0;
};

CorpusSchemas corpus_schemas(const fs::path& corpus) {
  CorpusSchemas out;
  for (const auto& entry : fs::recursive_directory_iterator(corpus / "crds")) {
    if (!entry.is_regular_file() || entry.path().extension() != ".yaml") continue;
    std::vector<rr::Json> docs;
    try {
      docs = yaml_documents(entry.path());
    } catch (const std::exception&) {
      continue;
    }
    for (const auto& doc : docs) {
      if (doc.value("kind", "") != "CustomResourceDefinition" || !doc.contains("/spec/versions"_json_pointer)) continue;
      for (const auto& version : doc.at("/spec/versions"_json_pointer)) {
        if (!version.contains("/schema/openAPIV3Schema"_json_pointer)) continue;
        out.schemas.push_back(version.at("/schema/openAPIV3Schema"_json_pointer));
        out.rules += count_rules(out.schemas.back());
      }
    }
  }
  return out;
}

void bench_compile(const CorpusSchemas& corpus, double seconds) {
  const rr::schema::CompileOptions with_rules = [] {
    rr::schema::CompileOptions o;
    o.node_checks = rr::schema::cel_node_checks();
    return o;
  }();
  const rr::schema::CompileOptions without_rules;
  for (const rr::schema::CompileOptions* options : {&without_rules, &with_rules}) {
    std::size_t rounds = 0, failed = 0;
    const auto start = Clock::now();
    do {
      for (const auto& schema : corpus.schemas) {
        auto compiled = rr::schema::Schema::compile(schema, *options);
        failed += compiled.index() == 1 ? 1 : 0;
      }
      ++rounds;
    } while (std::chrono::duration<double>(Clock::now() - start).count() < seconds);
    const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    const bool rules = options == &with_rules;
    std::printf("compile %-28s %8.0f schemas/s  %9.0f rules/s  (%zu schemas, %zu rules, %zu refused per round)\n",
                rules ? "schemas + CEL rules" : "schemas, rules not compiled",
                static_cast<double>(rounds * corpus.schemas.size()) / elapsed,
                rules ? static_cast<double>(rounds * corpus.rules) / elapsed : 0.0, corpus.schemas.size(), corpus.rules,
                failed / rounds);
  }
}

const rr::GroupVersionKind crd_gvk{"apiextensions.k8s.io", "v1", "CustomResourceDefinition"};

// Creates `crd` in the cluster and waits until its storage version's kind is served.
rr::KindInfo install(rr::Cluster& cluster, const rr::Json& crd) {
  cluster.create(*cluster.find_kind(crd_gvk), crd);
  const std::string group = crd.at("/spec/group"_json_pointer);
  const std::string kind = crd.at("/spec/names/kind"_json_pointer);
  std::string version;
  for (const auto& v : crd.at("/spec/versions"_json_pointer))
    if (v.value("storage", false)) version = v.at("name");
  for (int i = 0; i < 200; ++i) {
    if (auto info = cluster.find_kind({group, version, kind})) return *info;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  throw std::runtime_error("the CRD's kind was never served");
}

// Strips every x-kubernetes-validations (the schema-only baseline).
void strip_rules(rr::Json& schema) {
  if (schema.is_object()) {
    schema.erase("x-kubernetes-validations");
    for (auto& [key, child] : schema.items()) strip_rules(child);
  } else if (schema.is_array()) {
    for (auto& child : schema) strip_rules(child);
  }
}

void bench_httproute(const fs::path& corpus, double seconds) {
  rr::Json crd;
  for (const auto& doc :
       yaml_documents(corpus / "crds/gateway-api/standard__gateway.networking.k8s.io_httproutes.yaml"))
    if (doc.value("kind", "") == "CustomResourceDefinition") crd = doc;
  std::vector<rr::Json> samples;
  for (const auto& entry : fs::directory_iterator(corpus / "samples/gateway-api")) {
    for (const auto& doc : yaml_documents(entry.path()))
      if (doc.value("kind", "") == "HTTPRoute" && doc.value("apiVersion", "") == "gateway.networking.k8s.io/v1")
        samples.push_back(doc);
  }
  if (crd.is_null() || samples.empty()) throw std::runtime_error("no HTTPRoute CRD or samples in the corpus");

  rr::Json schemaless = crd;  // every version preserves unknown fields: no admission work
  for (auto& v : schemaless["spec"]["versions"])
    v["schema"] = {{"openAPIV3Schema", {{"type", "object"}, {"x-kubernetes-preserve-unknown-fields", true}}}};
  rr::Json no_rules = crd;
  strip_rules(no_rules);

  std::printf("\nHTTPRoute create latency in the local cluster (%zu corpus samples, in process, no HTTP):\n",
              samples.size());
  struct Variant {
    const char* name;
    const rr::Json* crd;
  };
  for (const Variant& variant : {Variant{"no schema (baseline)", &schemaless}, Variant{"schema, no rules", &no_rules},
                                 Variant{"schema + CEL rules", &crd}}) {
    auto cluster = std::make_shared<rr::Cluster>();
    rr::ApiServer server(cluster);
    server.start();
    const rr::KindInfo kind = install(*cluster, *variant.crd);
    std::vector<double> micros;
    std::size_t n = 0, refused = 0;
    const auto start = Clock::now();
    do {
      rr::Json object = samples[n % samples.size()];
      object["metadata"]["name"] = "r" + std::to_string(n);
      object["metadata"]["namespace"] = "default";
      const auto t0 = Clock::now();
      try {
        cluster->create(kind, object);
      } catch (const rr::ApiError&) {
        ++refused;
      }
      micros.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
      ++n;
    } while (std::chrono::duration<double>(Clock::now() - start).count() < seconds);
    server.stop();
    std::sort(micros.begin(), micros.end());
    std::printf("  %-22s p50 %7.1f us  p99 %7.1f us  (%zu creates, %zu refused)\n", variant.name,
                micros[micros.size() / 2], micros[micros.size() * 99 / 100], n, refused);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: bench_admission CORPUS_DIR [--seconds S]\n");
    return 2;
  }
  double seconds = 2.0;
  for (int i = 2; i + 1 < argc; ++i)
    if (std::string(argv[i]) == "--seconds") seconds = std::stod(argv[i + 1]);
  std::printf("bench_admission (%s build)\n", RRGEN_BENCH_BUILD_TYPE);
  const CorpusSchemas corpus = corpus_schemas(argv[1]);
  bench_compile(corpus, seconds);
  bench_httproute(argv[1], seconds);
  return 0;
}
