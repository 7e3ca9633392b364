// Apply configurations as JSON: decoding a whole object and encoding it again gives the same
// document (less what no applier sets: the server's metadata), a configuration writes only the
// members that were set, and extract_<kind> over a CRD kind gives each of two managers exactly
// what it applied.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "apply_fixture.hpp"
#include "applytest/v1/widget_apply.hpp"
#include "k8s/apps/v1/deployment_apply.hpp"
#include "k8s/core/v1/config_map_apply.hpp"
#include "k8s/core/v1/secret_apply.hpp"
#include "k8s/core/v1/service_account_apply.hpp"
#include "k8s/core/v1/service_apply.hpp"
#include "rr/cluster/cluster.hpp"
#include "rr/core/json.hpp"

namespace {

using rr::apply_testing::as_configuration;

template <class A>
void check_fixture_round_trip(const std::string& file) {
  const std::filesystem::path path = std::filesystem::path(RR_K8S_FIXTURES) / file;
  if (std::string(RR_K8S_FIXTURES).empty() || !std::filesystem::exists(path)) {
    MESSAGE("no Kubernetes fixture " << file << " (../shared/reference absent): skipped");
    return;
  }
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  const rr::Json fixture = rr::Json::parse(text.str());
  const A config = A::from_json_text(text.str());
  CHECK(rr::Json::parse(config.to_json_text()) == as_configuration(fixture));
  // And through nlohmann's conversions.
  CHECK(rr::Json(config) == as_configuration(fixture));
  CHECK(rr::Json(config).get<A>() == config);
}

}  // namespace

TEST_CASE("built-in apply configurations round-trip Kubernetes' fixtures") {
  check_fixture_round_trip<k8s::apps::v1::DeploymentApply>("apps.v1.Deployment.json");
  check_fixture_round_trip<k8s::core::v1::ServiceApply>("core.v1.Service.json");
  check_fixture_round_trip<k8s::core::v1::ConfigMapApply>("core.v1.ConfigMap.json");
  check_fixture_round_trip<k8s::core::v1::SecretApply>("core.v1.Secret.json");
  check_fixture_round_trip<k8s::core::v1::ServiceAccountApply>("core.v1.ServiceAccount.json");
}

TEST_CASE("an apply configuration writes only what was set") {
  CHECK(rr::Json::parse(k8s::apps::v1::DeploymentApply{}.to_json_text()) ==
        rr::Json::parse(R"({"apiVersion":"apps/v1","kind":"Deployment"})"));
  const k8s::apps::v1::DeploymentApply scale{.metadata = {.name = "web"},
                                             .spec = k8s::apps::v1::DeploymentSpecApply{.replicas = 0}};
  // Zero is set, not absent; the required members of the types (selector, template) stay out.
  CHECK(rr::Json::parse(scale.to_json_text()) ==
        rr::Json::parse(
            R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"replicas":0}})"));
  // An empty list is set too: applying it removes the manager's items.
  const applytest::v1::WidgetApply empty_tags{
      .spec = applytest::v1::WidgetSpecApply{.tags = std::vector<std::string>{}}};
  CHECK(rr::Json::parse(empty_tags.to_json_text())["spec"] == rr::Json::parse(R"({"tags":[]})"));
  // A nullable member: absent, or null (which removes the field), or a value.
  applytest::v1::WidgetApply note{.spec = applytest::v1::WidgetSpecApply{}};
  note.spec->note.set_null();
  CHECK(rr::Json::parse(note.to_json_text())["spec"] == rr::Json::parse(R"({"note":null})"));
}

namespace {

const char* const kWidget = R"({
  "apiVersion": "applytest.rrgen.dev/v1", "kind": "Widget",
  "metadata": {"name": "w", "namespace": "default", "labels": {"app": "w"}, "annotations": {"a": "b"},
               "finalizers": ["applytest.rrgen.dev/f"]},
  "spec": {"size": 3, "mode": "fast", "note": null,
           "ports": [{"port": 80, "protocol": "TCP", "name": "http"}, {"port": 53, "protocol": "UDP"}],
           "tags": ["a", "b"], "settings": {"x": "1", "y": ""}, "owner": {"team": "core"}},
  "status": {"phase": "Ready",
             "conditions": [{"type": "Ready", "status": "True", "lastTransitionTime": "2026-11-30T07:00:00Z",
                             "reason": "Up", "message": "all good", "observedGeneration": 2}]}
})";

}  // namespace

TEST_CASE("a CRD's apply configuration round-trips, enums and nullable members included") {
  const auto config = applytest::v1::WidgetApply::from_json_text(kWidget);
  CHECK(rr::Json::parse(config.to_json_text()) == rr::Json::parse(kWidget));
  REQUIRE(config.spec);
  CHECK(config.spec->mode == applytest::v1::WidgetSpecMode::Fast);
  CHECK(config.spec->note.is_null());
  REQUIRE(config.spec->find_ports(53, "UDP") != nullptr);
  CHECK(!config.spec->find_ports(53, "UDP")->name);
  CHECK(config.spec->find_ports(53, "TCP") == nullptr);
  // An unknown member is not part of a configuration: dropped on decode.
  rr::Json with_unknown = rr::Json::parse(kWidget);
  with_unknown["spec"]["later"] = 1;
  CHECK(rr::Json(with_unknown.get<applytest::v1::WidgetApply>()) == rr::Json::parse(kWidget));
}

TEST_CASE("extract_widget gives each of two managers what it applied, and nothing of the other's") {
  auto cluster = std::make_shared<rr::Cluster>();
  cluster->register_kind<applytest::v1::Widget>();
  rr::ClusterClient client(cluster);
  using applytest::v1::WidgetApply;
  using applytest::v1::WidgetSpecApply;
  const WidgetApply a{.metadata = {.name = "w", .namespace_ = "default", .labels = {{{"team", "a"}}}},
                      .spec = WidgetSpecApply{.size = 3,
                                              .mode = applytest::v1::WidgetSpecMode::Slow,
                                              .settings = std::map<std::string, std::string>{{"x", "1"}}}};
  const WidgetApply b{.metadata = {.name = "w", .namespace_ = "default", .annotations = {{{"b", "yes"}}}},
                      .spec = WidgetSpecApply{.settings = std::map<std::string, std::string>{{"y", "2"}},
                                              .owner = applytest::v1::WidgetSpecOwnerApply{.team = "b"}}};
  client.apply(a, {.field_manager = "a"});
  const applytest::v1::Widget both = client.apply(b, {.field_manager = "b"});
  CHECK(both.spec->settings->size() == 2);  // a granular map: both managers' keys
  CHECK(applytest::v1::extract_widget(both, "a") == a);
  CHECK(applytest::v1::extract_widget(both, "b") == b);

  // The status subresource, by a third manager.
  const WidgetApply status{.metadata = {.name = "w", .namespace_ = "default"},
                           .status = applytest::v1::WidgetStatusApply{.phase = "Ready"}};
  const applytest::v1::Widget with_status = client.apply_status(status, {.field_manager = "c"});
  CHECK(applytest::v1::extract_widget_status(with_status, "c") == status);
  CHECK(applytest::v1::extract_widget(with_status, "a") == a);
}
