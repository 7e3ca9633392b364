// CPU per parent of a ResourceReconciler + ChildReconciler reading through the cached client
// (informer cache over the in-process cluster), with all parents in one namespace beside the same
// count spread over namespaces, and with the cache's controller-owner index ("after") beside the
// namespace list + owner filter the child reconciler did before it ("before", a client that hides
// the index). CPU is the process's (informer threads included), so it counts the cache's work.
//
// Per layout: a create pass through the reconciler (indexed), then
//   steady   every parent reconciled again: nothing to do
//   update   every parent's spec.image changed, then reconciled: child updated, status written
// "Before" reconciles only a sample of the parents (--sample, default 50): in one namespace each of
// its reconciles decodes every child of the namespace.
//
// Usage: bench_child_index [--parents N] [--namespaces M]... [--sample K]  (default 10000; 1 and 100)
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "bench_util.hpp"
#include "benchapi/v1/test_child.hpp"
#include "benchapi/v1/test_resource.hpp"
#include "rr/cluster/cluster.hpp"
#include "rr/controller/cached_client.hpp"
#include "rr/controller/informer_cache.hpp"
#include "rr/core/json.hpp"
#include "rr/reconcilers/child.hpp"
#include "rr/reconcilers/resource.hpp"

namespace {

using Parent = benchapi::v1::TestResource;
using Child = benchapi::v1::TestChild;

struct Layout {
  int parents = 0;
  int namespaces = 1;
  std::string ns_of(int i) const { return "ns-" + std::to_string(i % namespaces); }
  static std::string name_of(int i) { return "parent-" + std::to_string(i); }
};

// The client the reconciler had before the index: the cached client without has_field_index.
class WithoutIndex final : public rr::ForwardingClient {
 public:
  using ForwardingClient::ForwardingClient;

 protected:
  bool do_has_field_index(const rr::KindInfo&, std::string_view) const override { return false; }
};

rr::Reconciler make_reconciler(const rr::Config& config) {
  return rr::ResourceReconciler<Parent>{
      .conditions = rr::ConditionSet::living({"ChildReady"}),
      .reconciler = rr::ChildReconciler<Parent, Child>{
          .desired_child = [](rr::Context&, const Parent& parent) -> rr::Desired<Child> {
            Child child;
            child.metadata.namespace_ = parent.metadata.namespace_;
            child.metadata.name = parent.metadata.name + "-child";
            child.metadata.labels["app"] = parent.metadata.name;
            child.spec.emplace().image = parent.spec && parent.spec->image ? *parent.spec->image : "";
            return child;
          },
          .child_object_manager =
              rr::UpdatingObjectManager<Child>{
                  .merge_before_update =
                      [](Child& current, const Child& desired) {
                        current.metadata.labels = desired.metadata.labels;
                        current.spec = desired.spec;
                      },
              },
          .reflect_child_status_on_parent =
              [](rr::Context& ctx, Parent& parent, const Child* child, const rr::Error&) {
                auto& status = parent.status ? *parent.status : parent.status.emplace();
                auto& conditions = status.conditions ? *status.conditions : status.conditions.emplace();
                auto manager = rr::ConditionSet::living({"ChildReady"}).manage(conditions, ctx.now());
                if (child && child->spec) {
                  status.latest_image = child->spec->image;
                  manager.mark_true("ChildReady", "Created");
                } else {
                  manager.mark_false("ChildReady", "Missing", "no child");
                }
              },
      },
      .config = config,
  };
}

int reconcile(const rr::Reconciler& r, const Layout& l, int from, int to) {
  int failed = 0;
  for (int i = from; i < to; ++i) {
    rr::Outcome out = r.reconcile(rr::Request{l.ns_of(i), Layout::name_of(i)});
    if (out.error && ++failed == 1) std::fprintf(stderr, "reconcile failed: %s\n", out.error.message().c_str());
  }
  return failed;
}

// Waits until the cache holds every object of the kind as the cluster has it.
template <class T>
void wait_for_cache(rr::Cluster& cluster, rr::InformerCache& cache) {
  const rr::KindInfo kind = rr::kind_info_of<T>();
  const rr::Json want = cluster.list(kind, rr::ListOptions{})["items"];
  while (cache.list(kind, rr::ListOptions{})["items"] != want)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
}

void row(const char* what, const Layout& l, int n, const bench::Times& t) {
  std::printf("  %-26s %6d reconciles  cpu %7.2f s  %9.3f ms/parent   (wall %.2f s)\n", what, n, t.cpu,
              1000.0 * t.cpu / n, t.wall);
  (void)l;
}

struct Figures {
  double steady_after = 0, update_after = 0, steady_before = 0, update_before = 0;  // CPU ms per parent
};

Figures run(const Layout& l, int sample) {
  std::printf("%d parents in %d namespace(s)\n", l.parents, l.namespaces);
  auto cluster = std::make_shared<rr::Cluster>();
  cluster->register_kind<Parent>();
  cluster->register_kind<Child>();
  cluster->register_kind(rr::KindInfo{.gvk = {"", "v1", "Event"},
                                      .plural = "events",
                                      .list_kind = "EventList",
                                      .scope = rr::Scope::Namespaced,
                                      .has_status = false});
  auto api = std::make_shared<rr::ClusterClient>(cluster);
  for (int i = 0; i < l.parents; ++i) {
    Parent p;
    p.metadata.namespace_ = l.ns_of(i);
    p.metadata.name = Layout::name_of(i);
    p.spec.emplace().image = "registry.example/app:v1";
    api->create(p);
  }
  auto cache = std::make_shared<rr::InformerCache>(api);
  std::jthread running([cache](std::stop_token stop) { cache->start(stop); });
  while (!cache->started()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  auto cached = std::make_shared<rr::CachedClient>(api, cache);
  const rr::Reconciler after = make_reconciler(rr::make_config(cached));
  const rr::Reconciler before = make_reconciler(rr::make_config(std::make_shared<WithoutIndex>(cached)));
  const int k = std::min(sample, l.parents);

  int failed = 0;
  bench::Stopwatch create_sw;
  failed += reconcile(after, l, 0, l.parents);
  row("create (index)", l, l.parents, create_sw.elapsed());
  wait_for_cache<Child>(*cluster, *cache);
  wait_for_cache<Parent>(*cluster, *cache);

  Figures f;
  bench::Stopwatch steady_sw;
  failed += reconcile(after, l, 0, l.parents);
  const bench::Times steady = steady_sw.elapsed();
  row("steady, index (after)", l, l.parents, steady);
  f.steady_after = 1000.0 * steady.cpu / l.parents;
  bench::Stopwatch steady_before_sw;
  failed += reconcile(before, l, 0, k);
  const bench::Times steady_before = steady_before_sw.elapsed();
  row("steady, namespace (before)", l, k, steady_before);
  f.steady_before = 1000.0 * steady_before.cpu / k;

  for (int i = 0; i < l.parents; ++i) {
    auto p = api->get<Parent>(l.ns_of(i), Layout::name_of(i));
    p.spec->image = "registry.example/app:v2";
    api->update(p);
  }
  wait_for_cache<Parent>(*cluster, *cache);
  bench::Stopwatch update_sw;
  failed += reconcile(after, l, k, l.parents);
  const bench::Times update = update_sw.elapsed();
  row("update, index (after)", l, l.parents - k, update);
  f.update_after = 1000.0 * update.cpu / (l.parents - k);
  bench::Stopwatch update_before_sw;
  failed += reconcile(before, l, 0, k);
  const bench::Times update_before = update_before_sw.elapsed();
  row("update, namespace (before)", l, k, update_before);
  f.update_before = 1000.0 * update_before.cpu / k;
  if (failed) std::printf("  %d reconciles FAILED\n", failed);
  std::printf("  peak RSS %.0f MB\n", bench::self_peak_rss_mb());
  return f;
}

}  // namespace

int main(int argc, char** argv) {
  int parents = 10000;
  int sample = 50;
  std::vector<int> namespaces;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--parents") == 0 && i + 1 < argc) {
      parents = std::atoi(argv[++i]);
    } else if (std::strcmp(argv[i], "--namespaces") == 0 && i + 1 < argc) {
      namespaces.push_back(std::atoi(argv[++i]));
    } else if (std::strcmp(argv[i], "--sample") == 0 && i + 1 < argc) {
      sample = std::atoi(argv[++i]);
    } else {
      std::fprintf(stderr, "usage: bench_child_index [--parents N] [--namespaces M]... [--sample K]\n");
      return 2;
    }
  }
  if (namespaces.empty()) namespaces = {1, 100};
  if (parents < 2 || sample < 1 || sample >= parents) {
    std::fprintf(stderr, "bench_child_index: need 1 <= sample < parents\n");
    return 2;
  }
  std::printf("bench_child_index (%s, %s)\n", bench::compiler_name(), RRGEN_BENCH_BUILD_TYPE);
  std::vector<Figures> all;
  for (int m : namespaces) all.push_back(run(Layout{parents, m}, sample));
  std::printf("\nCPU ms per parent        ");
  for (int m : namespaces) std::printf("  %4d ns: after / before", m);
  std::printf("\n");
  const auto line = [&](const char* what, double Figures::*after, double Figures::*before) {
    std::printf("  %-22s", what);
    for (const Figures& f : all) std::printf("  %9.3f / %9.3f     ", f.*after, f.*before);
    std::printf("\n");
  };
  line("steady", &Figures::steady_after, &Figures::steady_before);
  line("update", &Figures::update_after, &Figures::update_before);
  if (all.size() >= 2) {
    std::printf("  one namespace / spread, after: steady %.2fx, update %.2fx\n",
                all.front().steady_after / all.back().steady_after, all.front().update_after / all.back().update_after);
  }
  return 0;
}
