// Reconcile throughput of a ResourceReconciler with one ChildReconciler on the in-process cluster,
// beside the cost floor of the same work done by hand (the JSON encode/decode and store operations
// alone, no framework).
//
// For each parent count N (1,000 and 10,000; parents spread over namespaces of 100, as a real
// cluster spreads them — the child lookup lists the parent's namespace):
//   create pass   every parent reconciled once: child created, status written
//   steady pass   every parent reconciled again: nothing to do (child in sync, status unchanged)
//   update pass   every parent's spec.image changed, then reconciled: child updated, status written
// The floor does, per parent, the API calls the reconciler must make for that pass, on a second
// cluster, writing the same objects: get the parent (decode), list the namespace's children
// (decode), create the child or update the listed one (encode + decode of the answer), update the
// status (encode + decode), and create the Events reconciler.io records. The two sides alternate
// a namespace at a time within each pass.
//
// Usage: bench_reconcile [--parents N]...   (default 1000 10000)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "bench_util.hpp"
#include "rr/cluster/cluster.hpp"
#include "rr/reconcilers/child.hpp"
#include "rr/reconcilers/resource.hpp"
#include "benchapi/v1/test_child.hpp"
#include "benchapi/v1/test_resource.hpp"

namespace {

using Parent = benchapi::v1::TestResource;
using Child = benchapi::v1::TestChild;
constexpr int kPerNamespace = 100;

std::string ns_of(int i) { return "ns-" + std::to_string(i / kPerNamespace); }
std::string name_of(int i) { return "parent-" + std::to_string(i); }

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
          .child_object_manager = rr::UpdatingObjectManager<Child>{
              .merge_before_update = [](Child& current, const Child& desired) {
                current.metadata.labels = desired.metadata.labels;
                current.spec = desired.spec;
              },
          },
          .reflect_child_status_on_parent = [](rr::Context& ctx, Parent& parent, const Child* child,
                                               const rr::Error&) {
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

struct Setup {
  std::shared_ptr<rr::Cluster> cluster;
  std::shared_ptr<rr::ClusterClient> client;
};

Setup make_cluster(int parents) {
  Setup s;
  s.cluster = std::make_shared<rr::Cluster>();
  s.cluster->register_kind<Parent>();
  s.cluster->register_kind<Child>();
  // core/v1 Events, so the recorder's writes are real (they count in the reconciler's figures).
  s.cluster->register_kind(rr::KindInfo{.gvk = {"", "v1", "Event"}, .plural = "events", .list_kind = "EventList",
                                        .scope = rr::Scope::Namespaced, .has_status = false});
  s.client = std::make_shared<rr::ClusterClient>(s.cluster);
  for (int i = 0; i < parents; ++i) {
    Parent p;
    p.metadata.namespace_ = ns_of(i);
    p.metadata.name = name_of(i);
    p.spec.emplace().image = "registry.example/app:v1";
    s.client->create(p);
  }
  return s;
}

void set_images(rr::ClusterClient& client, int parents, const std::string& image) {
  for (int i = 0; i < parents; ++i) {
    auto p = client.get<Parent>(ns_of(i), name_of(i));
    p.spec->image = image;
    client.update(p);
  }
}

void report(const char* what, int n, const bench::Times& t, const bench::Times& floor, long writes, long floor_writes) {
  std::printf(
      "  %-7s %6d reconciles  %8.0f /s (cpu %.2f s, %ld writes)   floor %8.0f /s (cpu %.2f s, %ld writes)   overhead "
      "%.2fx\n",
      what, n, n / t.cpu, t.cpu, writes, n / floor.cpu, floor.cpu, floor_writes, t.cpu / floor.cpu);
}

long rv(const rr::Cluster& c) { return std::stol(c.resource_version()); }

int reconcile_range(const rr::Reconciler& r, int begin, int end) {
  int failed = 0;
  for (int i = begin; i < end; ++i) {
    rr::Outcome out = r.reconcile(rr::Request{ns_of(i), name_of(i)});
    if (out.error) {
      if (++failed == 1) std::fprintf(stderr, "reconcile failed: %s\n", out.error.message().c_str());
    }
  }
  return failed;
}

// The floor: the same API traffic written by hand, writing the same objects the reconciler writes
// (a child with the parent's label and controller owner reference, the status with its
// conditions, and the core/v1 Events reconciler.io records: Created/Updated on the child,
// StatusUpdated on the parent), so that the listed children, the status read back and the writes
// weigh the same. The child to update is the one the list returned (the reconciler reads no more).
rr::Json floor_event(const Parent& parent, const std::string& reason, const std::string& message, long seq) {
  const std::string now = rr::Time::from(std::chrono::system_clock::now()).str();
  return rr::Json{
      {"apiVersion", "v1"},
      {"kind", "Event"},
      {"metadata",
       {{"name", parent.metadata.name + ".floor" + std::to_string(seq)}, {"namespace", parent.metadata.namespace_}}},
      {"involvedObject",
       {{"apiVersion", parent.api_version},
        {"kind", parent.kind},
        {"namespace", parent.metadata.namespace_},
        {"name", parent.metadata.name},
        {"uid", parent.metadata.uid},
        {"resourceVersion", parent.metadata.resource_version}}},
      {"reason", reason},
      {"message", message},
      {"type", "Normal"},
      {"count", 1},
      {"firstTimestamp", now},
      {"lastTimestamp", now},
      {"source", {{"component", "floor"}}},
      {"reportingComponent", "floor"}};
}

void floor_conditions(Parent& parent) {
  auto& status = parent.status ? *parent.status : parent.status.emplace();
  if (status.conditions) return;  // unchanged since the create pass wrote them
  const rr::Time now = rr::Time::from(std::chrono::system_clock::now());
  auto& conditions = status.conditions.emplace();
  for (const char* type : {"ChildReady", "Ready"}) {
    rr::Condition c;
    c.type = type;
    c.status = "True";
    c.last_transition_time = now;
    c.reason = type == std::string_view("Ready") ? "Ready" : "Created";
    conditions.push_back(c);
  }
}

void floor_range(rr::ClusterClient& client, int begin, int end, bool write_child, bool create) {
  const rr::KindInfo events{.gvk = {"", "v1", "Event"},
                            .plural = "events",
                            .list_kind = "EventList",
                            .scope = rr::Scope::Namespaced,
                            .has_status = false};
  static long seq = 0;
  for (int i = begin; i < end; ++i) {
    auto parent = client.get<Parent>(ns_of(i), name_of(i));
    auto children = client.list<Child>(rr::ListOptions{.namespace_ = ns_of(i)});
    if (!write_child) continue;
    const std::string child_name = parent.metadata.name + "-floor";
    Child child;
    if (create) {
      child.metadata.namespace_ = parent.metadata.namespace_;
      child.metadata.name = child_name;
      child.metadata.labels["app"] = parent.metadata.name;
      rr::OwnerReference ref;
      ref.api_version = parent.api_version;
      ref.kind = parent.kind;
      ref.name = parent.metadata.name;
      ref.uid = parent.metadata.uid;
      ref.controller = true;
      ref.block_owner_deletion = true;
      child.metadata.owner_references.push_back(ref);
      child.spec.emplace().image = parent.spec->image;
      child = client.create(child);
      client.create(events, floor_event(parent, "Created", "Created TestChild \"" + child_name + "\"", ++seq));
    } else {
      for (auto& c : children) {
        if (c.metadata.name == child_name) child = std::move(c);
      }
      child.spec->image = parent.spec->image;
      child = client.update(child);
      client.create(events, floor_event(parent, "Updated", "Updated TestChild \"" + child_name + "\"", ++seq));
    }
    floor_conditions(parent);
    parent.status->observed_generation = parent.metadata.generation;
    parent.status->latest_image = child.spec->image;
    parent = client.update_status(parent);
    client.create(events, floor_event(parent, "StatusUpdated", "Updated status", ++seq));
  }
}

void run(int parents) {
  std::printf("parents: %d (namespaces of %d)\n", parents, kPerNamespace);
  // Both clusters are built first and each pass runs the reconciler then the floor, so that the
  // two sides of a ratio are measured close in time (the machine's load varies).
  Setup s = make_cluster(parents);
  Setup f = make_cluster(parents);
  rr::Config config = rr::make_config(s.client);
  rr::Reconciler reconciler = make_reconciler(config);
  int failed = 0;

  // One pass of each side; writes = resourceVersions consumed (child writes, status writes, events).
  // One pass of each side, alternating a namespace (100 parents) of one with the same namespace of
  // the other, so that both see the same machine load; writes = resourceVersions consumed (child
  // writes, status writes, events).
  auto pass = [&](const char* what, bool write_child, bool create) {
    const long rv0 = rv(*s.cluster);
    const long fv0 = rv(*f.cluster);
    bench::Times t, ft;
    for (int begin = 0; begin < parents; begin += kPerNamespace) {
      const int end = std::min(parents, begin + kPerNamespace);
      bench::Stopwatch sw;
      failed += reconcile_range(reconciler, begin, end);
      t += sw.elapsed();
      bench::Stopwatch fsw;
      floor_range(*f.client, begin, end, write_child, create);
      ft += fsw.elapsed();
    }
    report(what, parents, t, ft, rv(*s.cluster) - rv0, rv(*f.cluster) - fv0);
  };
  pass("create", true, true);
  pass("steady", false, false);
  set_images(*s.client, parents, "registry.example/app:v2");
  set_images(*f.client, parents, "registry.example/app:v2");
  pass("update", true, false);
  // The same typed list of every namespace's children in each cluster, after the passes: the lists
  // weigh the same when the clusters hold the same objects.
  auto list_all = [&](rr::ClusterClient& client) {
    bench::Stopwatch sw;
    for (int i = 0; i < parents; i += kPerNamespace) client.list<Child>(rr::ListOptions{.namespace_ = ns_of(i)});
    return sw.elapsed().cpu * 1e6 / ((parents + kPerNamespace - 1) / kPerNamespace);
  };
  for (int round = 0; round < 2; ++round) {
    const double ours = list_all(*s.client);
    const double theirs = list_all(*f.client);
    std::printf("  list of a namespace's children: %.0f us (floor's cluster %.0f us)\n", ours, theirs);
  }
  // What each list returns per child: the floor's children must weigh what the reconciler's do.
  auto child_bytes = [](rr::ClusterClient& client) {
    auto l = client.list(rr::kind_info_of<Child>(), rr::ListOptions{.namespace_ = ns_of(0)});
    return l["items"].empty() ? 0UL : l["items"][0].dump().size();
  };
  std::printf("  child JSON %zu bytes (floor's %zu), status JSON %zu bytes (floor's %zu)\n", child_bytes(*s.client),
              child_bytes(*f.client), rr::Json(*s.client->get<Parent>(ns_of(0), name_of(0)).status).dump().size(),
              rr::Json(*f.client->get<Parent>(ns_of(0), name_of(0)).status).dump().size());
  if (failed) std::printf("  %d reconciles FAILED\n", failed);
  std::printf("  peak RSS %.0f MB\n", bench::self_peak_rss_mb());
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> counts;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--parents") == 0 && i + 1 < argc) {
      counts.push_back(std::atoi(argv[++i]));
    } else {
      std::fprintf(stderr, "usage: bench_reconcile [--parents N]...\n");
      return 2;
    }
  }
  if (counts.empty()) counts = {1000, 10000};
  std::printf("bench_reconcile (%s, %s)\n", bench::compiler_name(), RRGEN_BENCH_BUILD_TYPE);
  for (int n : counts) run(n);
  return 0;
}
