// Requests and bytes per reconcile of the WebApp sample's two children (Deployment, Service) in
// apply mode (the sample's ChildApplyReconciler steps, write: apply) beside update mode (a
// ChildReconciler with an UpdatingObjectManager and the merge the sample had before apply mode,
// fed the same desired children: the apply configurations decoded into the kinds).
//
// Each mode runs N WebApps against its own in-process cluster through a client that counts every
// call and the JSON bytes sent and received (request body + answer, as the HTTP client would carry
// them; lists are counted as the children step reads them without a cache). Three phases, each a
// reconcile of every WebApp:
//   create   the children do not exist yet
//   steady   nothing changed (run twice; the second pass is printed)
//   change   every WebApp's image changed
// Figures are per reconcile (one WebApp, both children).
//
// Then the resource reconciler's status write, update (rr::StatusWrite::Update) vs apply
// (StatusWrite::Apply, the sample's statusWrite: apply): N WebApps stored, a ResourceReconciler
// whose step sets the sample's status (configHash, availableReplicas, url, dnsRecord and the four
// conditions, Ready summarising them). Phases: `first` (no status yet), `steady` (nothing
// changed: no write), `change` (availableReplicas and DeploymentReady change). Per reconcile:
// the get of the WebApp and the status write.
//
// Usage: bench_apply_mode [--webapps N]  (default 200)
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "bench_util.hpp"
#include "k8s/apps/v1/deployment_apply.hpp"
#include "k8s/core/v1/service_apply.hpp"
#include "rr/client/forwarding_client.hpp"
#include "rr/cluster/cluster.hpp"
#include "rr/core/json.hpp"
#include "rr/reconcilers/child.hpp"
#include "rr/reconcilers/resource.hpp"
#include "rr/reconcilers/sequence.hpp"
#include "rr/reconcilers/sync.hpp"
#include "webapp_hooks.hpp"

namespace {

using webapp::Deployment;
using webapp::Service;
using webapp::WebApp;

// Every call of the reconcilers, with the JSON bytes each way.
struct Counts {
  std::map<std::string, long> calls;  // by verb
  long bytes_sent = 0, bytes_received = 0;
  long writes() const {
    long n = 0;
    for (const auto& [verb, count] : calls)
      if (verb != "get" && verb != "list") n += count;
    return n;
  }
  long reads() const {
    auto get = calls.find("get"), list = calls.find("list");
    return (get == calls.end() ? 0 : get->second) + (list == calls.end() ? 0 : list->second);
  }
};

class CountingClient final : public rr::ForwardingClient {
 public:
  using ForwardingClient::ForwardingClient;
  Counts take() {
    std::lock_guard lock(mutex_);
    return std::exchange(counts_, {});
  }

 protected:
  rr::Json do_get(const rr::KindInfo& kind, const rr::ObjectKey& key) override {
    return count("get", 0, ForwardingClient::do_get(kind, key));
  }
  rr::Json do_list(const rr::KindInfo& kind, const rr::ListOptions& opts) override {
    return count("list", 0, ForwardingClient::do_list(kind, opts));
  }
  rr::Json do_create(const rr::KindInfo& kind, const rr::Json& object, const rr::WriteOptions& opts) override {
    return count("create", object.dump().size(), ForwardingClient::do_create(kind, object, opts));
  }
  rr::Json do_update(const rr::KindInfo& kind, const rr::Json& object, const rr::WriteOptions& opts) override {
    return count("update", object.dump().size(), ForwardingClient::do_update(kind, object, opts));
  }
  rr::Json do_update_status(const rr::KindInfo& kind, const rr::Json& object, const rr::WriteOptions& opts) override {
    return count("update_status", object.dump().size(), ForwardingClient::do_update_status(kind, object, opts));
  }
  rr::Json do_patch(const rr::KindInfo& kind, const rr::ObjectKey& key, rr::PatchType type, std::string_view body,
                    std::string_view subresource, const rr::WriteOptions& opts) override {
    return count(type == rr::PatchType::Apply ? "apply" : "patch", body.size(),
                 ForwardingClient::do_patch(kind, key, type, body, subresource, opts));
  }
  rr::Json do_remove(const rr::KindInfo& kind, const rr::ObjectKey& key, const rr::DeleteOptions& opts) override {
    return count("delete", 0, ForwardingClient::do_remove(kind, key, opts));
  }

 private:
  rr::Json count(const std::string& verb, std::size_t sent, rr::Json answer) {
    const std::size_t received = answer.dump().size();
    std::lock_guard lock(mutex_);
    ++counts_.calls[verb];
    counts_.bytes_sent += static_cast<long>(sent);
    counts_.bytes_received += static_cast<long>(received);
    return answer;
  }
  std::mutex mutex_;
  Counts counts_;
};

// The kind an apply configuration configures, decoded from it: what update mode is asked to keep.
template <class A>
rr::Desired<typename A::object_type> as_object(rr::Desired<A> desired) {
  if (desired.error) return desired.error;
  if (!desired.object) return std::nullopt;
  rr::Json json;
  to_json(json, *desired.object);
  typename A::object_type object;
  rr::client_detail::codec_of<typename A::object_type>.decode(json, &object);
  return object;
}

// Update mode: the sample's steps as they were before write: apply.
rr::SubReconciler<WebApp> update_mode(const std::shared_ptr<const webapp::WebAppHooks>& hooks) {
  return rr::Sequence<WebApp>{
      rr::ChildReconciler<WebApp, Deployment>{
          .name = "Deployment",
          .desired_child = [hooks](rr::Context& ctx,
                                   const WebApp& app) { return as_object(hooks->deployment_desired(ctx, app)); },
          .child_object_manager =
              rr::UpdatingObjectManager<Deployment>{.merge_before_update =
                                                        [](Deployment& current, const Deployment& desired) {
                                                          current.metadata.labels = desired.metadata.labels;
                                                          current.spec = desired.spec;
                                                        }},
          .reflect_child_status_on_parent =
              [hooks](rr::Context& ctx, WebApp& app, const Deployment* child, const rr::Error& err) {
                hooks->deployment_reflect(ctx, app, child, err);
              },
      },
      rr::ChildReconciler<WebApp, Service>{
          .name = "Service",
          .desired_child = [hooks](rr::Context& ctx,
                                   const WebApp& app) { return as_object(hooks->service_desired(ctx, app)); },
          .child_object_manager = rr::UpdatingObjectManager<Service>{.merge_before_update =
                                                                         [](Service& current, const Service& desired) {
                                                                           current.metadata.labels =
                                                                               desired.metadata.labels;
                                                                           auto& spec = current.spec
                                                                                            ? *current.spec
                                                                                            : current.spec.emplace();
                                                                           spec.selector = desired.spec->selector;
                                                                           spec.ports = desired.spec->ports;
                                                                         }},
          .reflect_child_status_on_parent = [hooks](
                                                rr::Context& ctx, WebApp& app, const Service* child,
                                                const rr::Error& err) { hooks->service_reflect(ctx, app, child, err); },
      },
  };
}

// Apply mode: the sample's generated steps.
rr::SubReconciler<WebApp> apply_mode(const std::shared_ptr<const webapp::WebAppHooks>& hooks) {
  return rr::Sequence<WebApp>{webapp::WebAppDeploymentReconciler(hooks), webapp::WebAppServiceReconciler(hooks)};
}

WebApp web_app(int i, const std::string& image) {
  WebApp app;
  app.metadata.namespace_ = "bench";
  app.metadata.name = "web-" + std::to_string(i);
  app.metadata.uid = "uid-" + std::to_string(i);
  auto& spec = app.spec.emplace();
  spec.image = image;
  spec.replicas = 2;
  spec.port = 8080;
  return app;
}

struct Phase {
  Counts counts;
  int reconciles = 0;
};

// One pass: every WebApp reconciled once with `image`.
Phase pass(const rr::SubReconciler<WebApp>& step, const std::shared_ptr<CountingClient>& client, int n,
           const std::string& image) {
  rr::Config config;
  config.client = client;
  for (int i = 0; i < n; ++i) {
    WebApp app = web_app(i, image);
    rr::Context ctx(rr::ContextOptions{.config = config,
                                       .request = {app.metadata.namespace_, app.metadata.name},
                                       .resource_type = rr::kind_info_of<WebApp>()});
    if (rr::Outcome out = step.reconcile(ctx, app); out.error) {
      std::fprintf(stderr, "reconcile of %s failed: %s\n", app.metadata.name.c_str(), out.error.message().c_str());
      std::exit(1);
    }
  }
  return {client->take(), n};
}

struct Mode {
  const char* name;
  Phase create, steady, change;
};

Mode run(const char* name, rr::SubReconciler<WebApp> (*make)(const std::shared_ptr<const webapp::WebAppHooks>&),
         int n) {
  auto cluster = std::make_shared<rr::Cluster>();
  cluster->register_kind<Deployment>();
  cluster->register_kind<Service>();
  auto client = std::make_shared<CountingClient>(std::make_shared<rr::ClusterClient>(cluster));
  const auto step = make(std::make_shared<const webapp::WebAppHooks>());
  Mode m{name, {}, {}, {}};
  m.create = pass(step, client, n, "registry.example/web:1");
  (void)pass(step, client, n, "registry.example/web:1");
  m.steady = pass(step, client, n, "registry.example/web:1");
  m.change = pass(step, client, n, "registry.example/web:2");
  return m;
}

// ---- the status write ----

// The sample's status after a reconcile: everything in place, `available` replicas up.
rr::SubReconciler<WebApp> status_step(const int* available) {
  return rr::SyncReconciler<WebApp>{
      .name = "Status", .sync = [available](rr::Context& ctx, WebApp& app) {
        auto& status = rr::ensure_status(app);
        status.config_hash = "5f1c7a0e9b2d4c3a8e6f0b1d2c3e4f5a";
        status.available_replicas = *available;
        status.url = "http://" + app.metadata.name + "." + app.metadata.namespace_ + ".svc.cluster.local";
        status.dns_record = app.metadata.name + ".example.com";
        auto conditions = webapp::WebAppConditions().manage(rr::ensure_conditions(app), ctx.now());
        conditions.mark_true(webapp::WebAppCondition::ConfigReady, "Resolved");
        conditions.mark_true(webapp::WebAppCondition::ServiceReady, "Exposed");
        conditions.mark_true(webapp::WebAppCondition::DnsReady, "Published");
        if (*available == 2) {
          conditions.mark_true(webapp::WebAppCondition::DeploymentReady, "Available");
        } else {
          conditions.mark_unknown(webapp::WebAppCondition::DeploymentReady, "Progressing",
                                  std::to_string(*available) + " of 2 replicas available");
        }
        return rr::Error{};
      }};
}

Phase status_pass(const rr::ResourceReconciler<WebApp>& root, const std::shared_ptr<CountingClient>& client, int n) {
  for (int i = 0; i < n; ++i) {
    const WebApp app = web_app(i, "registry.example/web:1");
    if (rr::Outcome out = root.reconcile({app.metadata.namespace_, app.metadata.name}); out.error) {
      std::fprintf(stderr, "reconcile of %s failed: %s\n", app.metadata.name.c_str(), out.error.message().c_str());
      std::exit(1);
    }
  }
  return {client->take(), n};
}

struct StatusMode {
  Phase first, steady, change;
};

StatusMode run_status(rr::StatusWrite write, int n) {
  auto cluster = std::make_shared<rr::Cluster>();
  cluster->register_kind<WebApp>();
  rr::ClusterClient direct(cluster);
  for (int i = 0; i < n; ++i) direct.create(web_app(i, "registry.example/web:1"));
  auto client = std::make_shared<CountingClient>(std::make_shared<rr::ClusterClient>(cluster));
  rr::Config config;
  config.client = client;
  int available = 0;
  const rr::ResourceReconciler<WebApp> root{
      .name = "WebApp",
      .conditions = webapp::WebAppConditions(),
      .reconciler = status_step(&available),
      .config = config,
      .status_write = write,
  };
  StatusMode m;
  m.first = status_pass(root, client, n);
  m.steady = status_pass(root, client, n);
  available = 2;
  m.change = status_pass(root, client, n);
  return m;
}

std::string per(long total, int reconciles) { return bench::fmt("%.2f", static_cast<double>(total) / reconciles); }

void row(const char* phase, const Phase& update, const Phase& apply) {
  auto cell = [](const Phase& p) {
    return per(p.counts.reads(), p.reconciles) + " reads, " + per(p.counts.writes(), p.reconciles) + " writes, " +
           per(p.counts.bytes_sent, p.reconciles) + " B sent, " + per(p.counts.bytes_received, p.reconciles) +
           " B received";
  };
  std::printf("%-7s | update: %s\n        | apply:  %s\n", phase, cell(update).c_str(), cell(apply).c_str());
  auto verbs = [](const Phase& p) {
    std::string out;
    for (const auto& [verb, count] : p.counts.calls) out += " " + verb + "=" + per(count, p.reconciles);
    return out;
  };
  std::printf("        | verbs per reconcile: update%s; apply%s\n", verbs(update).c_str(), verbs(apply).c_str());
}

}  // namespace

int main(int argc, char** argv) {
  int n = 200;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--webapps") == 0 && i + 1 < argc) {
      n = std::atoi(argv[++i]);
    } else {
      std::fprintf(stderr, "usage: bench_apply_mode [--webapps N]\n");
      return 2;
    }
  }
  if (n <= 0) n = 1;
  const Mode update = run("update", &update_mode, n);
  const Mode apply = run("apply", &apply_mode, n);
  std::printf("bench_apply_mode: %d WebApps, Deployment + Service children, in-process cluster, %s\n", n,
              bench::compiler_name());
  std::printf("per reconcile (one WebApp, both children); bytes are JSON request bodies and answers\n");
  row("create", update.create, apply.create);
  row("steady", update.steady, apply.steady);
  row("change", update.change, apply.change);

  const StatusMode status_update = run_status(rr::StatusWrite::Update, n);
  const StatusMode status_apply = run_status(rr::StatusWrite::Apply, n);
  std::printf(
      "\nthe WebApp's status write (ResourceReconciler: the get of the WebApp, then the write), per reconcile\n");
  row("first", status_update.first, status_apply.first);
  row("steady", status_update.steady, status_apply.steady);
  row("change", status_update.change, status_apply.change);
  return 0;
}
