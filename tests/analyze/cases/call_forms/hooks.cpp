// Every call form rrgen analyze knows (docs/analyze.md), once each.
#include "k8s/apps/v1/deployment.hpp"
#include "k8s/core/v1/config_map.hpp"
#include "k8s/core/v1/namespace.hpp"
#include "k8s/core/v1/pod.hpp"
#include "k8s/core/v1/secret.hpp"
#include "k8s/core/v1/service.hpp"
#include "rr/client/watch.hpp"
#include "rr/core/json.hpp"
#include "rr/reconcilers/config_track.hpp"
#include "rr/reconcilers/context.hpp"
#include "rr/reconcilers/finalizers.hpp"
#include "rr/reconcilers/object_manager.hpp"
#include "rr/reconcilers/sub_reconciler.hpp"

namespace cases {

using k8s::apps::v1::Deployment;
using k8s::core::v1::ConfigMap;
using k8s::core::v1::Pod;
using k8s::core::v1::Secret;
using k8s::core::v1::Service;

void typed_client(rr::Client& client, const Deployment& d) {
  (void)client.get<Secret>("ns", "name");
  (void)client.try_get<ConfigMap>({"ns", "name"});
  (void)client.list<Pod>();
  (void)client.create(d);
  (void)client.update(d);
  (void)client.update_status(d);
  (void)client.patch<Deployment>({"ns", "name"}, rr::PatchType::Merge, "{}");
  (void)client.patch<Deployment>({"ns", "name"}, rr::PatchType::Merge, "{}", "status");
  client.remove(d);
}

void typed_api(rr::Client& client) {
  rr::Api<Service> services(client, "ns");
  (void)services.get("a");
  (void)services.list();
  (void)services.watch();
  rr::Api<k8s::core::v1::Namespace> namespaces(client);
  (void)namespaces.try_get("kube-system");
}

void unstructured(rr::Client& client) {
  (void)client.get(rr::kind_info_of<Secret>(), {"ns", "name"});
  const rr::KindInfo pods = rr::kind_info_of<Pod>();
  client.remove_collection(pods, {});
  const rr::KindInfo widgets{.gvk = {"example.dev", "v1", "Widget"},
                             .plural = "widgets",
                             .list_kind = "WidgetList",
                             .scope = rr::Scope::Namespaced};
  (void)client.list(widgets, {});
  (void)client.watch(client.kind_info({"apps", "v1", "StatefulSet"}), {});
  (void)client.patch(rr::Api<Deployment>::kind(), {"ns", "name"}, rr::PatchType::Merge, "{}", "scale");
}

// The kind is known, the subresource is not: unresolved, as a kind chosen at run time.
void runtime_subresource(rr::Client& client, std::string_view subresource) {
  (void)client.patch<Deployment>({"ns", "name"}, rr::PatchType::Merge, "{}", subresource);
}

void reconciler_helpers(rr::Context& ctx, Deployment& d) {
  (void)rr::track_and_get<ConfigMap>(ctx, {"ns", "config"});
  (void)rr::track_and_list<Pod>(ctx, {});
  ctx.config().tracker->track_object(d, {"ns", "owner"});
  ctx.config().recorder->event(d, rr::event_normal, "Reason", "message");
  (void)rr::add_finalizer(ctx, d, "example.dev/cleanup");
}

// Reads through the controller's cached client need its informer's list and watch; through the
// direct reader, the read itself; through a client of unknown origin (the parameters above),
// either.
void cached_and_direct(rr::Context& ctx) {
  (void)ctx.config().api().get<Pod>("ns", "cached");
  (void)ctx.config().client->list<Service>();
  rr::Client& direct = ctx.config().reader();
  (void)direct.get<Pod>("ns", "direct");
  rr::Api<ConfigMap> configs(ctx.config().reader(), "ns");
  (void)configs.get("direct");
}

// A hand-written reconciler's watch registrations, and an object manager called by hand.
void registrations(rr::Setup& s) {
  s.for_kind(rr::kind_info_of<Deployment>());
  s.owns(rr::kind_info_of<Service>());
  s.watches_tracked(rr::kind_info_of<ConfigMap>());
}

void managed(rr::Context& ctx, Deployment& parent, const Secret& desired) {
  rr::UpdatingObjectManager<Secret> manager;
  manager.merge_before_update = [](Secret& current, const Secret& want) { current.data = want.data; };
  (void)manager.manage(ctx, parent, nullptr, &desired);
}

}  // namespace cases
