// What the API server's own checks cost per write of a built-in kind (docs/benchmarks.md): creates
// of a realistic Deployment in
//   - the local cluster's registration (register_builtin_kinds: Go defaults, decoding as the API
//     server decodes, the generated type, the Go validation) and
//   - the in-process cluster of table tests (register_kind<T>(): the type's defaults, the Go
//     validation on a defaulted copy),
// beside the baseline of the same kind registered with its generated type's schema checks alone
// (what both did before the Go validation), same run. CPU microseconds per create.
//
//   bench_builtin_admission [--creates N]
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>

#include "bench_util.hpp"
#include "k8s/apps/v1/deployment.hpp"
#include "rr/apiserver/builtin_kinds.hpp"
#include "rr/cluster/cluster.hpp"
#include "rr/core/kind_codec.hpp"

std::span<const rr::KindCodec> rr_builtin_types_kinds() noexcept;

namespace {

const rr::KindInfo kDeployments = rr::kind_info_of<k8s::apps::v1::Deployment>();

rr::Json deployment(int i) {
  rr::Json d = rr::Json::parse(R"({
    "apiVersion": "apps/v1", "kind": "Deployment",
    "metadata": {"namespace": "default", "labels": {"app": "web", "tier": "front"},
                 "annotations": {"team": "shop"}},
    "spec": {
      "replicas": 3,
      "selector": {"matchLabels": {"app": "web"}},
      "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": 1}},
      "template": {
        "metadata": {"labels": {"app": "web", "tier": "front"}},
        "spec": {
          "serviceAccountName": "web",
          "containers": [{
            "name": "web", "image": "registry.example/web:1.4.2",
            "args": ["--port=8080", "--log=json"],
            "ports": [{"name": "http", "containerPort": 8080}],
            "env": [{"name": "MODE", "value": "prod"},
                    {"name": "POD", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}}],
            "resources": {"requests": {"cpu": "100m", "memory": "128Mi"}, "limits": {"memory": "256Mi"}},
            "readinessProbe": {"httpGet": {"path": "/ready", "port": "http"}, "periodSeconds": 5},
            "volumeMounts": [{"name": "config", "mountPath": "/etc/web"}]
          }],
          "volumes": [{"name": "config", "configMap": {"name": "web"}}]
        }
      }
    }
  })");
  d["metadata"]["name"] = "web-" + std::to_string(i);
  return d;
}

const rr::KindCodec& deployment_row() {
  for (const rr::KindCodec& row : rr_builtin_types_kinds()) {
    if (row.api_version == "apps/v1" && row.kind == "Deployment") return row;
  }
  std::fprintf(stderr, "bench_builtin_admission: no apps/v1 Deployment row\n");
  std::exit(2);
}

// CPU microseconds per create of `creates` Deployments into a fresh cluster set up by `setup`.
double per_create(const std::function<void(rr::Cluster&)>& setup, int creates) {
  rr::Cluster cluster;
  setup(cluster);
  for (int i = 0; i < 20; ++i) cluster.create(kDeployments, deployment(-1 - i));  // warm up
  const double start = bench::cpu_now();
  for (int i = 0; i < creates; ++i) cluster.create(kDeployments, deployment(i));
  return (bench::cpu_now() - start) * 1e6 / creates;
}

}  // namespace

int main(int argc, char** argv) {
  int creates = 2000;
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::strcmp(argv[i], "--creates") == 0) creates = std::atoi(argv[i + 1]);
  }
  if (creates <= 0) {
    std::fprintf(stderr, "usage: bench_builtin_admission [--creates N]\n");
    return 2;
  }
  const rr::KindCodec& row = deployment_row();
  // The baseline: the generated type's defaults and schema checks, nothing of the API server's Go.
  const auto schema_only = [&row](rr::Cluster& c) {
    c.register_kind(kDeployments, [&row](const rr::AdmissionRequest& request) {
      rr::AdmissionResponse response;
      if (request.status) return response;
      std::string defaulted;
      response.errors = row.admit(request.object.dump(), defaulted);
      request.object = rr::Json::parse(defaulted);
      return response;
    });
  };
  const double baseline = per_create(schema_only, creates);
  const double local = per_create([](rr::Cluster& c) { rr::register_builtin_kinds(c); }, creates);
  const double in_process = per_create([](rr::Cluster& c) { c.register_kind<k8s::apps::v1::Deployment>(); }, creates);
  std::printf("bench_builtin_admission (%s build): %d creates of a Deployment, CPU µs per create\n",
              RRGEN_BENCH_BUILD_TYPE, creates);
  std::printf("  %-58s %9.1f\n", "baseline: generated type's schema checks only", baseline);
  std::printf("  %-58s %9.1f  (x%.2f)\n", "local cluster (register_builtin_kinds: decode + Go)", local,
              local / baseline);
  std::printf("  %-58s %9.1f  (x%.2f)\n", "in-process register_kind<T>() (Go on a defaulted copy)", in_process,
              in_process / baseline);
  return 0;
}
