// bench_cache: the informer store's memory per object and the cost of a read, beside the
// representation it replaced (one shared nlohmann::json DOM per object), in one process.
//
// Per kind (ConfigMap, Deployment, a large custom object), N objects written through an in-process
// rr::Cluster (so they carry uid, timestamps and managedFields as served), then:
//   memory  heap in use (mallinfo2) per object, and its ratio to the object's compact JSON size:
//           a map of shared DOMs (the old store), rr::ObjectStore, rr::ObjectStore with
//           strip_bookkeeping (no managedFields, no last-applied annotation), rr::ObjectStore of
//           what a metadata-only informer keeps (apiVersion, kind, metadata)
//   reads   CPU µs per object: a copy out of a shared DOM (the old store's get); get_stored + copy
//           (the cached client's read) from a store that keeps the views read last
//           (8 MiB of text: the working set fits; the default is 1 MiB) and from a store that keeps none (a decode per
//           read); get + copy keeping none (a decode, then a copy); get + copy with every view
//           held; the view alone
//
// Usage: bench_cache [--objects N] [--min-time S]
#include <malloc.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "bench_objects.hpp"
#include "bench_util.hpp"
#include "rr/client/client.hpp"
#include "rr/cluster/cluster.hpp"
#include "rr/controller/informer_store.hpp"
#include "rr/controller/informer_transforms.hpp"

namespace {

// Keeps the optimiser from dropping a read whose result is unused.
template <class T>
void keep(T& value) {
  asm volatile("" : : "g"(&value) : "memory");
}

double heap_in_use() { return static_cast<double>(mallinfo2().uordblks); }

const rr::KindInfo& workflow_kind() {
  static const rr::KindInfo kind{
      {"argoproj.io", "v1alpha1", "Workflow"}, "workflows", "WorkflowList", rr::Scope::Namespaced, false};
  return kind;
}

// A large custom object: an Argo-style Workflow with 40 templates (about 30 KB of JSON).
rr::Json large_workflow(int i) {
  rr::Json templates = rr::Json::array();
  for (int t = 0; t < 40; ++t) {
    const std::string name = "step-" + std::to_string(t);
    templates.push_back(
        {{"name", name},
         {"inputs", {{"parameters", {{{"name", "message"}, {"value", "hello " + std::to_string(t)}}}}}},
         {"container",
          {{"image", "registry.example/tools/runner:" + std::to_string(i % 9)},
           {"command", {"/bin/sh", "-c"}},
           {"args", {"echo {{inputs.parameters.message}} && run --step " + name + " --retries 3"}},
           {"env", {{{"name", "STEP"}, {"value", name}}, {{"name", "WORKFLOW"}, {"value", "wf-" + std::to_string(i)}}}},
           {"resources", {{"requests", {{"cpu", "250m"}, {"memory", "256Mi"}}}, {"limits", {{"memory", "1Gi"}}}}}}},
         {"retryStrategy", {{"limit", 3}, {"retryPolicy", "OnFailure"}}},
         {"metadata", {{"labels", {{"step", name}, {"stage", t < 20 ? "build" : "test"}}}}}});
  }
  return rr::Json{{"apiVersion", "argoproj.io/v1alpha1"},
                  {"kind", "Workflow"},
                  {"metadata",
                   {{"namespace", "default"},
                    {"name", "wf-" + std::to_string(i)},
                    {"labels", {{"workflows.argoproj.io/phase", "Running"}}}}},
                  {"spec", {{"entrypoint", "step-0"}, {"serviceAccountName", "runner"}, {"templates", templates}}}};
}

// Reads every key once per round until `min_time` CPU seconds; ns of CPU per read.
template <class F>
double ns_per_read(std::size_t n, double min_time, F&& read) {
  std::size_t reads = 0;
  const bench::Stopwatch watch;
  do {
    for (std::size_t i = 0; i < n; ++i) read(i);
    reads += n;
  } while (watch.elapsed().cpu < min_time);
  return watch.elapsed().cpu * 1e9 / static_cast<double>(reads);
}

void bench_kind(const rr::KindInfo& kind, rr::Json (*make)(int), int n, double min_time) {
  auto cluster = std::make_shared<rr::Cluster>();
  if (!cluster->find_kind(kind.gvk)) cluster->register_kind(kind);
  for (int i = 0; i < n; ++i) {
    rr::Json object = make(i);
    // Served objects of kubectl-applied resources carry the last-applied annotation: one in two here.
    if (i % 2 == 0)
      object["metadata"]["annotations"]["kubectl.kubernetes.io/last-applied-configuration"] = make(i).dump();
    cluster->create(kind, object);
  }
  std::vector<rr::Json> objects;
  rr::Json list = cluster->list(kind, {});
  for (auto& item : list["items"]) objects.push_back(std::move(item));
  list = nullptr;
  cluster.reset();
  double json = 0;
  std::vector<rr::ObjectKey> keys;
  for (const auto& o : objects) {
    json += static_cast<double>(o.dump().size());
    keys.push_back(rr::key_of(o));
  }
  json /= static_cast<double>(objects.size());
  const double count = static_cast<double>(objects.size());

  malloc_trim(0);
  double before = heap_in_use();
  auto dom_store = std::make_unique<std::map<rr::ObjectKey, std::shared_ptr<const rr::Json>>>();
  for (const auto& o : objects) dom_store->emplace(rr::key_of(o), std::make_shared<const rr::Json>(o));
  const double dom_bytes = (heap_in_use() - before) / count;

  malloc_trim(0);
  before = heap_in_use();
  // Views budget large enough for the working set (8 MiB of text; the default keeps 1 MiB).
  auto store = std::make_unique<rr::ObjectStore>(std::size_t{8} << 20);
  for (const auto& o : objects) store->upsert(o);
  const double store_bytes = (heap_in_use() - before) / count;

  // Heap and JSON text per object of a store of the objects as `transform` leaves them.
  struct Kept {
    double bytes = 0;
    double json = 0;
  };
  auto kept_by = [&](void (*transform)(rr::Json&)) {
    malloc_trim(0);
    const double start = heap_in_use();
    rr::ObjectStore kept;
    for (const auto& o : objects) {
      rr::Json copy = o;
      transform(copy);
      kept.upsert(std::move(copy));
    }
    return Kept{(heap_in_use() - start) / count, static_cast<double>(kept.text_bytes()) / count};
  };
  const Kept stripped = kept_by(rr::strip_bookkeeping);
  // What a metadata-only informer keeps: {apiVersion, kind, metadata} of each object.
  const Kept metadata = kept_by(rr::keep_metadata_only);
  const Kept lean_metadata = kept_by([](rr::Json& o) {
    rr::keep_metadata_only(o);
    rr::strip_bookkeeping(o);
  });
  const double stripped_bytes = stripped.bytes, stripped_json = stripped.json;
  const double metadata_bytes = metadata.bytes, metadata_json = metadata.json;

  std::printf("  %-10s %6zu objects, JSON %6.0f B/object (%.0f B without managedFields and last-applied)\n",
              kind.gvk.kind.c_str(), objects.size(), json, stripped_json);
  std::printf(
      "    memory, heap in use per object: shared DOM (before) %7.0f B = %4.1fx JSON | ObjectStore %7.0f B = %4.1fx"
      " | ObjectStore + strip_bookkeeping %7.0f B = %4.1fx\n"
      "    metadata only: JSON %5.0f B, heap %6.0f B = %4.2fx | metadata only + strip_bookkeeping: JSON %5.0f B,"
      " heap %6.0f B = %4.2fx\n",
      dom_bytes, dom_bytes / json, store_bytes, store_bytes / json, stripped_bytes, stripped_bytes / json,
      metadata_json, metadata_bytes, metadata_bytes / json, lean_metadata.json, lean_metadata.bytes,
      lean_metadata.bytes / json);

  auto uncached_store = std::make_unique<rr::ObjectStore>(0);  // keeps no decoded view
  for (const auto& o : objects) uncached_store->upsert(o);
  const std::size_t size = keys.size();
  const double old_copy = ns_per_read(size, min_time, [&](std::size_t i) {
    rr::Json copy = *dom_store->find(keys[i])->second;
    keep(copy);
  });
  const double cold_view_copy = ns_per_read(size, min_time, [&](std::size_t i) {
    rr::Json copy = *uncached_store->get(keys[i]);
    keep(copy);
  });
  const double cold_copy = ns_per_read(size, min_time, [&](std::size_t i) {
    rr::Json copy = uncached_store->get_stored(keys[i])->copy();  // what InformerCache::get and list do
    keep(copy);
  });
  // `store` keeps the views read last (up to 8 MiB of their text): the working set here fits.
  // Decoded in one pass first (as the old store's DOMs were built), then kept.
  std::vector<rr::SharedObject> held = store->list();
  const double kept_copy = ns_per_read(size, min_time, [&](std::size_t i) {
    rr::Json copy = store->get_stored(keys[i])->copy();
    keep(copy);
  });
  const double warm_copy = ns_per_read(size, min_time, [&](std::size_t i) {
    rr::Json copy = *store->get(keys[i]);
    keep(copy);
  });
  const double view = ns_per_read(size, min_time, [&](std::size_t i) {
    rr::SharedObject v = store->get(keys[i]);
    keep(v);
  });
  std::printf(
      "    reads, CPU µs per object: copy of a shared DOM (before) %7.2f | get_stored + copy: views kept (default)"
      " %7.2f (%.1fx), no view kept %7.2f (%.1fx) | get + copy, no view kept %7.2f | get + copy, all views held"
      " %7.2f | view only, held %6.3f\n",
      old_copy / 1e3, kept_copy / 1e3, kept_copy / old_copy, cold_copy / 1e3, cold_copy / old_copy,
      cold_view_copy / 1e3, warm_copy / 1e3, view / 1e3);
}

}  // namespace

int main(int argc, char** argv) {
  int n = 2000;
  double min_time = 0.5;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--objects" && i + 1 < argc) {
      n = std::atoi(argv[++i]);
    } else if (arg == "--min-time" && i + 1 < argc) {
      min_time = std::atof(argv[++i]);
    } else {
      std::fprintf(stderr, "usage: bench_cache [--objects N] [--min-time S]\n");
      return 2;
    }
  }
  std::printf("bench_cache (%s, %s), %d objects per kind\n", RRGEN_BENCH_BUILD_TYPE, bench::compiler_name(), n);
  const rr::KindInfo config_map{{"", "v1", "ConfigMap"}, "configmaps", "ConfigMapList", rr::Scope::Namespaced, false};
  const rr::KindInfo deployment{
      {"apps", "v1", "Deployment"}, "deployments", "DeploymentList", rr::Scope::Namespaced, false};
  bench_kind(config_map, bench::realistic_config_map, n, min_time);
  bench_kind(deployment, bench::realistic_deployment, n, min_time);
  bench_kind(workflow_kind(), large_workflow, n / 10, min_time);
  return 0;
}
