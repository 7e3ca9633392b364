// Client::apply with generated apply configurations against every server the runtime has: the
// in-process rr::Cluster (ClusterClient), the API server over HTTP (HttpClient) and the cached
// client (which must send the apply to the server, not to its cache). Each: the first apply
// creates, the next updates; another manager's apply of an owned field without force is a 409
// Conflict with the API server's text; with force it takes the field over; and extract_<kind>
// gives back exactly what a manager applied, without what another owns.
#include <doctest/doctest.h>

#include <functional>
#include <memory>
#include <string>

#include "k8s/apps/v1/deployment_apply.hpp"
#include "k8s/core/v1/service_apply.hpp"
#include "rr/apiserver/api_server.hpp"
#include "rr/apiserver/builtin_kinds.hpp"
#include "rr/client/api_error.hpp"
#include "rr/client/apply.hpp"
#include "rr/cluster/cluster.hpp"
#include "rr/controller/cached_client.hpp"
#include "rr/controller/informer_cache.hpp"
#include "rr/core/json.hpp"
#include "rr/http_client/http_client.hpp"

using k8s::apps::v1::DeploymentApply;
using k8s::apps::v1::DeploymentSpecApply;
using k8s::core::v1::ContainerApply;
using k8s::core::v1::PodSpecApply;
using k8s::core::v1::PodTemplateSpecApply;
using k8s::core::v1::ServiceApply;
using k8s::core::v1::ServicePortApply;
using k8s::core::v1::ServiceSpecApply;

namespace {

rr::LabelSelector selector(const std::string& app) {
  rr::LabelSelector s;
  s.match_labels = std::map<std::string, std::string>{{"app", app}};
  return s;
}

// What the operator owns of its Deployment: replicas, the selector and one container.
DeploymentApply web(std::int32_t replicas, const std::string& image = "nginx:1") {
  return DeploymentApply{
      .metadata = {.name = "web", .namespace_ = "default", .labels = {{{"app", "web"}}}},
      .spec = DeploymentSpecApply{
          .replicas = replicas,
          .selector = selector("web"),
          .template_ = PodTemplateSpecApply{
              .metadata = rr::ObjectMetaApply{.labels = {{{"app", "web"}}}},
              .spec = PodSpecApply{.containers = std::vector{ContainerApply{.image = image, .name = "app"}}}}}};
}

// One server behind one client: the three paths run the same checks.
struct Path {
  std::shared_ptr<rr::Cluster> cluster = std::make_shared<rr::Cluster>();
  std::unique_ptr<rr::ApiServer> server;
  std::shared_ptr<rr::InformerCache> cache;
  std::shared_ptr<rr::Client> client;
  std::shared_ptr<rr::Client> api;  // what the cached client writes through
};

std::unique_ptr<Path> in_process() {
  auto p = std::make_unique<Path>();
  rr::register_builtin_kinds(*p->cluster);
  p->client = std::make_shared<rr::ClusterClient>(p->cluster);
  return p;
}

std::unique_ptr<Path> over_http() {
  auto p = std::make_unique<Path>();
  p->server = std::make_unique<rr::ApiServer>(p->cluster);
  p->server->start();
  rr::RestConfig config;
  config.host = p->server->url();
  config.qps = 0;
  p->client = std::make_shared<rr::HttpClient>(config);
  return p;
}

std::unique_ptr<Path> cached() {
  auto p = in_process();
  p->api = p->client;
  p->cache = std::make_shared<rr::InformerCache>(p->api);
  p->client = std::make_shared<rr::CachedClient>(p->api, p->cache);
  return p;
}

const rr::Status& conflict_of(const std::function<void()>& call, rr::Status& out) {
  try {
    call();
    FAIL("expected a 409 Conflict");
  } catch (const rr::ApiError& e) {
    out = e.status();
  }
  return out;
}

void check_apply(rr::Client& client) {
  // The first apply creates the object, owned by "op" with operation Apply.
  const auto created = client.apply(web(2), {.field_manager = "op"});
  CHECK(!created.metadata.uid.empty());
  CHECK(created.spec->replicas == 2);
  REQUIRE(!created.metadata.managed_fields.empty());
  CHECK(created.metadata.managed_fields.front().manager == "op");
  CHECK(created.metadata.managed_fields.front().operation == "Apply");

  // The next one updates it (same object, new resourceVersion).
  const auto updated = client.apply(web(3), {.field_manager = "op"});
  CHECK(updated.metadata.uid == created.metadata.uid);
  CHECK(updated.metadata.resource_version != created.metadata.resource_version);
  CHECK(updated.spec->replicas == 3);

  // What "op" applied comes back exactly.
  CHECK(k8s::apps::v1::extract_deployment(updated, "op") == web(3));

  // Another manager that sets replicas without force: the API server's 409.
  const DeploymentApply scale{.metadata = {.name = "web", .namespace_ = "default"},
                              .spec = DeploymentSpecApply{.replicas = 5}};
  rr::Status status;
  conflict_of([&] { client.apply(scale, {.field_manager = "autoscaler"}); }, status);
  CHECK(status.code == 409);
  CHECK(status.reason == "Conflict");
  CHECK(status.message == "Apply failed with 1 conflict: conflict with \"op\": .spec.replicas");

  // With force it takes replicas over: "op"'s configuration no longer holds them, the
  // autoscaler's holds only them.
  const auto forced = client.apply(scale, {.field_manager = "autoscaler", .force = true});
  CHECK(forced.spec->replicas == 5);
  DeploymentApply without_replicas = web(3);
  without_replicas.spec->replicas.reset();
  CHECK(k8s::apps::v1::extract_deployment(forced, "op") == without_replicas);
  CHECK(k8s::apps::v1::extract_deployment(forced, "autoscaler") == scale);
  // Nobody's: only what names the object.
  CHECK(k8s::apps::v1::extract_deployment(forced, "nobody") ==
        DeploymentApply{.metadata = {.name = "web", .namespace_ = "default"}});
}

}  // namespace

TEST_CASE("apply through the in-process cluster: create, update, conflict, force, extract") {
  auto p = in_process();
  check_apply(*p->client);
}

TEST_CASE("apply over HTTP: create, update, conflict, force, extract") {
  auto p = over_http();
  check_apply(*p->client);
}

TEST_CASE("apply through the cached client goes to the server") {
  auto p = cached();
  check_apply(*p->client);
  // The server has it (the cache only reads).
  const rr::Json stored = p->api->get(rr::kind_info_of<k8s::apps::v1::Deployment>(), {"default", "web"});
  CHECK(stored["spec"]["replicas"] == 5);
}

TEST_CASE("apply_status applies to the status subresource, and extract_<kind>_status reads it back") {
  auto p = in_process();
  p->client->apply(web(1), {.field_manager = "op"});
  const DeploymentApply status{
      .metadata = {.name = "web", .namespace_ = "default"},
      .status = k8s::apps::v1::DeploymentStatusApply{.observed_generation = 1, .ready_replicas = 1}};
  const auto out = p->client->apply_status(status, {.field_manager = "op-status"});
  CHECK(out.status->ready_replicas == 1);
  CHECK(k8s::apps::v1::extract_deployment_status(out, "op-status") == status);
  // The main resource's entry of another manager is not the status one.
  CHECK(!k8s::apps::v1::extract_deployment(out, "op-status").status);
}

TEST_CASE("a list-map keeps each manager's items: extract gives a manager its own ports only") {
  auto p = in_process();
  auto port = [](std::int32_t number, const std::string& name) {
    return ServicePortApply{.name = name, .port = number, .protocol = "TCP"};
  };
  const ServiceApply a{.metadata = {.name = "svc", .namespace_ = "default"},
                       .spec = ServiceSpecApply{.ports = std::vector{port(80, "http")},
                                                .selector = std::map<std::string, std::string>{{"app", "web"}}}};
  const ServiceApply b{.metadata = {.name = "svc", .namespace_ = "default"},
                       .spec = ServiceSpecApply{.ports = std::vector{port(9090, "metrics")}}};
  p->client->apply(a, {.field_manager = "a"});
  const auto both = p->client->apply(b, {.field_manager = "b"});
  REQUIRE(both.spec->ports);
  CHECK(both.spec->ports->size() == 2);
  CHECK(k8s::core::v1::extract_service(both, "a") == a);
  CHECK(k8s::core::v1::extract_service(both, "b") == b);
  // The generated lookup by the list's keys.
  const ServiceApply extracted = k8s::core::v1::extract_service(both, "a");
  REQUIRE(extracted.spec->find_ports(80, "TCP") != nullptr);
  CHECK(extracted.spec->find_ports(80, "TCP")->name == "http");
  CHECK(extracted.spec->find_ports(9090, "TCP") == nullptr);
}

TEST_CASE("with_field_owner gives every apply its manager") {
  auto p = in_process();
  auto client = rr::with_field_owner(p->client, "my-operator");
  const auto out = client->apply(web(1));
  REQUIRE(!out.metadata.managed_fields.empty());
  CHECK(out.metadata.managed_fields.front().manager == "my-operator");
  // Without any manager the server refuses the apply, as the API server does (422 Invalid).
  rr::Status status;
  try {
    p->client->apply(web(1));
    FAIL("expected 422");
  } catch (const rr::ApiError& e) {
    status = e.status();
  }
  CHECK(status.code == 422);
  CHECK(status.message.find("fieldManager: Required value: is required for apply patch") != std::string::npos);
}
